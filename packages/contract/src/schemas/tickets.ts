import { z } from 'zod';
import { DEFAULT_HISTORY_PAGE_SIZE, ticketStages } from '../constants.ts';
import { ZDataResponse, ZId, ZListQueryWith, ZListResponse, ZPage, ZPageMeta, ZText } from './common.ts';

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
export const ZTicketListQuery = ZListQueryWith(DEFAULT_HISTORY_PAGE_SIZE);
z.globalRegistry.add(ZTicketListQuery, {
  example: { page: 1, per_page: DEFAULT_HISTORY_PAGE_SIZE, search: 'montacargas' },
});
export type TTicketListQuery = z.infer<typeof ZTicketListQuery>;

const ZName = z.object({ name: z.string() });
const ZUserRef = z.object({ id: z.number(), name: z.string() });
const ZTicketStatusRef = z.object({ name: z.string(), stage: z.enum(ticketStages) });
/** Who a user is, in the lists of people (assign modal, workload). */
const userSummaryFields = {
  id: z.number(),
  name: z.string(),
  last_name: z.string(),
  second_last_name: z.string().nullable(),
  username: z.string(),
};

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
  status_tickets: ZTicketStatusRef,
  projects: ZName,
  areas: ZName,
  categories: ZName,
  difficulties: ZName,
  /** The creator. */
  users: ZUserRef,
  assigned_to: ZUserRef.nullable(),
});
export type TTicket = z.infer<typeof ZTicket>;

export const ZTicketPage = ZListResponse(ZTicket, { meta: ZPageMeta });
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
z.globalRegistry.add(ZTicketWrite, {
  example: {
    name: 'Falla en montacargas',
    description: 'El montacargas del almacén 2 no enciende desde esta mañana',
    area_id: 1,
    project_id: 1,
    category_id: 1,
    priority_type_id: 2,
    difficulty_id: 1,
    status_id: 1,
  },
});

export const ZTicketResponse = ZDataResponse(ZTicket);
export type TTicketResponse = z.infer<typeof ZTicketResponse>;

export const ZAssignParams = z.object({ id: ZId, userId: ZId });

export const ZAssignResponse = ZDataResponse(ZTicket);

/** A user the assign modal offers. */
export const ZAssignableUser = z.object({
  ...userSummaryFields,
  role: ZName,
  area: ZName.nullable(),
});
export type TAssignableUser = z.infer<typeof ZAssignableUser>;

export const ZAssignableUsersPage = ZListResponse(ZAssignableUser, { meta: ZPageMeta });
export type TAssignableUsersPage = z.infer<typeof ZAssignableUsersPage>;

/** Profile card item (SPEC §3 "last-tickets item"). */
export const ZLastTicket = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string(),
  created_at: z.string(),
  priorities: ZName,
  difficulties: ZName,
  status_tickets: ZTicketStatusRef,
});
export const ZLastTickets = z.array(ZLastTicket);
export type TLastTicket = z.infer<typeof ZLastTicket>;

/** Workload list body (SPEC §7: page, per_page, search on name or last name). */
export const ZWorkloadQuery = ZListQueryWith(100);

export const ZWorkloadItem = z.object({
  ...userSummaryFields,
  user_name: z.string(),
  email: z.string(),
  role: ZName,
  area: ZName.nullable(),
  ticket_count: z.number(),
  started_count: z.number(),
  completed_count: z.number(),
});
export type TWorkloadItem = z.infer<typeof ZWorkloadItem>;

export const ZWorkloadPage = z.object({ status: z.literal(true), ...ZPage(ZWorkloadItem).shape });
export type TWorkloadPage = z.infer<typeof ZWorkloadPage>;

const ZUserTicketsPaging = ZListQueryWith(50).shape;
export const ZUserTicketsQuery = z.object({
  user_id: ZId,
  page: ZUserTicketsPaging.page,
  per_page: ZUserTicketsPaging.per_page,
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
  meta: ZPageMeta,
});
export type TUserTicketsResponse = z.infer<typeof ZUserTicketsResponse>;
