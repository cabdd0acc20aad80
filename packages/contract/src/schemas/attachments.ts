import { z } from 'zod';
import { ZStatusId } from './common.ts';

/** The types a file may have (pdf, jpg/jpeg, png), as the server sniffs them from the bytes. */
export const ATTACHMENT_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;
export type AttachmentType = (typeof ATTACHMENT_TYPES)[number];
/** The extensions the drop zone offers for those types. */
export const ATTACHMENT_EXTENSIONS = ['.pdf', '.jpg', '.jpeg', '.png'] as const;
/** Files per upload (the drop zone takes at most 3). */
export const MAX_FILES_PER_UPLOAD = 3;
/** Files a ticket may hold in all. */
export const MAX_ATTACHMENTS_PER_TICKET = 20;
/** The default of ATTACHMENT_MAX_BYTES. */
export const DEFAULT_ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;

/** Sizes as the screens show them: Bytes, KB, MB, GB, TB (1024 each, at most two decimals). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const units = ['Bytes', 'KB', 'MB', 'GB', 'TB'];
  const exponent = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), units.length - 1);
  const value = bytes / 1024 ** exponent;
  return `${Number.parseFloat(value.toFixed(2))} ${units[exponent]}`;
}

/** The drop zone's rejection texts. */
export const tooManyFilesMessage = (max: number) =>
  max === 1 ? 'Solo se puede subir 1 archivo como máximo' : `Solo se pueden subir ${max} como máximo`;

export const ATTACHMENT_MSG = {
  invalidFormat: 'Formato inválido',
  invalidType: (name: string) => `«${name}»: Formato inválido. Solo se aceptan archivos PDF, JPG, JPEG o PNG.`,
  tooLarge: (name: string, max: number) => `«${name}» supera el tamaño máximo de ${formatBytes(max)}.`,
  tooMany: tooManyFilesMessage(MAX_FILES_PER_UPLOAD),
  ticketFull: (existing: number) =>
    `Un ticket admite como máximo ${MAX_ATTACHMENTS_PER_TICKET} archivos; este ya tiene ${existing}.`,
  missing: 'Adjunta al menos un archivo.',
  notMultipart: 'Envía los archivos como multipart/form-data.',
  interrupted: 'La carga se interrumpió; no se guardó ningún archivo.',
  uploaded: (count: number) => (count === 1 ? 'Archivo adjuntado' : `${count} archivos adjuntados`),
  deleted: 'Archivo eliminado',
  notFound: 'El archivo no existe.',
  cannotRead: 'No tienes permiso para ver los archivos de este ticket.',
  cannotAdd: 'No tienes permiso para adjuntar archivos a este ticket.',
  cannotDelete: 'Solo quien subió el archivo o un supervisor puede eliminarlo.',
} as const;

export const ZAttachment = z.object({
  id: z.number(),
  ticket_id: z.number(),
  name: z.string(),
  size: z.number(),
  type: z.enum(ATTACHMENT_TYPES),
  uploaded_by: z.object({ id: z.number(), name: z.string() }),
  created_at: z.string(),
  /** The duplicate it was moved from by a merge; null when uploaded to this ticket. */
  merged_from_ticket_id: z.number().nullable(),
  /** Whether the caller may delete it: its uploader, or a privileged role (is_supervisor). */
  can_delete: z.boolean(),
});
export type TAttachment = z.infer<typeof ZAttachment>;

/** What a ticket's files may be: read from the server's configuration so the drop zone refuses the same. */
export const ZAttachmentLimits = z.object({
  max_bytes: z.number(),
  max_files: z.number(),
  max_per_ticket: z.number(),
});
export type TAttachmentLimits = z.infer<typeof ZAttachmentLimits>;

/** GET /tickets/{id}/attachments. */
export const ZAttachmentList = z.object({
  status: z.literal(true),
  data: z.array(ZAttachment),
  limits: ZAttachmentLimits,
  /** Whether the caller may add files to this ticket. */
  can_add: z.boolean(),
});
export type TAttachmentList = z.infer<typeof ZAttachmentList>;

/** POST /tickets/{id}/attachments. */
export const ZAttachmentUploadResponse = z.object({
  status: z.literal(true),
  message: z.string(),
  data: z.array(ZAttachment),
});
export type TAttachmentUploadResponse = z.infer<typeof ZAttachmentUploadResponse>;

/** The showcase's change-status call ('/example'); it answers and stores nothing. */
export const ZExampleChangeStatus = z.object({ status_id: ZStatusId });
export const ZExampleChangeStatusResponse = z.object({
  status: z.literal(true),
  message: z.string(),
  data: z.object({ id: z.number(), status_id: z.number() }),
});
export type TExampleChangeStatusResponse = z.infer<typeof ZExampleChangeStatusResponse>;
