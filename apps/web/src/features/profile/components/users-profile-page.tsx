import {
  Anchor,
  Alert,
  Badge,
  Button,
  Card,
  Grid,
  Group,
  PasswordInput,
  SimpleGrid,
  Skeleton,
  Stack,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  PASSWORD_MSG,
  PROFILE_MSG,
  sanitize,
  ZUserProfileUpdate,
  type TLastTicket,
  type TUser,
} from '@portal/contract';
import { IconAlertTriangle, IconCheck, IconLock, IconPencil, IconPhotoUp, IconTicket } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { UserAvatar } from '@/components/ui/user-avatar.tsx';
import { ticketPath } from '@/config/paths.ts';
import { FileDrop, type FileDropRejection } from '@/components/ui/file-drop.tsx';
import { EmptyIllustration } from '@/components/ui/illustrations.tsx';
import { readableBadgeText } from '@/components/ui/status-badge.tsx';
import { isApiError } from '@/lib/api-client.ts';
import { notifyError, notifySuccess, notifyWarning } from '@/lib/notify.ts';
import { fullName, replaceToken, startSession, useSession, type Session } from '@/lib/session.ts';
import {
  changePassword,
  imageQuery,
  laboralQuery,
  lastTicketsQuery,
  profileKeys,
  profileUserQuery,
  updateProfile,
  uploadAvatar,
} from '../api/profile-api.ts';
import { AbsenceCard } from './absence-controls.tsx';
import { NotificationPreferencesCard } from './notification-preferences-card.tsx';

/** /users-profile: the signed-in user's own profile (open to every signed-in user). */
export default function UsersProfilePage() {
  const session = useSession();
  // `?tab=notificaciones` opens the preferences (the link in every notification mail).
  const [params, setParams] = useSearchParams();
  if (!session) return null;
  const tab = params.get('tab') === 'notificaciones' ? 'notificaciones' : 'perfil';
  return (
    <Stack gap="md">
      <Title order={2} size="h3">
        Mi perfil
      </Title>
      <Tabs
        value={tab}
        onChange={(value) => setParams(value === 'notificaciones' ? { tab: 'notificaciones' } : {}, { replace: true })}
      >
        <Tabs.List>
          <Tabs.Tab value="perfil">Perfil</Tabs.Tab>
          <Tabs.Tab value="notificaciones">Notificaciones</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="notificaciones" pt="md">
          <NotificationPreferencesCard />
        </Tabs.Panel>
        <Tabs.Panel value="perfil" pt="md">
          <Grid gap="md">
            <Grid.Col span={{ base: 12, md: 7 }}>
              <Stack gap="md">
                <PersonalCard session={session} />
                <PasswordCard session={session} />
              </Stack>
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 5 }}>
              <Stack gap="md">
                <LaboralCard userId={session.user.id} />
                <AbsenceCard userId={session.user.id} />
                <LastTicketsCard />
              </Stack>
            </Grid.Col>
          </Grid>
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

type ProfileValues = { name: string; last_name: string; second_last_name: string; username: string; email: string };

const valuesOf = (user: TUser): ProfileValues => ({
  name: user.name,
  last_name: user.last_name,
  second_last_name: user.second_last_name ?? '',
  username: user.username,
  email: user.email,
});

/** What each field keeps as the user types. */
const cleaners: Record<keyof ProfileValues, (v: string) => string> = {
  name: (v) => sanitize('onlyLetters', v),
  last_name: (v) => sanitize('onlyLetters', v),
  second_last_name: (v) => sanitize('onlyLetters', v),
  username: (v) => v.replace(/[^A-Za-z0-9_]/g, ''),
  email: (v) => v.replace(/[\s'`\u2018\u2019\u201C\u201D]/g, ''),
};

function profileErrors(values: ProfileValues): Partial<Record<keyof ProfileValues, string>> {
  const result = ZUserProfileUpdate.safeParse(values);
  const errors: Partial<Record<keyof ProfileValues, string>> = {};
  if (!result.success) {
    for (const issue of result.error.issues) errors[String(issue.path[0]) as keyof ProfileValues] ??= issue.message;
  }
  return errors;
}

const labels: Record<keyof ProfileValues, string> = {
  name: 'Nombre',
  last_name: 'Apellido',
  second_last_name: 'Segundo Apellido',
  username: 'Usuario',
  email: 'Correo',
};

function PersonalCard({ session }: { session: Session }) {
  const queryClient = useQueryClient();
  const id = session.user.id;
  const user = useQuery(profileUserQuery(id));
  const [draft, setDraft] = useState<ProfileValues | null>(null);
  const [isSaving, setSaving] = useState(false);
  const [serverErrors, setServerErrors] = useState<Partial<Record<string, string>>>({});
  const isEditing = draft !== null;
  const errors = draft ? profileErrors(draft) : {};
  const errorOf = (k: keyof ProfileValues) => serverErrors[k] ?? errors[k];

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!draft) return;
    const required = (['name', 'last_name', 'email', 'username'] as const).every((k) => draft[k].trim() !== '');
    if (!required || Object.keys(errors).length > 0) {
      return notifyWarning('Error de validación', PROFILE_MSG.fixErrors);
    }
    setSaving(true);
    try {
      const { data } = await updateProfile(id, { ...draft, second_last_name: draft.second_last_name || null });
      notifySuccess(PROFILE_MSG.updatedTitle, PROFILE_MSG.updated);
      queryClient.setQueryData(profileKeys.user(id), data);
      // The top bar shows the stored user: keep it in step with the saved profile.
      startSession(session.token, {
        ...session.user,
        name: data.name,
        last_name: data.last_name,
        second_last_name: data.second_last_name,
        username: data.username,
        email: data.email,
      });
      setDraft(null);
      setServerErrors({});
    } catch (error) {
      if (isApiError(error) && error.details.isSessionLost) return;
      const fieldErrors = isApiError(error) ? (error.errors ?? {}) : {};
      setServerErrors(Object.fromEntries(Object.entries(fieldErrors).map(([k, v]) => [k, v.join(' ')])));
      notifyError(PROFILE_MSG.saveFailedTitle, Object.values(fieldErrors).flat().join('\n') || PROFILE_MSG.saveFailed);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Card withBorder radius="md" padding="lg" shadow="xs">
      <Group align="flex-start" gap="lg" wrap="wrap">
        <AvatarBlock userId={id} name={fullName(session.user)} />
        <Stack gap={2} style={{ flex: 1, minWidth: 200 }}>
          <Text fw={650} size="lg">
            {user.data ? fullName(user.data) : fullName(session.user)}
          </Text>
          <Text c="dimmed" size="sm">
            @{user.data?.username ?? session.user.username}
          </Text>
          <Group gap={6} mt={6}>
            <Badge variant="light">{session.user.role.name}</Badge>
          </Group>
        </Stack>
        {!isEditing && user.data && (
          <Button variant="light" leftSection={<IconPencil size={16} />} onClick={() => setDraft(valuesOf(user.data))}>
            Editar perfil
          </Button>
        )}
      </Group>

      {user.isError && !(isApiError(user.error) && user.error.details.isSessionLost) && (
        <Alert color="red" variant="light" mt="md" icon={<IconAlertTriangle />} role="alert">
          Error al cargar los datos. Inténtalo nuevamente.
        </Alert>
      )}

      <form onSubmit={save} noValidate>
        <SimpleGrid cols={{ base: 1, sm: 2 }} mt="lg" spacing="md" verticalSpacing="sm">
          {(Object.keys(labels) as (keyof ProfileValues)[]).map((key) =>
            user.isPending ? (
              <Skeleton key={key} height={56} />
            ) : (
              <TextInput
                key={key}
                label={labels[key]}
                name={key}
                type={key === 'email' ? 'email' : 'text'}
                required={key !== 'second_last_name'}
                readOnly={!isEditing}
                variant={isEditing ? 'default' : 'filled'}
                value={isEditing ? draft[key] : user.data ? valuesOf(user.data)[key] : ''}
                error={isEditing ? errorOf(key) : undefined}
                rightSection={
                  isEditing && !errorOf(key) && draft[key] !== '' ? (
                    <IconCheck size={16} color="var(--mantine-color-teal-7)" aria-hidden />
                  ) : null
                }
                maxLength={key === 'email' ? 120 : key === 'username' ? 50 : 80}
                autoComplete="off"
                onChange={(e) => {
                  const value = cleaners[key](e.currentTarget.value);
                  setDraft((d) => (d ? { ...d, [key]: value } : d));
                  setServerErrors(({ [key]: _, ...rest }) => rest);
                }}
              />
            ),
          )}
        </SimpleGrid>
        {isEditing && (
          <Group justify="flex-end" gap="sm" mt="md">
            <Button
              variant="default"
              onClick={() => {
                setDraft(null);
                setServerErrors({});
              }}
              disabled={isSaving}
            >
              Cancelar
            </Button>
            <Button type="submit" loading={isSaving}>
              Guardar cambios
            </Button>
          </Group>
        )}
      </form>
    </Card>
  );
}

function AvatarBlock({ userId, name }: { userId: number; name: string }) {
  const queryClient = useQueryClient();
  const image = useQuery(imageQuery(userId));
  const [isUploading, setUploading] = useState(false);

  async function upload(files: File[]) {
    const file = files[0];
    if (!file) return;
    setUploading(true);
    try {
      const url = await uploadAvatar(userId, file);
      queryClient.setQueryData(profileKeys.image(userId), url);
      notifySuccess(PROFILE_MSG.avatarUpdated, 'Tu nueva foto ya se muestra en el perfil.');
    } catch (error) {
      if (isApiError(error) && error.details.isSessionLost) return;
      notifyError(PROFILE_MSG.saveFailedTitle, isApiError(error) ? error.message : PROFILE_MSG.saveFailed);
    } finally {
      setUploading(false);
    }
  }

  const reject = (reason: FileDropRejection) => {
    notifyWarning(
      reason === 'too-many-files'
        ? 'Solo se puede subir 1 archivo como máximo'
        : reason === 'file-too-large'
          ? PROFILE_MSG.avatarTooLarge
          : 'Formato inválido',
      'Sube una imagen JPG o PNG.',
    );
  };

  return (
    <FileDrop
      onDrop={(files) => void upload(files)}
      onReject={reject}
      accept={['image/png', 'image/jpeg']}
      maxFiles={1}
      maxSize={2 * 1024 * 1024}
      loading={isUploading}
      radius="50%"
      p={4}
      aria-label="Cambiar foto de perfil"
      title="Arrastra una imagen JPG o PNG o haz clic para cambiar tu foto"
    >
      <Stack align="center" gap={4}>
        <UserAvatar name={name} src={image.data} size={96} radius="50%" />
        <Group gap={4} c="dimmed">
          <IconPhotoUp size={14} />
          <Text size="xs">Cambiar foto</Text>
        </Group>
      </Stack>
    </FileDrop>
  );
}

const emptyPasswords = { current_password: '', new_password: '', password_confirmation: '' };

function PasswordCard({ session }: { session: Session }) {
  const [values, setValues] = useState(emptyPasswords);
  const [errors, setErrors] = useState<Partial<Record<keyof typeof emptyPasswords, string>>>({});
  const [isConfirming, setConfirming] = useState(false);
  const [isSaving, setSaving] = useState(false);

  function ask(event: FormEvent) {
    event.preventDefault();
    const missing = Object.entries(values).filter(([, v]) => v === '');
    if (missing.length > 0) {
      setErrors(Object.fromEntries(missing.map(([k]) => [k, 'Este campo es obligatorio.'])));
      return notifyWarning(
        PASSWORD_MSG.missingTitle,
        'La contraseña actual, la nueva y su confirmación son obligatorias.',
      );
    }
    if (values.new_password === values.current_password) {
      setErrors({ new_password: PASSWORD_MSG.sameAsCurrent });
      return notifyWarning(PASSWORD_MSG.failedTitle, PASSWORD_MSG.sameAsCurrent);
    }
    if (values.new_password !== values.password_confirmation) {
      setErrors({ password_confirmation: PASSWORD_MSG.mismatch });
      return notifyWarning(PASSWORD_MSG.failedTitle, PASSWORD_MSG.mismatch);
    }
    setErrors({});
    setConfirming(true);
  }

  async function change() {
    setSaving(true);
    try {
      const result = await changePassword(session.user.id, values);
      // The other sessions ended; this one continues with the fresh token.
      if (result.data?.token) replaceToken(result.data.token);
      notifySuccess(PASSWORD_MSG.successTitle, PASSWORD_MSG.success, 4000);
      setValues(emptyPasswords);
    } catch (error) {
      if (isApiError(error) && error.details.isSessionLost) return;
      if (!isApiError(error)) {
        notifyError(PASSWORD_MSG.failedTitle, PASSWORD_MSG.unknown);
      } else {
        const fieldErrors = error.errors ?? {};
        setErrors(Object.fromEntries(Object.entries(fieldErrors).map(([k, v]) => [k, v.join(' ')])));
        const lines = Object.values(fieldErrors).flat();
        notifyError(PASSWORD_MSG.failedTitle, lines.length > 0 ? lines.join('\n') : PASSWORD_MSG.failed);
      }
    } finally {
      setSaving(false);
      setConfirming(false);
    }
  }

  const input = (key: keyof typeof emptyPasswords, label: string, autoComplete: string) => (
    <PasswordInput
      label={label}
      name={key}
      value={values[key]}
      error={errors[key]}
      maxLength={128}
      autoComplete={autoComplete}
      onChange={(e) => {
        const value = sanitize('textWithSymbols', e.currentTarget.value);
        setValues((v) => ({ ...v, [key]: value }));
        setErrors(({ [key]: _, ...rest }) => rest);
      }}
    />
  );

  return (
    <Card withBorder radius="md" padding="lg" shadow="xs">
      <Group gap="xs" mb="sm">
        <IconLock size={18} />
        <Title order={3} size="h5">
          Cambiar contraseña
        </Title>
      </Group>
      <form onSubmit={ask} noValidate>
        <Stack gap="sm">
          {input('current_password', 'Contraseña actual', 'current-password')}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            {input('new_password', 'Nueva contraseña', 'new-password')}
            {input('password_confirmation', 'Confirmar contraseña', 'new-password')}
          </SimpleGrid>
          <Text size="xs" c="dimmed">
            Al cambiarla se cerrarán tus sesiones en otros equipos.
          </Text>
          <Group justify="flex-end">
            <Button type="submit" loading={isSaving}>
              Cambiar contraseña
            </Button>
          </Group>
        </Stack>
      </form>
      <ConfirmDialog
        opened={isConfirming}
        title={PASSWORD_MSG.confirm}
        message="Tendrás que usar la nueva contraseña la próxima vez que inicies sesión."
        confirmLabel="Sí, cambiar"
        isBusy={isSaving}
        onConfirm={() => void change()}
        onCancel={() => setConfirming(false)}
      />
    </Card>
  );
}

function LaboralCard({ userId }: { userId: number }) {
  const info = useQuery(laboralQuery(userId));
  const rows: [string, string | undefined][] = [
    ['Supervisor', info.data?.supervisor?.name ?? 'Sin supervisor'],
    ['Tipo de usuario', info.data?.role.name],
    ['Sucursal', info.data?.branch ?? 'Sin sucursal'],
    ['Área', info.data?.area?.name ?? 'Sin área'],
    [
      'Grupos',
      info.data && info.data.groups.length > 0
        ? info.data.groups.map((g) => (g.role === 'lead' ? `${g.name} (líder)` : g.name)).join(', ')
        : 'Sin grupos',
    ],
  ];
  return (
    <Card withBorder radius="md" padding="lg" shadow="xs">
      <Title order={3} size="h5" mb="sm">
        Información laboral
      </Title>
      {info.isError ? (
        <Text size="sm" c="red">
          Error al cargar los datos. Inténtalo nuevamente.
        </Text>
      ) : (
        <Stack gap="xs">
          {rows.map(([label, value]) => (
            <Group key={label} justify="space-between" gap="sm" wrap="nowrap">
              <Text size="sm" c="dimmed">
                {label}
              </Text>
              {info.isPending ? (
                <Skeleton height={14} width={120} />
              ) : (
                <Text size="sm" fw={600} ta="right">
                  {value}
                </Text>
              )}
            </Group>
          ))}
        </Stack>
      )}
    </Card>
  );
}

function LastTicketsCard() {
  const tickets = useQuery(lastTicketsQuery());
  const rows: TLastTicket[] = tickets.data ?? [];
  return (
    <Card withBorder radius="md" padding="lg" shadow="xs">
      <Group gap="xs" mb="sm">
        <IconTicket size={18} />
        <Title order={3} size="h5">
          Últimos tickets
        </Title>
      </Group>
      {tickets.isPending ? (
        <Stack gap="xs">
          {Array.from({ length: 3 }, (_, i) => (
            <Skeleton key={i} height={44} />
          ))}
        </Stack>
      ) : rows.length === 0 ? (
        <Stack align="center" gap={4} py="md">
          <EmptyIllustration size={80} />
          <Text size="sm" fw={600}>
            No hay tickets registrados.
          </Text>
        </Stack>
      ) : (
        <Stack gap="xs" role="list" aria-label="Últimos tickets">
          {rows.map((t) => (
            <Card key={t.id} withBorder radius="sm" padding="xs" role="listitem">
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <Anchor component={Link} to={ticketPath(t.id)} size="sm" fw={600} aria-label={`Abrir ticket ${t.id}`}>
                  #{t.id}
                </Anchor>
                <Group gap={4} wrap="nowrap">
                  <Badge size="sm" variant="light" color="orange" tt="none" c={readableBadgeText('orange')}>
                    Prioridad: {t.priorities.name}
                  </Badge>
                  <Badge size="sm" variant="outline" color="gray" tt="none">
                    Dificultad: {t.difficulties.name}
                  </Badge>
                </Group>
              </Group>
              <Text size="sm" lineClamp={2} mt={2}>
                {t.description}
              </Text>
            </Card>
          ))}
        </Stack>
      )}
    </Card>
  );
}
