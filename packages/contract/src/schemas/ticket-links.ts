import { z } from 'zod';
import { ticketStages } from '../constants.ts';
import { ZId } from './common.ts';

export const TICKET_LINK_MSG = {
  created: 'Relación agregada.',
  removed: 'Relación eliminada.',
  notFound: 'La relación no existe.',
  self: 'Un ticket no puede relacionarse consigo mismo.',
  otherMissing: 'El ticket indicado no existe.',
  otherHidden: 'No tienes permiso para ver el ticket indicado.',
  exists: 'Estos tickets ya están relacionados.',
  cycle: 'La relación formaría un ciclo: un ticket no puede ser su propio antecesor.',
  hasParent: 'El ticket hijo ya tiene un ticket padre.',
  hasOriginal: 'El ticket ya está marcado como duplicado de otro.',
  merged: (original: number) => `El ticket se marcó como duplicado de #${original}.`,
  mergedNotice: (duplicate: number, original: number) =>
    `El ticket #${duplicate} se marcó como duplicado de #${original}.`,
  alreadyMerged: 'El ticket ya está cerrado como duplicado de otro.',
  openChildren: (ids: number[]) =>
    `El ticket tiene tickets hijos abiertos: ${ids.map((id) => `#${id}`).join(', ')}. Confirma para cerrarlo.`,
} as const;

/**
 * A relation as seen from one ticket: `parent` (the other is its parent), `child`,
 * `duplicate_of` (this ticket duplicates the other), `duplicated_by` and `related`.
 */
export const ticketRelations = ['parent', 'child', 'duplicate_of', 'duplicated_by', 'related'] as const;
export type TicketRelation = (typeof ticketRelations)[number];

/** The Spanish name of each relation, as the Relacionados panel shows it. */
export const TICKET_RELATION_LABELS: Record<TicketRelation, string> = {
  parent: 'Padre',
  child: 'Hijo',
  duplicate_of: 'Duplicado de',
  duplicated_by: 'Duplicado por',
  related: 'Relacionado con',
};

/** The relations a user may add from a ticket (a duplicate is marked through its own rule). */
export const ZTicketLinkCreate = z.object({
  relation: z.enum(['parent', 'child', 'duplicate_of', 'related'], {
    error: 'La relación debe ser parent, child, duplicate_of o related.',
  }),
  ticket_id: ZId,
});
export type TTicketLinkCreate = z.infer<typeof ZTicketLinkCreate>;

export const ZTicketLinkParams = z.object({ id: ZId, linkId: ZId });

/** One linked ticket; a ticket the caller may not see shows its number and status only. */
export const ZTicketLink = z.object({
  id: z.number(),
  relation: z.enum(ticketRelations),
  ticket: z.object({
    id: z.number(),
    /** Empty when the caller may not see that ticket. */
    name: z.string(),
    visible: z.boolean(),
    status_tickets: z.object({ name: z.string(), stage: z.enum(ticketStages) }),
  }),
});
export type TTicketLink = z.infer<typeof ZTicketLink>;

export const ZTicketLinks = z.object({
  status: z.literal(true),
  data: z.array(ZTicketLink),
  /** The children and how many of them are in a closed stage ('3 de 5 resueltos'). */
  children: z.object({ total: z.number(), resolved: z.number() }),
  /** Whether the caller may add and remove this ticket's relations. */
  can_edit: z.boolean(),
});
export type TTicketLinks = z.infer<typeof ZTicketLinks>;

/** `Marcar como duplicado de #N`: the ticket of the path is the duplicate, merged into `ticket_id`. */
export const ZTicketMerge = z.object({ ticket_id: ZId });
export type TTicketMerge = z.infer<typeof ZTicketMerge>;

export const ZTicketMergeResponse = z.object({
  status: z.literal(true),
  message: z.string(),
  data: z.object({ original_id: z.number(), activities: z.number(), attachments: z.number() }),
});

export const ZTicketLinkResponse = z.object({ status: z.literal(true), message: z.string() });
