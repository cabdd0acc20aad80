import { z } from 'zod';
import { ticketStages } from '../constants.ts';
import { referencePatternError } from '../reference-patterns.ts';
import { ZFreeText, ZId, ZStatusId, ZText } from './common.ts';

/** A reference type of the Referencias catalogue: its name, its pattern and an example it matches. */
export const ZReferenceTypeWrite = z.object({
  name: ZText('onlyLetters', { max: 100 }),
  pattern: ZFreeText({ max: 200 })
    .trim()
    .min(1, 'El campo es obligatorio.')
    .superRefine((pattern, ctx) => {
      const error = referencePatternError(pattern);
      if (error) ctx.addIssue({ code: 'custom', message: error });
    }),
  example: ZText('safeText', { max: 100 }),
  status_id: ZStatusId.default(1),
});

export const ZReferenceTypeRecord = z.object({
  id: z.number(),
  name: z.string(),
  pattern: z.string(),
  example: z.string(),
  status_id: z.number(),
  status: z.object({ id: z.number(), name: z.string() }),
  /** The background re-extraction after a change of pattern: tickets done of total (null: none running). */
  reextract_done: z.number().nullable(),
  reextract_total: z.number().nullable(),
});

/** One reference of a ticket, as its page shows it (a chip). */
export const ZTicketReference = z.object({
  type_id: z.number(),
  type_name: z.string(),
  value: z.string(),
});
export type TTicketReference = z.infer<typeof ZTicketReference>;

/** `Posible duplicado: #812 y #1044 (mismo embarque EMB-004512)`: open tickets created before sharing a reference. */
export const ZPossibleDuplicate = z.object({
  message: z.string(),
  ticket_ids: z.array(z.number()),
  reference: ZTicketReference,
});
export type TPossibleDuplicate = z.infer<typeof ZPossibleDuplicate>;

export const ZReferenceParams = z.object({
  typeId: ZId,
  value: z
    .string({ error: 'La referencia debe ser texto.' })
    .trim()
    .min(1, 'El campo es obligatorio.')
    .max(100, 'Máximo 100 caracteres.'),
});

const ZReferenceTicket = z.object({
  id: z.number(),
  name: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  status_tickets: z.object({ name: z.string(), stage: z.enum(ticketStages) }),
  assignee: z.string(),
});

/** `/references/{type}/{value}`: every ticket with the reference the caller may see, open and closed. */
export const ZReferencePage = z.object({
  status: z.literal(true),
  data: z.object({
    type: z.object({ id: z.number(), name: z.string() }),
    value: z.string(),
    summary: z.object({
      open: z.number(),
      closed: z.number(),
      first_seen: z.string().nullable(),
      last_activity: z.string().nullable(),
    }),
    tickets: z.array(ZReferenceTicket),
    /** Whether the caller may use the bulk actions (u on a ticket list). */
    can_update: z.boolean(),
  }),
});
export type TReferencePage = z.infer<typeof ZReferencePage>;

/** The bulk actions on a reference's open tickets: assign them all, or move them all to a status. */
export const ZReferenceBulk = z.discriminatedUnion(
  'action',
  [z.object({ action: z.literal('assign'), user_id: ZId }), z.object({ action: z.literal('status'), status_id: ZId })],
  { error: 'La acción debe ser assign o status.' },
);
export type TReferenceBulk = z.infer<typeof ZReferenceBulk>;

export const ZReferenceBulkResponse = z.object({
  status: z.literal(true),
  message: z.string(),
  /** Each open ticket checked one by one against the caller's permissions. */
  results: z.array(z.object({ ticket_id: z.number(), ok: z.boolean(), message: z.string() })),
});
export type TReferenceBulkResponse = z.infer<typeof ZReferenceBulkResponse>;
