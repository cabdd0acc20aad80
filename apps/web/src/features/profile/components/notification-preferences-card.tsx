import { Button, Card, Group, SegmentedControl, Select, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import {
  MAIL_RHYTHM_LABELS,
  NOTIFICATION_CHANNEL_LABELS,
  NOTIFICATION_EVENT_LABELS,
  mailRhythms,
  notificationChannels,
  notificationEvents,
  type MailRhythm,
  type NotificationChannel,
  type TNotificationPreferences,
} from '@portal/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { isApiError } from '@/lib/api-client.ts';
import { notifyError, notifySuccess } from '@/lib/notify.ts';
import { notificationPreferencesQuery, saveNotificationPreferences } from '../api/profile-api.ts';

const channelOptions = notificationChannels.map((value) => ({ value, label: NOTIFICATION_CHANNEL_LABELS[value] }));

/** The Notificaciones tab: a channel per event and how the e-mails arrive (the signed-in user's own). */
export function NotificationPreferencesCard() {
  const query = useQuery(notificationPreferencesQuery());
  const queryClient = useQueryClient();
  // What the person changed; until then, what is saved.
  const [edited, setValues] = useState<TNotificationPreferences | null>(null);
  const values = edited ?? query.data ?? null;
  const [saving, setSaving] = useState(false);

  async function save() {
    if (!values) return;
    setSaving(true);
    try {
      const res = await saveNotificationPreferences(values);
      queryClient.setQueryData(notificationPreferencesQuery().queryKey, res.data);
      notifySuccess('Notificaciones', res.message);
    } catch (error) {
      notifyError('Notificaciones', isApiError(error) ? error.message : 'Ocurrió un problema. Intenta de nuevo.');
    } finally {
      setSaving(false);
    }
  }

  return (
    <Card withBorder radius="md" padding="lg" shadow="xs">
      <Stack gap="md">
        <Title order={3} size="h4">
          Notificaciones
        </Title>
        {!values ? (
          <Skeleton height={200} />
        ) : (
          <>
            <Table verticalSpacing="sm" aria-label="Canal de cada aviso">
              <Table.Tbody>
                {notificationEvents.map((event) => (
                  <Table.Tr key={event}>
                    <Table.Td>
                      <Text size="sm">{NOTIFICATION_EVENT_LABELS[event]}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Select
                        aria-label={NOTIFICATION_EVENT_LABELS[event]}
                        data={channelOptions}
                        value={values.channels[event]}
                        allowDeselect={false}
                        onChange={(value) =>
                          value &&
                          setValues({
                            ...values,
                            channels: { ...values.channels, [event]: value as NotificationChannel },
                          })
                        }
                      />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                Ritmo del correo
              </Text>
              <SegmentedControl
                aria-label="Ritmo del correo"
                data={mailRhythms.map((value) => ({ value, label: MAIL_RHYTHM_LABELS[value] }))}
                value={values.rhythm}
                onChange={(value) => setValues({ ...values, rhythm: value as MailRhythm })}
              />
            </Stack>
            <Group justify="flex-end">
              <Button onClick={() => void save()} loading={saving}>
                Guardar
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Card>
  );
}
