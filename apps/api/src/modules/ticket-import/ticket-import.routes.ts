import multipart from '@fastify/multipart';
import { SECTIONS, TICKET_IMPORT_MSG, ZErrorResponse, type TTicketImportProgress } from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PassThrough } from 'node:stream';
import { z } from 'zod';
import type { Services } from '../../services.ts';
import type { TicketImportProgress } from './ticket-import.ts';

/** The largest CSV file an import accepts. */
export const TICKET_IMPORT_MAX_BYTES = 1024 * 1024 * 1024;

/** Progress lines are sent at most this often (the last one of each phase always). */
const PROGRESS_EVERY_MS = 250;

/**
 * `POST /tickets/import` (Importar CSV on Tickets Generales; section ti_import, w): the file is
 * read from the upload as it arrives and checked whole; lines that cannot be imported are answered
 * 422 and nothing is written; otherwise the answer streams the load's progress as NDJSON while
 * the tickets are written by batches, the event loop free between them.
 */
export const ticketImportRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { ticketImporter } = services;
  const limits = { fileSize: TICKET_IMPORT_MAX_BYTES, files: 1, fields: 0, parts: 1 };
  await app.register(multipart, { limits });

  app.post(
    '/tickets/import',
    {
      config: { access: { section: SECTIONS.ticketImport, flag: 'w' } },
      bodyLimit: TICKET_IMPORT_MAX_BYTES + 1024 * 1024,
      schema: {
        tags: ['tickets'],
        summary: 'Importar CSV: tickets en el formato de la exportación (solo administradores)',
        description:
          'multipart/form-data con un archivo CSV con las columnas de la exportación. Catálogos y usuarios se buscan por nombre (sin distinguir mayúsculas ni acentos); las fechas se conservan. Si alguna línea no se puede importar, 422 con los motivos de cada línea en `errors` (la clave es el número de línea), y no se escribe nada. Si no, 200 application/x-ndjson: el avance de la carga, una línea JSON por evento, y al final `done` o `failed` (en ese caso no queda nada importado).',
        consumes: ['multipart/form-data'],
        response: {
          200: z.string().describe('NDJSON'),
          400: ZErrorResponse,
          409: ZErrorResponse,
          413: ZErrorResponse,
          401: ZErrorResponse,
          403: ZErrorResponse,
          422: ZErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const ran = await ticketImporter.exclusive(async () => {
        const upload = await request.file({ limits });
        if (!upload) {
          return reply.status(422).send({ status: false as const, message: TICKET_IMPORT_MSG.noFile });
        }
        // A cut or malformed upload fails while the file is read: a 400, not the server's fault.
        let isUploadBroken = false;
        const file = (async function* () {
          try {
            yield* upload.file;
          } catch (error) {
            isUploadBroken = true;
            throw error;
          }
        })();
        let checked;
        try {
          checked = await ticketImporter.check(file as AsyncIterable<Buffer>);
        } catch (error) {
          if (!isUploadBroken) throw error;
          return reply.status(400).send({ status: false as const, message: TICKET_IMPORT_MSG.interrupted });
        }
        if (upload.file.truncated) {
          return reply.status(413).send({ status: false as const, message: TICKET_IMPORT_MSG.tooLarge });
        }
        if (checked.errorCount > 0) {
          const errors: Record<string, string[]> = {};
          for (const { line, message } of checked.errors) (errors[String(line)] ??= []).push(message);
          return reply
            .status(422)
            .send({ status: false as const, message: TICKET_IMPORT_MSG.rejected(checked.rejectedLines), errors });
        }
        const stream = new PassThrough();
        const send = (event: TTicketImportProgress) => stream.write(`${JSON.stringify(event)}\n`);
        void reply
          .type('application/x-ndjson; charset=utf-8')
          .header('cache-control', 'no-store')
          .header('x-accel-buffering', 'no')
          .send(stream as unknown as string);
        let lastSent = 0;
        const progress = (p: TicketImportProgress) => {
          if (p.phase === 'reading') return;
          const now = performance.now();
          if (p.phase === 'loading' && p.done < p.total && now - lastSent < PROGRESS_EVERY_MS) return;
          lastSent = now;
          send(p);
        };
        try {
          await ticketImporter.load(checked.rows, progress);
          send({
            phase: 'done',
            imported: checked.rows.length,
            message: TICKET_IMPORT_MSG.imported(checked.rows.length),
          });
        } catch (error) {
          request.log.error({ err: error }, 'ticket import failed');
          send({ phase: 'failed', message: TICKET_IMPORT_MSG.failed });
        } finally {
          stream.end();
        }
        return reply;
      });
      if (!ran) {
        // Read the upload off the socket before answering, so the client sees the answer.
        request.raw.resume();
        return reply.status(409).send({ status: false as const, message: TICKET_IMPORT_MSG.busy });
      }
      return ran.value;
    },
  );
};
