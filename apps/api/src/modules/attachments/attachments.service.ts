import {
  ATTACHMENT_MSG,
  MAX_ATTACHMENTS_PER_TICKET,
  MAX_FILES_PER_UPLOAD,
  SECTIONS,
  TICKET_MSG,
  type AttachmentType,
  type TAttachment,
  type TAttachmentLimits,
} from '@portal/contract';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { HttpError, forbidden, notFound, validationFailed } from '../../lib/http-error.ts';
import type { PermissionsRepository } from '../permissions/permissions.repository.ts';
import type { TicketsRepository } from '../tickets/tickets.repository.ts';
import type { AuthUserRow } from '../users/users.repository.ts';
import { ATTACHMENT_CHUNK_BYTES, type AttachmentRow, type AttachmentsRepository } from './attachments.repository.ts';

interface Deps {
  database: Database;
  attachments: AttachmentsRepository;
  tickets: Pick<TicketsRepository, 'findOwnership'>;
  permissions: Pick<PermissionsRepository, 'hasFlag'>;
  maxBytes: number;
}

type Actor = Pick<AuthUserRow, 'id' | 'role_id' | 'is_supervisor'>;
type Ticket = { created_by: number; user_assigned_id: number | null };

/** One file of a multipart upload, as @fastify/multipart yields it. */
export interface IncomingFile {
  filename: string;
  file: Readable & { truncated?: boolean };
}

/** The real type of a file from its first bytes (never its name nor its declared type). */
export function sniffType(head: Buffer): AttachmentType | null {
  if (head.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  return null;
}

/** The name a file keeps: no folders, no control characters, at most 255 characters. */
export function cleanFileName(raw: string): string {
  const base = (raw.split(/[\\/]/).pop() ?? '')
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (base === '' || base === '.' || base === '..') return 'archivo';
  if (base.length <= 255) return base;
  const ext = path.extname(base).slice(0, 16);
  return base.slice(0, 255 - ext.length) + ext;
}

/** `Content-Disposition` with an ASCII fallback and the exact name in RFC 5987 `filename*`. */
export function contentDisposition(name: string): string {
  const fallback =
    name
      .normalize('NFKD')
      .replace(/[^\x20-\x7e]/g, '')
      .replace(/["\\%;]/g, '_')
      .trim() || 'archivo';
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

interface Spooled {
  name: string;
  size: number;
  type: AttachmentType;
  file: string;
}

/** An upload that sends nothing for this long is abandoned. */
export const UPLOAD_IDLE_MS = 30_000;
/** Once the request body has ended, a file still open after this long was cut short. */
const CUT_GRACE_MS = 500;

/**
 * Fails a file stream that will never end: the client stopped sending (idle for
 * UPLOAD_IDLE_MS), or the request ended in the middle of the file (a multipart
 * body without its closing boundary, which the parser would otherwise wait on).
 */
function watchForStall(file: Readable, request: Readable) {
  let fail: () => void = () => {};
  // Rejects when the file will never end; the stream is destroyed too, but its pipeline may not settle.
  const failed = new Promise<never>((_resolve, reject) => {
    fail = () => {
      const error = new Error('upload interrupted');
      file.destroy(error);
      reject(error);
    };
  });
  failed.catch(() => {});
  let idle = setTimeout(fail, UPLOAD_IDLE_MS);
  let cut: NodeJS.Timeout | undefined;
  const onRequestEnd = () => {
    cut ??= setTimeout(fail, CUT_GRACE_MS);
  };
  if (request.readableEnded) onRequestEnd();
  request.once('end', onRequestEnd);
  return {
    failed,
    progress() {
      clearTimeout(idle);
      idle = setTimeout(fail, UPLOAD_IDLE_MS);
    },
    stop() {
      clearTimeout(idle);
      clearTimeout(cut);
      request.off('end', onRequestEnd);
    },
  };
}

const multipartRefusals: Record<string, () => HttpError> = {
  FST_FILES_LIMIT: () => validationFailed({ files: [ATTACHMENT_MSG.tooMany] }),
  FST_PARTS_LIMIT: () => validationFailed({ files: [ATTACHMENT_MSG.tooMany] }),
  FST_FIELDS_LIMIT: () => validationFailed({ files: [ATTACHMENT_MSG.tooMany] }),
  FST_INVALID_MULTIPART_CONTENT_TYPE: () => new HttpError(415, ATTACHMENT_MSG.notMultipart),
};

/**
 * Ticket attachments, stored in the database. Who may read a ticket lists and
 * downloads its files; who may update it adds them; the uploader or a
 * privileged role (is_supervisor) deletes them.
 *
 * An upload is spooled to a temporary file while the request arrives (memory
 * holds one chunk), its type sniffed from the first bytes, and only when every
 * file of the request is complete and valid are they copied into the database,
 * chunk by chunk, in one transaction: a slow client never holds a database
 * connection or SQLite's write lock, and an interrupted or refused upload
 * leaves nothing behind.
 */
export function createAttachmentsService({ database, attachments, tickets, permissions, maxBytes }: Deps) {
  const limits: TAttachmentLimits = {
    max_bytes: maxBytes,
    max_files: MAX_FILES_PER_UPLOAD,
    max_per_ticket: MAX_ATTACHMENTS_PER_TICKET,
  };

  const can = (actor: Actor, section: string, flag: 'r' | 'u') => permissions.hasFlag(actor.role_id, section, flag);
  const isInvolved = (actor: Actor, ticket: Ticket) =>
    ticket.created_by === actor.id || ticket.user_assigned_id === actor.id;

  /** Tickets Generales sees every ticket; Mis Tickets those the caller created or is assigned to. */
  async function may(actor: Actor, ticket: Ticket, flag: 'r' | 'u'): Promise<boolean> {
    if (await can(actor, SECTIONS.generalTickets, flag)) return true;
    return isInvolved(actor, ticket) && (await can(actor, SECTIONS.tickets, flag));
  }

  async function ticketFor(actor: Actor, ticketId: number, flag: 'r' | 'u') {
    const ticket = await tickets.findOwnership(ticketId);
    if (!ticket) throw notFound(TICKET_MSG.notFound);
    if (!(await may(actor, ticket, flag))) {
      throw forbidden(flag === 'r' ? ATTACHMENT_MSG.cannotRead : ATTACHMENT_MSG.cannotAdd);
    }
    return ticket;
  }

  async function readable(actor: Actor, id: number): Promise<AttachmentRow> {
    const attachment = await attachments.findById(id);
    if (!attachment) throw notFound(ATTACHMENT_MSG.notFound);
    await ticketFor(actor, attachment.ticket_id, 'r');
    return attachment;
  }

  const mayDelete = (actor: Actor, a: AttachmentRow) =>
    a.uploaded_by.id === actor.id || Number(actor.is_supervisor) === 1;
  const withRights = (actor: Actor, a: AttachmentRow): TAttachment => ({ ...a, can_delete: mayDelete(actor, a) });

  /** Writes one incoming file to `file`, counting its bytes and keeping its first ones. */
  async function spool(part: IncomingFile, file: string, request: Readable): Promise<Omit<Spooled, 'name' | 'file'>> {
    let size = 0;
    let head = Buffer.alloc(0);
    const stall = watchForStall(part.file, request);
    const measure = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        stall.progress();
        size += chunk.length;
        if (head.length < 8) head = Buffer.concat([head, chunk.subarray(0, 8 - head.length)]);
        done(null, chunk);
      },
    });
    try {
      const out = createWriteStream(file, { flags: 'wx', mode: 0o600 });
      await Promise.race([pipeline(part.file, measure, out), stall.failed]).catch((error: unknown) => {
        out.destroy();
        throw error;
      });
    } finally {
      stall.stop();
    }
    const name = cleanFileName(part.filename);
    if (part.file.truncated || size > maxBytes) {
      throw new HttpError(413, ATTACHMENT_MSG.tooLarge(name, maxBytes), {
        errors: { files: [ATTACHMENT_MSG.tooLarge(name, maxBytes)] },
      });
    }
    const type = sniffType(head);
    if (!type) throw validationFailed({ files: [ATTACHMENT_MSG.invalidType(name)] });
    return { size, type };
  }

  /** Reads the whole request into temporary files, refusing it at the first invalid file. */
  async function receive(parts: AsyncIterable<IncomingFile>, request: Readable, dir: string): Promise<Spooled[]> {
    const received: Spooled[] = [];
    try {
      for await (const part of parts) {
        if (received.length >= MAX_FILES_PER_UPLOAD) throw validationFailed({ files: [ATTACHMENT_MSG.tooMany] });
        const file = path.join(dir, String(received.length));
        const { size, type } = await spool(part, file, request);
        received.push({ name: cleanFileName(part.filename), size, type, file });
      }
    } catch (error) {
      if (error instanceof HttpError) throw error;
      const refusal = multipartRefusals[(error as { code?: string }).code ?? ''];
      if (refusal) throw refusal();
      // The client went away or sent a cut multipart body.
      throw new HttpError(400, ATTACHMENT_MSG.interrupted);
    }
    return received;
  }

  return {
    limits,

    async list(actor: Actor, ticketId: number) {
      const ticket = await ticketFor(actor, ticketId, 'r');
      const rows = await attachments.listOfTicket(ticketId);
      return {
        data: rows.map((a) => withRights(actor, a)),
        limits,
        can_add: await may(actor, ticket, 'u'),
      };
    },

    /** Checks that the caller may add files to the ticket and that it has room for more, before reading any. */
    async checkUpload(actor: Actor, ticketId: number): Promise<void> {
      await ticketFor(actor, ticketId, 'u');
      const existing = await attachments.countOfTicket(ticketId);
      if (existing >= MAX_ATTACHMENTS_PER_TICKET) {
        throw validationFailed({ files: [ATTACHMENT_MSG.ticketFull(existing)] });
      }
    },

    /** `parts` are the files of the multipart `request` (the raw body stream, watched for a cut or stalled upload). */
    async upload(
      actor: Actor,
      ticketId: number,
      parts: AsyncIterable<IncomingFile>,
      request: Readable,
    ): Promise<TAttachment[]> {
      const dir = await mkdtemp(path.join(tmpdir(), 'portal-upload-'));
      try {
        const files = await receive(parts, request, dir);
        if (files.length === 0) throw validationFailed({ files: [ATTACHMENT_MSG.missing] });
        const ids = await database.db.transaction().execute(async (trx) => {
          if (!(await attachments.lockTicket(ticketId, trx))) throw notFound(TICKET_MSG.notFound);
          const existing = await attachments.countOfTicket(ticketId, trx);
          if (existing + files.length > MAX_ATTACHMENTS_PER_TICKET) {
            throw validationFailed({ files: [ATTACHMENT_MSG.ticketFull(existing)] });
          }
          const inserted: number[] = [];
          for (const f of files) {
            const id = await attachments.insert(
              { ticketId, name: f.name, size: f.size, type: f.type, uploadedBy: actor.id },
              trx,
            );
            let seq = 0;
            for await (const chunk of createReadStream(f.file, { highWaterMark: ATTACHMENT_CHUNK_BYTES })) {
              await attachments.insertChunk(id, seq, chunk as Buffer, trx);
              seq += 1;
            }
            inserted.push(id);
          }
          return inserted;
        });
        const rows = await attachments.listOfTicket(ticketId);
        return rows.filter((a) => ids.includes(a.id)).map((a) => withRights(actor, a));
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },

    /**
     * Files that came by e-mail, stored like an upload's (type sniffed from the bytes, the same size
     * and count limits) in the caller's transaction. A file the limits refuse is left out, never a
     * reason to lose the mail: answers the names stored and those left out, with why.
     */
    async storeFromMail(
      ticketId: number,
      uploadedBy: number,
      files: { filename: string; content: Buffer }[],
      trx: Kysely<DB>,
    ): Promise<{ stored: string[]; skipped: string[] }> {
      const stored: string[] = [];
      const skipped: string[] = [];
      if (files.length === 0) return { stored, skipped };
      if (!(await attachments.lockTicket(ticketId, trx))) throw notFound(TICKET_MSG.notFound);
      let existing = await attachments.countOfTicket(ticketId, trx);
      for (const file of files) {
        const name = cleanFileName(file.filename);
        const type = sniffType(file.content.subarray(0, 8));
        const refusal =
          file.content.length > maxBytes
            ? ATTACHMENT_MSG.tooLarge(name, maxBytes)
            : !type
              ? ATTACHMENT_MSG.invalidType(name)
              : stored.length >= MAX_FILES_PER_UPLOAD || existing >= MAX_ATTACHMENTS_PER_TICKET
                ? ATTACHMENT_MSG.ticketFull(existing)
                : null;
        if (refusal || !type) {
          skipped.push(refusal ?? name);
          continue;
        }
        const id = await attachments.insert({ ticketId, name, size: file.content.length, type, uploadedBy }, trx);
        for (let seq = 0; seq * ATTACHMENT_CHUNK_BYTES < file.content.length; seq++) {
          await attachments.insertChunk(
            id,
            seq,
            file.content.subarray(seq * ATTACHMENT_CHUNK_BYTES, (seq + 1) * ATTACHMENT_CHUNK_BYTES),
            trx,
          );
        }
        existing += 1;
        stored.push(name);
      }
      return { stored, skipped };
    },

    /** The file's record and its bytes as a stream read one chunk at a time. */
    async open(actor: Actor, id: number): Promise<{ attachment: AttachmentRow; body: Readable }> {
      const attachment = await readable(actor, id);
      async function* chunks() {
        let sent = 0;
        for (let seq = 0; ; seq += 1) {
          const chunk = await attachments.chunk(id, seq);
          if (!chunk) break;
          sent += chunk.length;
          yield chunk;
        }
        // Deleted while it was being read: end with an error rather than a silently short file.
        if (sent !== attachment.size) throw new Error(`attachment ${id} changed while it was read`);
      }
      return { attachment, body: Readable.from(chunks(), { objectMode: false }) };
    },

    async remove(actor: Actor, id: number): Promise<void> {
      const attachment = await readable(actor, id);
      if (!mayDelete(actor, attachment)) throw forbidden(ATTACHMENT_MSG.cannotDelete);
      await attachments.delete(id);
    },
  };
}
export type AttachmentsService = ReturnType<typeof createAttachmentsService>;
