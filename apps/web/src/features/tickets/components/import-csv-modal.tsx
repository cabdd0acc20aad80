import { Alert, Button, FileInput, Group, List, Modal, Progress, ScrollArea, Stack, Text } from '@mantine/core';
import type { TTicketImportProgress } from '@portal/contract';
import { IconFileTypeCsv } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiEventStream, isApiError, isSessionLost } from '@/lib/api-client.ts';
import { ticketKeys } from '../api/tickets-api.ts';

type State =
  | { kind: 'idle' }
  | { kind: 'checking' }
  | { kind: 'loading'; done: number; total: number }
  | { kind: 'rebuilding' }
  | { kind: 'done'; message: string }
  | { kind: 'failed'; message: string; lines: [line: string, messages: string[]][] };

const numberFormat = new Intl.NumberFormat('es-MX');

/**
 * 'Importar CSV' (administrators): a file in the export's columns is sent whole; the server
 * checks every line first (refused lines are listed with their numbers, nothing imported),
 * then streams the load's progress, shown as a bar.
 */
export function ImportCsvModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [state, setState] = useState<State>({ kind: 'idle' });
  const isBusy = state.kind === 'checking' || state.kind === 'loading' || state.kind === 'rebuilding';

  const start = async () => {
    if (!file) return;
    const form = new FormData();
    form.append('file', file);
    setState({ kind: 'checking' });
    let last: TTicketImportProgress | null = null;
    try {
      await apiEventStream<TTicketImportProgress>('/tickets/import', form, (event) => {
        last = event;
        if (event.phase === 'loading') setState({ kind: 'loading', done: event.done, total: event.total });
        else if (event.phase === 'rebuilding') setState({ kind: 'rebuilding' });
      });
      const end = last as TTicketImportProgress | null;
      if (end?.phase === 'done') {
        setState({ kind: 'done', message: end.message });
        await queryClient.invalidateQueries({ queryKey: ticketKeys.all });
      } else {
        setState({
          kind: 'failed',
          message: end?.phase === 'failed' ? end.message : 'La importación no terminó.',
          lines: [],
        });
      }
    } catch (error) {
      if (isSessionLost(error)) return onClose();
      const lines = isApiError(error) ? Object.entries(error.errors ?? {}) : [];
      setState({
        kind: 'failed',
        message: isApiError(error) ? error.message : 'No se pudo importar el archivo.',
        lines: lines.sort(([a], [b]) => Number(a) - Number(b)),
      });
    }
  };

  const close = () => {
    if (isBusy) return;
    setFile(null);
    setState({ kind: 'idle' });
    onClose();
  };

  const percent =
    state.kind === 'loading'
      ? Math.round((state.done / Math.max(1, state.total)) * 100)
      : state.kind === 'rebuilding'
        ? 100
        : 0;

  return (
    <Modal
      opened={opened}
      onClose={close}
      title="Importar CSV"
      size="lg"
      closeOnClickOutside={!isBusy}
      withCloseButton={!isBusy}
    >
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          Un archivo con las columnas de «Exportar CSV». Prioridad, estado, proyecto, área, categoría, dificultad y
          usuarios se buscan por nombre, sin distinguir mayúsculas ni acentos; las fechas se conservan. Si alguna línea
          no se puede importar, no se importa ninguna.
        </Text>
        <FileInput
          label="Archivo CSV"
          placeholder="Elige un archivo"
          accept=".csv,text/csv"
          leftSection={<IconFileTypeCsv size={18} />}
          value={file}
          onChange={(value) => {
            setFile(value);
            setState({ kind: 'idle' });
          }}
          disabled={isBusy}
          clearable
        />
        {isBusy && (
          <Stack gap={4}>
            <Progress
              value={state.kind === 'checking' ? 100 : percent}
              animated={state.kind !== 'loading'}
              striped={state.kind !== 'loading'}
              aria-label="Avance de la importación"
            />
            <Text size="sm" aria-live="polite">
              {state.kind === 'checking'
                ? 'Revisando el archivo…'
                : state.kind === 'loading'
                  ? `Guardando ${numberFormat.format(state.done)} de ${numberFormat.format(state.total)} tickets (${percent} %)`
                  : 'Actualizando búsqueda, contadores y reportes…'}
            </Text>
          </Stack>
        )}
        {state.kind === 'done' && (
          <Alert color="green" title="Importación terminada">
            {state.message}
          </Alert>
        )}
        {state.kind === 'failed' && (
          <Alert color="red" title={state.message}>
            {state.lines.length > 0 && (
              <ScrollArea.Autosize mah={240}>
                <List size="sm" spacing={2}>
                  {state.lines.flatMap(([line, messages]) =>
                    messages.map((message, i) => (
                      <List.Item key={`${line}-${i}`}>{`Línea ${line}: ${message}`}</List.Item>
                    )),
                  )}
                </List>
              </ScrollArea.Autosize>
            )}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close} disabled={isBusy}>
            {state.kind === 'done' ? 'Aceptar' : 'Cancelar'}
          </Button>
          {state.kind !== 'done' && (
            <Button onClick={() => void start()} disabled={!file} loading={isBusy}>
              Importar
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
