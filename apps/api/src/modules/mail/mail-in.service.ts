import { RECORD_STATUS, SECTIONS, TICKET_TEXT_RULE, type MailInOutcome } from '@portal/contract';
import type { Database } from '../../db/database.ts';
import { HttpError } from '../../lib/http-error.ts';
import type { MailLog } from '../../lib/mailer.ts';
import type { ActivitiesService } from '../activities/activities.service.ts';
import type { AttachmentsService } from '../attachments/attachments.service.ts';
import type { PermissionsRepository } from '../permissions/permissions.repository.ts';
import type { TicketsService } from '../tickets/tickets.service.ts';
import type { UsersRepository } from '../users/users.repository.ts';
import { automaticReason, cleanToRule, replyTicketId, stripQuotedAndSignature, type IncomingMail } from './mail-in.ts';
import type { TicketMail } from './ticket-mail.ts';

interface Deps {
  database: Database;
  users: Pick<UsersRepository, 'findActiveByEmail'>;
  tickets: Pick<TicketsService, 'create' | 'detail'>;
  activities: Pick<ActivitiesService, 'createFromMail'>;
  attachments: Pick<AttachmentsService, 'storeFromMail'>;
  permissions: Pick<PermissionsRepository, 'hasFlag'>;
  ticketMail: Pick<TicketMail, 'replyToken' | 'domain'>;
  replyAddress: string | undefined;
  log: MailLog;
}

export interface MailInResult {
  outcome: MailInOutcome;
  reason: string | null;
  ticketId: number | null;
}

/** Activities hold at most this many characters (the activity form's limit). */
const ACTIVITY_MAX = 255;
const NAME_MAX = 150;
const DESCRIPTION_MAX = 2000;
const NO_SUBJECT = 'Ticket por correo';
const ONLY_FILES = 'Archivos adjuntos por correo.';

/**
 * What an incoming message becomes, under its sender's permissions:
 *
 * - an automatic message (auto-reply, bounce, one of ours come back) is ignored;
 * - a sender who is no active user (or an address two users share) gets nothing;
 * - a reply (the per-ticket address, or our Message-IDs in its thread) is an activity by its
 *   sender on that ticket, when they may see it, with the quoted history and signature dropped
 *   and its files stored as attachments;
 * - anything else is a new ticket, when the sender may create tickets (w on Mis Tickets or
 *   Tickets Generales): subject → name, text → description, cleaned to the ticket text rule, the
 *   first active value of each catalogue and an open status, and a group by the routing rules.
 */
export function createMailInService(deps: Deps) {
  const { database, users, tickets, activities, attachments, permissions, ticketMail, log } = deps;
  const { db } = database;

  const firstActive = async (table: 'areas' | 'projects' | 'categories' | 'priority_types' | 'difficulties') =>
    (
      await db
        .selectFrom(table)
        .select('id')
        .where('status_id', '=', RECORD_STATUS.active)
        .orderBy('id')
        .executeTakeFirst()
    )?.id;

  async function ticketDefaults() {
    const [area, project, category, priority, difficulty, status] = await Promise.all([
      firstActive('areas'),
      firstActive('projects'),
      firstActive('categories'),
      firstActive('priority_types'),
      firstActive('difficulties'),
      db
        .selectFrom('ticket_statuses')
        .select('id')
        .where('status_id', '=', RECORD_STATUS.active)
        .where('stage', '=', 'open')
        .orderBy('id')
        .executeTakeFirst(),
    ]);
    if (!area || !project || !category || !priority || !difficulty || !status) return null;
    return {
      area_id: area,
      project_id: project,
      category_id: category,
      priority_type_id: priority,
      difficulty_id: difficulty,
      status_id: status.id,
    };
  }

  const refusalOf = (error: unknown) => (error instanceof HttpError ? error.message : null);

  return {
    async handle(mail: IncomingMail): Promise<MailInResult> {
      const automatic = automaticReason(mail, ticketMail.domain);
      if (automatic) return { outcome: 'ignored', reason: automatic, ticketId: null };

      const senders = mail.from ? await users.findActiveByEmail(mail.from) : [];
      if (senders.length !== 1) {
        return {
          outcome: 'rejected',
          reason: senders.length === 0 ? 'Remitente desconocido.' : 'Varios usuarios tienen esa dirección.',
          ticketId: null,
        };
      }
      const actor = senders[0]!;
      const files = mail.attachments;

      const ticketId = replyTicketId(mail, {
        replyAddress: deps.replyAddress,
        ownDomain: ticketMail.domain,
        tokenOf: ticketMail.replyToken,
      });
      if (ticketId !== null) {
        try {
          await tickets.detail(actor, ticketId);
        } catch (error) {
          const refusal = refusalOf(error);
          if (refusal === null) throw error;
          return { outcome: 'rejected', reason: refusal, ticketId: null };
        }
        const text = cleanToRule('textWithSymbols', stripQuotedAndSignature(mail.text), ACTIVITY_MAX);
        if (text === '' && files.length === 0) return { outcome: 'rejected', reason: 'Respuesta vacía.', ticketId };
        let skipped: string[] = [];
        await activities.createFromMail(actor, ticketId, text || ONLY_FILES, async (trx) => {
          ({ skipped } = await attachments.storeFromMail(ticketId, actor.id, files, trx));
        });
        if (skipped.length) log.warn({ ticketId, skipped }, 'mail in: attachments left out');
        return { outcome: 'processed', reason: skipped.length ? skipped.join(' ') : null, ticketId };
      }

      const mayCreate =
        (await permissions.hasFlag(actor.role_id, SECTIONS.tickets, 'w')) ||
        (await permissions.hasFlag(actor.role_id, SECTIONS.generalTickets, 'w'));
      if (!mayCreate) return { outcome: 'rejected', reason: 'Sin permiso para crear tickets.', ticketId: null };
      const defaults = await ticketDefaults();
      if (!defaults) return { outcome: 'rejected', reason: 'Faltan catálogos activos.', ticketId: null };
      const name = cleanToRule(TICKET_TEXT_RULE, mail.subject, NAME_MAX) || NO_SUBJECT;
      const description = cleanToRule(TICKET_TEXT_RULE, stripQuotedAndSignature(mail.text), DESCRIPTION_MAX) || name;
      let created;
      try {
        created = await tickets.create(actor, { ...defaults, name, description });
      } catch (error) {
        const refusal = refusalOf(error);
        if (refusal === null) throw error;
        return { outcome: 'rejected', reason: refusal, ticketId: null };
      }
      if (files.length) {
        const { skipped } = await db
          .transaction()
          .execute((trx) => attachments.storeFromMail(created.id, actor.id, files, trx));
        if (skipped.length) log.warn({ ticketId: created.id, skipped }, 'mail in: attachments left out');
      }
      return { outcome: 'processed', reason: null, ticketId: created.id };
    },
  };
}
export type MailInService = ReturnType<typeof createMailInService>;
