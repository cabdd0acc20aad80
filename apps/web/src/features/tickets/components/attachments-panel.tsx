import { Alert, Button, Center, Group, Image, Loader, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { formatBytes, type TAttachment } from '@portal/contract';
import { IconDownload, IconFileTypePdf, IconPaperclip, IconPhoto, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { FileDropzone } from '@/components/ui/file-dropzone.tsx';
import { IconAction } from '@/components/ui/icon-action.tsx';
import { errorText, isApiError, isSessionLost } from '@/lib/api-client.ts';
import { notifyError, notifySuccess } from '@/lib/notify.ts';
import {
  attachmentBlobQuery,
  attachmentKeys,
  attachmentsQuery,
  deleteAttachment,
  fetchAttachment,
  saveBlob,
  uploadAttachments,
} from '../api/attachments-api.ts';

const THUMB = 48;

/** An image's thumbnail from its blob (downloads need the bearer token, so no plain URL). */
function Thumbnail({ attachment }: { attachment: TAttachment }) {
  const isImage = attachment.type !== 'application/pdf';
  const blob = useQuery({ ...attachmentBlobQuery(attachment.id), enabled: isImage });
  const url = useMemo(() => (blob.data ? URL.createObjectURL(blob.data) : null), [blob.data]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);

  if (!isImage) {
    return (
      <Center w={THUMB} h={THUMB} bg="red.0" style={{ borderRadius: 6, flexShrink: 0 }}>
        <IconFileTypePdf size={28} color="var(--mantine-color-red-7)" aria-label="PDF" role="img" />
      </Center>
    );
  }
  if (url) {
    return (
      <Image
        src={url}
        alt={`Miniatura de ${attachment.name}`}
        w={THUMB}
        h={THUMB}
        fit="cover"
        radius="sm"
        style={{ flexShrink: 0 }}
      />
    );
  }
  if (blob.isError) {
    return (
      <Center w={THUMB} h={THUMB} bg="gray.1" style={{ borderRadius: 6, flexShrink: 0 }}>
        <IconPhoto size={24} color="var(--mantine-color-gray-6)" aria-label="Imagen" role="img" />
      </Center>
    );
  }
  return <Skeleton w={THUMB} h={THUMB} radius="sm" style={{ flexShrink: 0 }} />;
}

const dateFormat = new Intl.DateTimeFormat('es-MX', { dateStyle: 'medium', timeStyle: 'short' });

interface AttachmentsPanelProps {
  ticketId: number;
  /** Shows the drop zone to add files here (when the caller may); off where another form uploads them. */
  withUpload?: boolean;
}

/**
 * A ticket's files: thumbnails for images, an icon for pdfs, download and (for
 * the uploader or a privileged role) delete with confirmation, and optionally
 * the drop zone to add more.
 */
export function AttachmentsPanel({ ticketId, withUpload = true }: AttachmentsPanelProps) {
  const queryClient = useQueryClient();
  const list = useQuery(attachmentsQuery(ticketId));
  const [pending, setPending] = useState<File[]>([]);
  const [isUploading, setUploading] = useState(false);
  const [downloading, setDownloading] = useState<number | null>(null);
  const [target, setTarget] = useState<TAttachment | null>(null);
  const [isDeleting, setDeleting] = useState(false);

  const reload = () => queryClient.invalidateQueries({ queryKey: attachmentKeys.ofTicket(ticketId) });

  async function download(attachment: TAttachment) {
    setDownloading(attachment.id);
    try {
      saveBlob(await fetchAttachment(attachment.id), attachment.name);
    } catch (error) {
      if (!isSessionLost(error)) {
        notifyError('No se pudo descargar el archivo', isApiError(error) ? error.message : '');
      }
    } finally {
      setDownloading(null);
    }
  }

  async function remove() {
    if (!target) return;
    setDeleting(true);
    try {
      const answer = await deleteAttachment(target.id);
      notifySuccess('Eliminado', answer.message);
    } catch (error) {
      if (!isSessionLost(error)) notifyError('No se pudo eliminar el archivo', errorText(error, ''));
    } finally {
      setDeleting(false);
      setTarget(null);
    }
    await reload();
  }

  async function upload() {
    setUploading(true);
    try {
      const answer = await uploadAttachments(ticketId, pending);
      notifySuccess('Adjuntados', answer.message);
      setPending([]);
    } catch (error) {
      if (!isSessionLost(error)) notifyError('No se adjuntaron los archivos', errorText(error, ''));
    } finally {
      setUploading(false);
    }
    await reload();
  }

  const data = list.data;
  const items = data?.data ?? [];
  const room = data ? Math.min(data.limits.max_files, data.limits.max_per_ticket - items.length) : 0;

  return (
    <Stack gap="sm" aria-label="Archivos adjuntos" role="region">
      <Group gap={6}>
        <IconPaperclip size={18} aria-hidden />
        <Text fw={600} size="sm">
          Archivos adjuntos{data ? ` (${items.length})` : ''}
        </Text>
      </Group>

      {list.isPending && <Skeleton h={THUMB + 16} radius="md" />}
      {list.isError && (
        <Alert color="red" variant="light" role="alert">
          {isApiError(list.error) && list.error.status === 403
            ? 'No tienes permiso para ver los archivos de este ticket.'
            : 'No se pudieron cargar los archivos adjuntos.'}
        </Alert>
      )}
      {data && items.length === 0 && (
        <Text size="sm" c="dimmed">
          Este ticket no tiene archivos adjuntos.
        </Text>
      )}

      {items.length > 0 && (
        <Stack gap={6} component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Archivos del ticket">
          {items.map((a) => (
            <Paper key={a.id} component="li" withBorder radius="md" p={8} data-testid="attachment-item">
              <Group gap="sm" wrap="nowrap">
                <Thumbnail attachment={a} />
                <Stack gap={0} style={{ minWidth: 0, flex: 1 }}>
                  <Text size="sm" fw={500} truncate="end" title={a.name}>
                    {a.name}
                  </Text>
                  <Text size="xs" c="dimmed" truncate="end">
                    {formatBytes(a.size)} · {a.uploaded_by.name} · {dateFormat.format(new Date(a.created_at))}
                    {a.merged_from_ticket_id !== null && ` · del ticket #${a.merged_from_ticket_id}`}
                  </Text>
                </Stack>
                <Group gap={2} wrap="nowrap">
                  {downloading === a.id ? (
                    <Loader size="xs" mx={7} aria-label={`Descargando ${a.name}`} />
                  ) : (
                    <IconAction
                      label="Descargar"
                      ariaLabel={`Descargar ${a.name}`}
                      icon={<IconDownload size={18} />}
                      onClick={() => void download(a)}
                    />
                  )}
                  {a.can_delete && (
                    <IconAction
                      label="Eliminar"
                      ariaLabel={`Eliminar ${a.name}`}
                      icon={<IconTrash size={18} />}
                      color="red"
                      onClick={() => setTarget(a)}
                    />
                  )}
                </Group>
              </Group>
            </Paper>
          ))}
        </Stack>
      )}

      {withUpload && data?.can_add && (
        <>
          {room > 0 ? (
            <FileDropzone
              value={pending}
              onChange={setPending}
              maxFiles={room}
              maxSize={data.limits.max_bytes}
              loading={isUploading}
            />
          ) : (
            <Text size="sm" c="dimmed">
              Este ticket ya tiene el máximo de {data.limits.max_per_ticket} archivos.
            </Text>
          )}
          {pending.length > 0 && (
            <Group justify="flex-end">
              <Button leftSection={<IconPaperclip size={16} />} loading={isUploading} onClick={() => void upload()}>
                Adjuntar
              </Button>
            </Group>
          )}
        </>
      )}

      <ConfirmDialog
        opened={target !== null}
        title="¿Estás seguro de eliminar?"
        message={target ? `El archivo «${target.name}» se eliminará del ticket.` : ''}
        confirmLabel="Sí, eliminar"
        color="red"
        isBusy={isDeleting}
        onConfirm={() => void remove()}
        onCancel={() => setTarget(null)}
      />
    </Stack>
  );
}
