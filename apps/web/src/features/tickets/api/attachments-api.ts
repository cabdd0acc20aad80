import type { TAttachmentList, TAttachmentUploadResponse } from '@portal/contract';
import { queryOptions } from '@tanstack/react-query';
import { api, apiRequest } from '@/lib/api-client.ts';

export const attachmentKeys = {
  all: ['attachments'] as const,
  ofTicket: (ticketId: number) => ['attachments', 'ticket', ticketId] as const,
  file: (id: number) => ['attachments', 'file', id] as const,
};

export const attachmentsQuery = (ticketId: number) =>
  queryOptions({
    queryKey: attachmentKeys.ofTicket(ticketId),
    queryFn: ({ signal }) => api.get<TAttachmentList>(`/tickets/${ticketId}/attachments`, { signal }),
    staleTime: 0,
  });

/** Sends up to 3 files in one multipart request; the server keeps all of them or none. */
export function uploadAttachments(ticketId: number, files: File[]) {
  const form = new FormData();
  for (const file of files) form.append('files', file, file.name);
  return api.post<TAttachmentUploadResponse>(`/tickets/${ticketId}/attachments`, form);
}

/** A file's bytes, fetched with the session's bearer token (a plain link could not send it). */
export const fetchAttachment = (id: number, signal?: AbortSignal) =>
  apiRequest<Blob>('GET', `/attachments/${id}`, { asBlob: true, signal });

/** The thumbnail of an image attachment: its blob, cached while the ticket is open. */
export const attachmentBlobQuery = (id: number) =>
  queryOptions({
    queryKey: attachmentKeys.file(id),
    queryFn: ({ signal }) => fetchAttachment(id, signal),
    staleTime: Infinity,
    gcTime: 60_000,
  });

export const deleteAttachment = (id: number) => api.delete<{ status: boolean; message: string }>(`/attachments/${id}`);

/** Saves a blob under its name through a temporary link. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
