import { z } from 'zod';
import { ZDataResponse, ZId, ZListQueryWith, ZPage, ZStatusId, ZStatusRef, ZText } from './common.ts';

export const ACTIVITY_MSG = {
  nameRequired: 'Por favor ingrese el nombre de la actividad.',
  created: 'Actividad agregada',
  deleted: 'Actividad eliminada',
  updated: 'Actividad actualizada',
  onlyAssignee: 'Solo el usuario asignado al ticket puede agregar o eliminar actividades.',
  cannotRead: 'No tienes permiso para ver las actividades de este ticket.',
  readOnly: 'Estás viendo las actividades en modo de solo lectura. No puedes agregar ni eliminar actividades.',
  notFound: 'La actividad no existe.',
} as const;

/** GET /activities query: the ticket, its page and a search on the activity name. */
export const ZActivitiesQuery = z.object({ ticket_id: ZId, ...ZListQueryWith(10).shape });
export type TActivitiesQuery = z.input<typeof ZActivitiesQuery>;

export const ZActivity = z.object({
  id: z.number(),
  name: z.string(),
  created_at: z.string(),
  status_id: z.number(),
  user_id: z.number(),
  ticket_id: z.number(),
  /** The duplicate it was moved from by a merge; null when written on this ticket. */
  merged_from_ticket_id: z.number().nullable(),
  user: z.object({ id: z.number(), name: z.string() }),
  status: ZStatusRef,
});
export type TActivity = z.infer<typeof ZActivity>;

export const ZActivitiesResponse = z.object({
  status: z.literal(true),
  /** Whether the caller may add and delete activities (the assignee) or only read them (a privileged role). */
  can_write: z.boolean(),
  data: ZPage(ZActivity),
});
export type TActivitiesResponse = z.infer<typeof ZActivitiesResponse>;

/** user_id is accepted for compatibility but the author is always the caller; new activities are active. */
export const ZActivityCreate = z.object({
  name: z
    .string({ error: ACTIVITY_MSG.nameRequired })
    .trim()
    .min(1, ACTIVITY_MSG.nameRequired)
    .pipe(ZText('textWithSymbols', { max: 255 })),
  ticket_id: ZId,
  status_id: z.union([z.literal(1), z.literal('1')], { error: 'Una actividad nueva debe estar activa.' }).optional(),
  user_id: z.unknown().optional(),
});
export type TActivityCreate = z.input<typeof ZActivityCreate>;

export const ZActivityUpdate = z.object({ status_id: ZStatusId });

export const ZActivityResponse = ZDataResponse(ZActivity);
export type TActivityResponse = z.infer<typeof ZActivityResponse>;
