import { Button, Group, Loader, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { errorText, isSessionLost } from '@/lib/api-client.ts';
import { notifyError, notifySuccess } from '@/lib/notify.ts';
import { downloadAuditCsv, type AuditLogRequest } from '../api/audit-log-api.ts';

const oneDecimal = new Intl.NumberFormat('es', { maximumFractionDigits: 1 });

export const formatBytes = (bytes: number) =>
  bytes < 1024 * 1024 ? `${oneDecimal.format(bytes / 1024)} KB` : `${oneDecimal.format(bytes / 1024 / 1024)} MB`;

/** 'Exportar CSV' of what the list shows (every page), with the bytes received while it streams and a way to stop. */
export function ExportCsvButton({ request }: { request: Omit<AuditLogRequest, 'page' | 'per_page'> }) {
  const [received, setReceived] = useState<number | null>(null);
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const start = async () => {
    const abort = new AbortController();
    controller.current = abort;
    setReceived(0);
    try {
      await downloadAuditCsv(request, { signal: abort.signal, onProgress: setReceived });
      notifySuccess('Exportación lista', 'El archivo CSV se descargó.');
    } catch (error) {
      if (!abort.signal.aborted && !isSessionLost(error)) {
        notifyError('No se pudo exportar', errorText(error, 'Ocurrió un error al exportar la auditoría.'));
      }
    } finally {
      controller.current = null;
      setReceived(null);
    }
  };

  if (received === null) {
    return (
      <Button variant="light" leftSection={<IconDownload size={18} />} onClick={() => void start()}>
        Exportar CSV
      </Button>
    );
  }
  return (
    <Group gap="xs" wrap="nowrap">
      <Loader size="xs" aria-hidden />
      <Text size="sm" c="dimmed" role="status" aria-live="polite">
        Exportando… {formatBytes(received)}
      </Text>
      <Button variant="subtle" color="gray" size="xs" onClick={() => controller.current?.abort()}>
        Cancelar
      </Button>
    </Group>
  );
}
