import { Badge, Button, Card, Group, Menu, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { IconPlaneDeparture } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorText, isApiError } from '@/lib/api-client.ts';
import { notifyError, notifySuccess } from '@/lib/notify.ts';
import { absenceKey, absenceQuery, saveAbsence } from '../api/absence-api.ts';

/** A return date as the date field shows it (yyyy-mm-dd), from the stored instant. */
const dateOf = (iso: string | null) => (iso ? iso.slice(0, 10) : '');

const formatDate = (iso: string) => new Date(iso).toLocaleDateString('es-MX', { dateStyle: 'medium', timeZone: 'UTC' });

/** Saves an absence and refreshes every view of it (the profile card, the top bar). */
function useSaveAbsence(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { absent: boolean; until: string | null }) => saveAbsence(userId, body),
    onSuccess: (answer) => {
      queryClient.setQueryData(absenceKey(userId), answer.data);
      notifySuccess(answer.data.absent ? 'Ausente' : 'Disponible', answer.message);
    },
    onError: (error) =>
      notifyError('No se guardó la ausencia', errorText(error, 'Ocurrió un problema. Intenta de nuevo.')),
  });
}

/**
 * The profile's 'Ausencia' card: while Ausente, the groups' automatic assignment skips the user;
 * an optional return date ends the absence by itself.
 */
export function AbsenceCard({ userId }: { userId: number }) {
  const absence = useQuery(absenceQuery(userId));
  const save = useSaveAbsence(userId);
  const [until, setUntil] = useState<string | null>(null);
  const shownUntil = until ?? dateOf(absence.data?.absent_until ?? null);
  const fieldError = save.error && isApiError(save.error) ? save.error.errors?.until?.[0] : undefined;
  const isAbsent = absence.data?.absent ?? false;
  return (
    <Card withBorder radius="md" padding="lg" shadow="xs" component="section" aria-labelledby="absence-title">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3} size="h5" id="absence-title">
            Ausencia
          </Title>
          {isAbsent && <Badge color="orange">Ausente</Badge>}
        </Group>
        <Text size="sm" c="dimmed">
          Mientras estés ausente no recibirás tickets por asignación automática de tus grupos.
        </Text>
        <Switch
          label="Estoy ausente"
          checked={isAbsent}
          disabled={absence.isPending || save.isPending}
          onChange={(e) =>
            save.mutate(
              e.currentTarget.checked
                ? { absent: true, until: shownUntil === '' ? null : shownUntil }
                : { absent: false, until: null },
              { onSuccess: () => setUntil(null) },
            )
          }
        />
        <Group align="flex-end" gap="sm">
          <TextInput
            type="date"
            label="Fecha de regreso (opcional)"
            value={shownUntil}
            onChange={(e) => setUntil(e.currentTarget.value)}
            error={fieldError}
            w={220}
          />
          {isAbsent && (
            <Button
              variant="light"
              loading={save.isPending}
              onClick={() =>
                save.mutate(
                  { absent: true, until: shownUntil === '' ? null : shownUntil },
                  { onSuccess: () => setUntil(null) },
                )
              }
            >
              Guardar fecha
            </Button>
          )}
        </Group>
        {isAbsent && absence.data?.absent_until && (
          <Text size="xs" c="dimmed">
            Regresas el {formatDate(absence.data.absent_until)}.
          </Text>
        )}
      </Stack>
    </Card>
  );
}

/** The top bar's 'Ausente' mark, shown while the user is absent. */
export function AbsenceBadge({ userId }: { userId: number }) {
  const absence = useQuery(absenceQuery(userId));
  if (!absence.data?.absent) return null;
  return (
    <Badge color="orange" variant="light" leftSection={<IconPlaneDeparture size={12} aria-hidden />}>
      Ausente
    </Badge>
  );
}

/** The gear menu's toggle: 'Ausente' checked while absent (no return date; the profile sets one). */
export function AbsenceMenuItem({ userId }: { userId: number }) {
  const absence = useQuery(absenceQuery(userId));
  const save = useSaveAbsence(userId);
  const isAbsent = absence.data?.absent ?? false;
  return (
    <Menu.Item
      renderRoot={(props) => <button type="button" {...props} role="menuitemcheckbox" aria-checked={isAbsent} />}
      leftSection={<IconPlaneDeparture size={16} />}
      disabled={absence.isPending || save.isPending}
      onClick={() => save.mutate({ absent: !isAbsent, until: null })}
    >
      {isAbsent ? 'Ausente (volver)' : 'Marcarme ausente'}
    </Menu.Item>
  );
}
