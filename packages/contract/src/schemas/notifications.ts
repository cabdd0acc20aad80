import { z } from 'zod';
import { ZDataResponse, ZFreeText, ZId, ZListResponse } from './common.ts';

export const notificationTypes = ['info', 'success', 'warning', 'error'] as const;
export type NotificationType = (typeof notificationTypes)[number];

/** Largest number of ids one view/read call accepts. */
export const MAX_NOTIFICATION_IDS = 100;
/** The unread list is capped: the badge shows '99+' beyond 99 anyway. */
export const MAX_ACTIVE_NOTIFICATIONS = 100;
export const DEFAULT_HISTORY_LIMIT = 50;
export const MAX_HISTORY_LIMIT = 100;

/** A notification as its recipient sees it; `visible` 0 means read, `timestamp` is epoch ms. */
export const ZNotification = z.object({
  id: z.number(),
  ticket_id: z.number().nullable(),
  title: z.string(),
  message: z.string(),
  type: z.enum(notificationTypes),
  viewed: z.number(),
  visible: z.number(),
  created_at: z.string(),
  timestamp: z.number(),
  /** Who acted ('Diego Hernández'); null when unknown (older notifications, a removed user). */
  actor_name: z.string().nullable(),
  /** The ticket's name ('Falla en montacargas'); null when it has no ticket. */
  ticket_name: z.string().nullable(),
});
export type TNotification = z.infer<typeof ZNotification>;

export const ZActiveNotificationsResponse = ZListResponse(ZNotification, {
  /** Every unread notification of the caller, even beyond the ones listed. */
  total: z.number(),
});
export type TActiveNotificationsResponse = z.infer<typeof ZActiveNotificationsResponse>;

export const ZNotificationHistoryQuery = z.object({
  limit: z.coerce
    .number({ error: 'El límite debe ser un número.' })
    .int('El límite debe ser un número entero.')
    .min(1, 'El límite debe ser mayor o igual a 1.')
    .max(MAX_HISTORY_LIMIT, `El límite no puede ser mayor a ${MAX_HISTORY_LIMIT}.`)
    .default(DEFAULT_HISTORY_LIMIT),
  /** Cursor: only notifications older than this id (the last id of the previous page). */
  before_id: ZId.optional(),
});
export type TNotificationHistoryQuery = z.infer<typeof ZNotificationHistoryQuery>;

export const ZNotificationHistoryResponse = ZListResponse(ZNotification, { has_more: z.boolean() });
export type TNotificationHistoryResponse = z.infer<typeof ZNotificationHistoryResponse>;

export const ZNotificationIdsRequest = z.object({
  ids: z
    .array(ZId, { error: 'Debes indicar las notificaciones en una lista.' })
    .min(1, 'Debes indicar al menos una notificación.')
    .max(MAX_NOTIFICATION_IDS, `No se pueden marcar más de ${MAX_NOTIFICATION_IDS} notificaciones a la vez.`),
});
export type TNotificationIdsRequest = z.infer<typeof ZNotificationIdsRequest>;

/** `updated` counts only the caller's own notifications that changed. */
export const ZNotificationUpdateResponse = ZDataResponse(z.object({ updated: z.number() }));
export type TNotificationUpdateResponse = z.infer<typeof ZNotificationUpdateResponse>;

export const ZStreamTicketResponse = ZDataResponse(z.object({ ticket: z.string(), expires_in: z.number() }));
export type TStreamTicketResponse = z.infer<typeof ZStreamTicketResponse>;

export const ZNotificationStreamQuery = z.object({
  ticket: ZFreeText({ max: 512, error: 'Falta el permiso del canal.' }).pipe(
    z.string().min(1, 'Falta el permiso del canal.'),
  ),
  /** The newest notification id the client already holds; newer unread ones are sent on connect. */
  since: z.coerce
    .number({ error: 'Debe ser un número.' })
    .int('Debe ser un número entero.')
    .min(0, 'Debe ser mayor o igual a 0.')
    .max(2_147_483_647)
    .optional(),
});
export type TNotificationStreamQuery = z.infer<typeof ZNotificationStreamQuery>;
