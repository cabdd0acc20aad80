import {
  normaliseReference,
  REFERENCE_MSG,
  SECTIONS,
  TICKET_MSG,
  type TReferenceBulk,
  type TReferenceBulkResponse,
  type TReferencePage,
} from '@portal/contract';
import { HttpError, notFound } from '../../lib/http-error.ts';
import type { CatalogWrite } from '../catalogs/catalog.service.ts';
import type { PermissionsRepository } from '../permissions/permissions.repository.ts';
import type { TicketsRepository } from '../tickets/tickets.repository.ts';
import type { Actor, TicketsService } from '../tickets/tickets.service.ts';
import type { ReferencesRepository } from './references.repository.ts';

interface Deps {
  references: ReferencesRepository;
  tickets: Pick<TicketsRepository, 'findById'>;
  ticketsService: Pick<TicketsService, 'maySee' | 'assign' | 'update'>;
  permissions: Pick<PermissionsRepository, 'hasFlag'>;
}

/** A write of the Referencias catalogue that changes what is extracted: a new type, a new pattern or status. */
export function needsReextraction({ action, before, after }: Pick<CatalogWrite, 'action' | 'before' | 'after'>) {
  if (action === 'created') return true;
  return before?.pattern !== after.pattern || before?.status_id !== after.status_id;
}

const messageOf = (error: unknown) => (error instanceof HttpError ? error.message : TICKET_MSG.notYours);

/**
 * A reference's page (`/references/{type}/{value}`): the tickets carrying it that the caller may
 * see, open and closed, with a summary; and the bulk actions on its open tickets (assign them
 * all, or move them all to a status), each ticket going through the ticket's own rule (its
 * permission check, its timeline, its notifications), one by one, with a report per ticket.
 */
export function createReferencesService({ references, tickets, ticketsService, permissions }: Deps) {
  const mayUpdate = async (actor: Actor) =>
    (await permissions.hasFlag(actor.role_id, SECTIONS.generalTickets, 'u')) ||
    (await permissions.hasFlag(actor.role_id, SECTIONS.tickets, 'u'));

  async function typeOf(typeId: number) {
    const type = await references.findType(typeId);
    if (!type) throw notFound(REFERENCE_MSG.typeNotFound);
    return type;
  }

  return {
    async page(actor: Actor, typeId: number, rawValue: string): Promise<TReferencePage['data']> {
      const type = await typeOf(typeId);
      const value = normaliseReference(rawValue);
      const rows = await references.ticketsWith(typeId, value);
      const visible = [];
      for (const row of rows) if (await ticketsService.maySee(actor, row)) visible.push(row);
      const open = visible.filter((t) => t.stage !== 'closed').length;
      const lastEvent = await references.lastEventOf(visible.map((t) => t.id));
      const latest = [lastEvent, ...visible.map((t) => t.updated_at)].filter((d): d is string => !!d).sort();
      return {
        type: { id: type.id, name: type.name },
        value,
        summary: {
          open,
          closed: visible.length - open,
          first_seen: visible.map((t) => t.created_at).sort()[0] ?? null,
          last_activity: latest.at(-1) ?? null,
        },
        tickets: visible.map((t) => ({
          id: t.id,
          name: t.name,
          created_at: t.created_at,
          updated_at: t.updated_at,
          status_tickets: { name: t.status_name, stage: t.stage },
          assignee: t.assignee_name ?? '',
        })),
        can_update: await mayUpdate(actor),
      };
    },

    /** Every open ticket with the reference, one by one: those the caller may not change are reported, the others done. */
    async bulk(
      actor: Actor,
      typeId: number,
      rawValue: string,
      body: TReferenceBulk,
      ip: string | null,
    ): Promise<Omit<TReferenceBulkResponse, 'status'>> {
      await typeOf(typeId);
      const value = normaliseReference(rawValue);
      const open = (await references.ticketsWith(typeId, value)).filter((t) => t.stage !== 'closed');
      if (open.length === 0) return { message: REFERENCE_MSG.bulkNothing, results: [] };
      const results: TReferenceBulkResponse['results'] = [];
      for (const row of [...open].reverse()) {
        try {
          if (body.action === 'assign') {
            await ticketsService.assign(actor, row.id, body.user_id, ip);
          } else {
            const ticket = await tickets.findById(row.id);
            if (!ticket) throw notFound(TICKET_MSG.notFound);
            await ticketsService.update(actor, row.id, {
              name: ticket.name,
              description: ticket.description,
              area_id: ticket.area_id,
              project_id: ticket.project_id,
              category_id: ticket.category_id,
              priority_type_id: ticket.priority_type_id,
              difficulty_id: ticket.difficulty_id,
              status_id: body.status_id,
            });
          }
          results.push({ ticket_id: row.id, ok: true, message: TICKET_MSG.updated });
        } catch (error) {
          if (!(error instanceof HttpError)) throw error;
          results.push({ ticket_id: row.id, ok: false, message: messageOf(error) });
        }
      }
      const done = results.filter((r) => r.ok).length;
      return { message: REFERENCE_MSG.bulkDone(done, results.length - done), results };
    },
  };
}
export type ReferencesService = ReturnType<typeof createReferencesService>;
