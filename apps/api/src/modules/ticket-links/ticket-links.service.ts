import {
  TICKET_LINK_MSG,
  TICKET_MSG,
  type TTicketLinkCreate,
  type TTicketLinks,
  type TicketRelation,
} from '@portal/contract';
import type { Database } from '../../db/database.ts';
import type { TicketLinkKind } from '../../db/schema.ts';
import { HttpError, forbidden, notFound, validationFailed } from '../../lib/http-error.ts';
import type { NewTicketEvent, TicketEventsRepository } from '../tickets/ticket-events.repository.ts';
import type { NotificationsService } from '../notifications/notifications.service.ts';
import type { TicketsRepository } from '../tickets/tickets.repository.ts';
import type { Actor, TicketsService } from '../tickets/tickets.service.ts';
import type { TicketLinksRepository } from './ticket-links.repository.ts';
import type { ReferencesRepository } from '../references/references.repository.ts';

interface Deps {
  database: Database;
  links: TicketLinksRepository;
  tickets: Pick<TicketsRepository, 'findOwnership' | 'findById'>;
  ticketsService: Pick<TicketsService, 'maySee' | 'mayActOn' | 'announce'>;
  events: Pick<TicketEventsRepository, 'record'>;
  notifications: Pick<NotificationsService, 'notify'>;
  /** A merge copies the duplicate's logistics references to the original. */
  references: Pick<ReferencesRepository, 'copy'>;
}

/** What a relation asked from one ticket stores: its kind and which end each ticket is. */
function linkOf(id: number, relation: TTicketLinkCreate['relation'], other: number) {
  const links: Record<TTicketLinkCreate['relation'], { kind: TicketLinkKind; from: number; to: number }> = {
    parent: { kind: 'parent', from: other, to: id },
    child: { kind: 'parent', from: id, to: other },
    duplicate_of: { kind: 'duplicate', from: id, to: other },
    related: { kind: 'related', from: id, to: other },
  };
  return links[relation];
}

/** The relation the other end of a link reads. */
const mirror: Record<TicketRelation, TicketRelation> = {
  parent: 'child',
  child: 'parent',
  duplicate_of: 'duplicated_by',
  duplicated_by: 'duplicate_of',
  related: 'related',
};

/**
 * Relations between tickets. Reading them needs to see the ticket; adding or removing one
 * needs `u` on it (as editing it does) and, for the ticket at the other end, to see it.
 * A linked ticket the caller may not see shows its number and status only.
 */
export function createTicketLinksService({
  database,
  links,
  tickets,
  ticketsService,
  events,
  notifications,
  references,
}: Deps) {
  const { maySee, mayActOn, announce } = ticketsService;

  async function ownership(id: number) {
    const ticket = await tickets.findOwnership(id);
    if (!ticket) throw notFound(TICKET_MSG.notFound);
    return ticket;
  }

  return {
    async list(actor: Actor, id: number): Promise<TTicketLinks> {
      const ticket = await ownership(id);
      if (!(await maySee(actor, ticket))) throw forbidden(TICKET_MSG.cannotSee);
      const rows = await links.linksOf(id);
      const data = await Promise.all(
        rows.map(async (r) => {
          const visible = await maySee(actor, r);
          return {
            id: r.linkId,
            relation: r.relation,
            ticket: {
              id: r.ticketId,
              name: visible ? r.name : '',
              visible,
              status_tickets: { name: r.status_name, stage: r.stage },
            },
          };
        }),
      );
      const children = rows.filter((r) => r.relation === 'child');
      return {
        status: true,
        data,
        children: { total: children.length, resolved: children.filter((c) => c.stage === 'closed').length },
        can_edit: await mayActOn(actor, ticket, 'u'),
      };
    },

    async add(actor: Actor, id: number, body: TTicketLinkCreate): Promise<void> {
      const ticket = await ownership(id);
      if (!(await mayActOn(actor, ticket, 'u'))) throw forbidden(TICKET_MSG.notYours);
      if (body.ticket_id === id) throw validationFailed({ ticket_id: [TICKET_LINK_MSG.self] });
      const other = await tickets.findById(body.ticket_id);
      if (!other) throw validationFailed({ ticket_id: [TICKET_LINK_MSG.otherMissing] });
      if (!(await maySee(actor, other))) throw forbidden(TICKET_LINK_MSG.otherHidden);
      const current = await tickets.findById(id);
      const link = linkOf(id, body.relation, other.id);
      await database.db.transaction().execute(async (trx) => {
        await links.lock(trx);
        if (await links.findBetween(id, other.id, trx)) throw validationFailed({ ticket_id: [TICKET_LINK_MSG.exists] });
        if (link.kind === 'parent') {
          if ((await links.upOf(link.to, 'parent', trx)) !== undefined) {
            throw validationFailed({ ticket_id: [TICKET_LINK_MSG.hasParent] });
          }
          // The child may not be the parent's ancestor (nor the parent itself).
          if (await links.reaches(link.from, link.to, 'parent', trx)) {
            throw validationFailed({ ticket_id: [TICKET_LINK_MSG.cycle] });
          }
        }
        if (link.kind === 'duplicate') {
          if ((await links.upOf(link.from, 'duplicate', trx)) !== undefined) {
            throw validationFailed({ ticket_id: [TICKET_LINK_MSG.hasOriginal] });
          }
          if (await links.reaches(link.to, link.from, 'duplicate', trx)) {
            throw validationFailed({ ticket_id: [TICKET_LINK_MSG.cycle] });
          }
        }
        await links.insert({ ...link, createdBy: actor.id }, trx);
        const entry = (
          ticketId: number,
          relation: TicketRelation,
          to: { id: number; name: string },
        ): NewTicketEvent => ({
          ticketId,
          userId: actor.id,
          kind: 'linked',
          field: relation,
          to: `#${to.id} ${to.name}`,
        });
        await events.record(
          [entry(id, body.relation, other), entry(other.id, mirror[body.relation], { id, name: current?.name ?? '' })],
          trx,
        );
      });
      announce({ ...ticket, id });
      announce(other);
    },

    /**
     * `Marcar como duplicado de #N`, in one transaction: the duplicate's activities and
     * attachments move to #N (each marked with where it came from), the two are linked as
     * duplicate → original, its logistics references are copied to #N, the duplicate closes in
     * 'Cancelado' with timeline events on both, and both assignees are notified. Needs `u` on both tickets; a failure writes nothing.
     */
    async merge(actor: Actor, id: number, originalId: number) {
      const duplicate = await tickets.findById(id);
      if (!duplicate) throw notFound(TICKET_MSG.notFound);
      if (!(await mayActOn(actor, duplicate, 'u'))) throw forbidden(TICKET_MSG.notYours);
      if (originalId === id) throw validationFailed({ ticket_id: [TICKET_LINK_MSG.self] });
      const original = await tickets.findById(originalId);
      if (!original) throw validationFailed({ ticket_id: [TICKET_LINK_MSG.otherMissing] });
      if (!(await maySee(actor, original))) throw forbidden(TICKET_LINK_MSG.otherHidden);
      if (!(await mayActOn(actor, original, 'u'))) throw forbidden(TICKET_MSG.notYours);

      const result = await database.db.transaction().execute(async (trx) => {
        await links.lock(trx);
        const up = await links.upOf(id, 'duplicate', trx);
        if (up !== undefined && up !== originalId) throw validationFailed({ ticket_id: [TICKET_LINK_MSG.hasOriginal] });
        if (await links.reaches(originalId, id, 'duplicate', trx)) {
          throw validationFailed({ ticket_id: [TICKET_LINK_MSG.cycle] });
        }
        const status = await links.cancelledStatus(trx);
        if (!status) throw new HttpError(409, TICKET_LINK_MSG.alreadyMerged);
        const between = await links.findBetween(id, originalId, trx);
        if (between && between.kind !== 'duplicate') await links.remove(between.id, trx);
        if (!between || between.kind !== 'duplicate') {
          await links.insert({ from: id, to: originalId, kind: 'duplicate', createdBy: actor.id }, trx);
        }
        const moved = await links.moveInto(id, originalId, status.id, trx);
        await references.copy(id, originalId, trx);
        const changes: NewTicketEvent[] = [
          { ticketId: id, userId: actor.id, kind: 'merged', field: 'into', to: `#${originalId} ${original.name}` },
          { ticketId: originalId, userId: actor.id, kind: 'merged', field: 'from', from: `#${id} ${duplicate.name}` },
        ];
        if (duplicate.status_id !== status.id) {
          changes.push({
            ticketId: id,
            userId: actor.id,
            kind: 'status_changed',
            field: 'status_id',
            from: duplicate.status_tickets.name,
            to: status.name,
          });
        }
        await events.record(changes, trx);
        const message = TICKET_LINK_MSG.mergedNotice(id, originalId);
        for (const [recipientId, ticketId] of [
          [duplicate.user_assigned_id, id],
          [original.user_assigned_id, originalId],
        ] as const) {
          // The duplicate closes and the original takes its activities: a change of status to both.
          await notifications.notify(
            { recipientId, actorId: actor.id, ticketId, event: 'status_changed', message },
            trx,
          );
        }
        return moved;
      });
      announce(duplicate);
      announce(original);
      return { original_id: originalId, ...result };
    },

    async remove(actor: Actor, id: number, linkId: number): Promise<void> {
      const ticket = await ownership(id);
      const link = await links.findLink(linkId);
      if (!link || (link.from_ticket_id !== id && link.to_ticket_id !== id)) throw notFound(TICKET_LINK_MSG.notFound);
      if (!(await mayActOn(actor, ticket, 'u'))) throw forbidden(TICKET_MSG.notYours);
      const otherId = link.from_ticket_id === id ? link.to_ticket_id : link.from_ticket_id;
      await database.db.transaction().execute(async (trx) => {
        await links.lock(trx);
        await links.remove(linkId, trx);
        await events.record(
          [
            { ticketId: id, userId: actor.id, kind: 'unlinked', from: `#${otherId}` },
            { ticketId: otherId, userId: actor.id, kind: 'unlinked', from: `#${id}` },
          ],
          trx,
        );
      });
      announce({ ...ticket, id });
      const other = await tickets.findOwnership(otherId);
      if (other) announce(other);
    },
  };
}
export type TicketLinksService = ReturnType<typeof createTicketLinksService>;
