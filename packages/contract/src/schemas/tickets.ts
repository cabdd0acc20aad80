import { z } from 'zod';
import { MAX_PAGE_SIZE, ticketStages } from '../constants.ts';
import { MSG } from '../messages.ts';
import { ZId, ZText } from './common.ts';

/** Page sizes of the ticket history and the assign modal (SPEC §9). */
export const TICKET_PAGE_SIZES = [5, 10, 20, 50] as const;
export const DEFAULT_HISTORY_PAGE_SIZE = 10;
export const DEFAULT_ASSIGN_PAGE_SIZE = 5;

export const TICKET_MSG = {
  created: 'Ticket creado exitosamente.',
  updated: 'Ticket actualizado exitosamente.',
  assigned: 'Ticket asignado',
  alreadyAssigned: 'El ticket ya está asignado a este usuario.',
  reassignNeedsUpdate: 'No tienes permiso para cambiar el usuario asignado.',
  notYours: 'No tienes permiso sobre este ticket.',
  assigneeInactive: 'El usuario seleccionado no existe o está inactivo.',
  notFound: 'El ticket no existe.',
  assignmentTitle: (ticketId: number) => `Ticket #${ticketId}`,
  assignmentMessage: 'Se te ha asignado un nuevo ticket',
} as const;

/** POST body of the ticket lists: page, per_page and a search on name and description. */
export const ZTicketListQuery = z.object({
  page: z.coerce
    .number({ error: 'La página debe ser un número.' })
    .int('La página debe ser un número entero.')
    .min(1, 'La página debe ser mayor o igual a 1.')
    .max(1_000_000, 'La página es demasiado grande.')
    .default(1),
  per_page: z.coerce
    .number({ error: 'El tamaño de página debe ser un número.' })
    .int('El tamaño de página debe ser un número entero.')
    .min(1, 'El tamaño de página debe ser mayor o igual a 1.')
    .max(MAX_PAGE_SIZE, `El tamaño de página no puede ser mayor a ${MAX_PAGE_SIZE}.`)
    .default(DEFAULT_HISTORY_PAGE_SIZE),
  search: z.string({ error: 'La búsqueda debe ser texto.' }).trim().max(100, MSG.tooLong(100)).default(''),
});
export type TTicketListQuery = z.infer<typeof ZTicketListQuery>;

const ZName = z.object({ name: z.string() });
const ZUserRef = z.object({ id: z.number(), name: z.string() });

/** A ticket as the lists show it (SPEC §3, read side). */
export const ZTicket = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string(),
  area_id: z.number(),
  project_id: z.number(),
  category_id: z.number(),
  priority_type_id: z.number(),
  difficulty_id: z.number(),
  status_id: z.number(),
  created_by: z.number(),
  user_assigned_id: z.number().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  priorities: ZName,
  status_tickets: z.object({ name: z.string(), stage: z.enum(ticketStages) }),
  projects: ZName,
  areas: ZName,
  categories: ZName,
  difficulties: ZName,
  /** The creator. */
  users: ZUserRef,
  assigned_to: ZUserRef.nullable(),
});
export type TTicket = z.infer<typeof ZTicket>;

export const ZTicketMeta = z.object({
  total: z.number(),
  current_page: z.number(),
  last_page: z.number(),
  per_page: z.number(),
});

export const ZTicketPage = z.object({ status: z.literal(true), data: z.array(ZTicket), meta: ZTicketMeta });
export type TTicketPage = z.infer<typeof ZTicketPage>;

/** Create and edit form of the large ticket modal; name and description are alphanumeric (SPEC §5). */
export const ZTicketWrite = z.object({
  name: ZText('alphanumeric', { max: 150 }),
  description: ZText('alphanumeric', { max: 2000 }),
  area_id: ZId,
  project_id: ZId,
  category_id: ZId,
  priority_type_id: ZId,
  difficulty_id: ZId,
  status_id: ZId,
});
export type TTicketWrite = z.input<typeof ZTicketWrite>;

export const ZTicketResponse = z.object({ status: z.literal(true), message: z.string(), data: ZTicket });

export const ZAssignParams = z.object({ id: ZId, userId: ZId });

export const ZAssignResponse = z.object({ status: z.literal(true), message: z.string(), data: ZTicket });

/** A user the assign modal offers. */
export const ZAssignableUser = z.object({
  id: z.number(),
  name: z.string(),
  last_name: z.string(),
  second_last_name: z.string().nullable(),
  username: z.string(),
  role: ZName,
  area: ZName.nullable(),
});
export type TAssignableUser = z.infer<typeof ZAssignableUser>;

export const ZAssignableUsersPage = z.object({
  status: z.literal(true),
  data: z.array(ZAssignableUser),
  meta: ZTicketMeta,
});

/** Profile card item (SPEC §3 "last-tickets item"). */
export const ZLastTicket = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string(),
  created_at: z.string(),
  priorities: ZName,
  difficulties: ZName,
  status_tickets: z.object({ name: z.string(), stage: z.enum(ticketStages) }),
});
export const ZLastTickets = z.array(ZLastTicket);
export type TLastTicket = z.infer<typeof ZLastTicket>;

/** Workload list body (SPEC §7: page, per_page, search on name or last name). */
export const ZWorkloadQuery = ZTicketListQuery.extend({
  per_page: ZTicketListQuery.shape.per_page.unwrap().default(100),
});

export const ZWorkloadItem = z.object({
  id: z.number(),
  name: z.string(),
  last_name: z.string(),
  second_last_name: z.string().nullable(),
  username: z.string(),
  user_name: z.string(),
  email: z.string(),
  role: ZName,
  area: ZName.nullable(),
  ticket_count: z.number(),
  started_count: z.number(),
  completed_count: z.number(),
});
export type TWorkloadItem = z.infer<typeof ZWorkloadItem>;

export const ZWorkloadPage = z.object({
  status: z.literal(true),
  data: z.array(ZWorkloadItem),
  current_page: z.number(),
  last_page: z.number(),
  per_page: z.number(),
  total: z.number(),
});

export const ZUserTicketsQuery = z.object({
  user_id: ZId,
  page: ZTicketListQuery.shape.page,
  per_page: ZTicketListQuery.shape.per_page.unwrap().default(50),
});

/** The details modal of the workload screen: the tickets assigned to one user. */
export const ZUserTicket = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string(),
  created_at: z.string(),
  priority: z.string(),
  difficulty: z.string(),
  status: z.string(),
  stage: z.enum(ticketStages),
  activity_count: z.number(),
});
export type TUserTicket = z.infer<typeof ZUserTicket>;

export const ZUserTicketsResponse = z.object({
  status: z.literal(true),
  activities: z.array(ZUserTicket),
  meta: ZTicketMeta,
});
