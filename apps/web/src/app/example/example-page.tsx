import {
  ActionIcon,
  Alert,
  Box,
  Button,
  Card,
  Checkbox,
  Group,
  Indicator,
  LoadingOverlay,
  Modal,
  Paper,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  MSG,
  RESET_CODE_LENGTH,
  sanitize,
  type TExampleChangeStatusResponse,
  type TNotification,
} from '@portal/contract';
import { IconAlertCircle, IconBell, IconCheck, IconInfoCircle, IconAlertTriangle } from '@tabler/icons-react';
import { useId, useState, type ReactNode } from 'react';
import { ChangeStatusButton } from '@/components/ui/change-status-button.tsx';
import { CodeInput } from '@/components/ui/code-input.tsx';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { FileDropzone } from '@/components/ui/file-dropzone.tsx';
import { ModalTitle } from '@/components/ui/modal-title.tsx';
import { PageLoader } from '@/components/ui/page-loader.tsx';
import { FormActions, validMark } from '@/components/ui/record-form.tsx';
import { SelectField } from '@/components/ui/select-field.tsx';
import { FlagMark, StatusBadge, TicketStatusBadge } from '@/components/ui/status-badge.tsx';
// The showcase is the one feature that imports another: it exhibits the top bar's own panel.
import { DROPDOWN_WIDTH } from '@/features/notifications/components/notification-bell.tsx';
import { NotificationPanel } from '@/features/notifications/components/notification-panel.tsx';
import { badgeLabel } from '@/features/notifications/notifications-state.ts';
import { api } from '@/lib/api-client.ts';
import { notifyError, notifySuccess, notifyWarning } from '@/lib/notify.ts';
import { notifications as toasts } from '@mantine/notifications';

function ShowcaseCard({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  const id = useId();
  return (
    <Card
      withBorder
      radius="md"
      shadow="xs"
      padding="lg"
      component="section"
      aria-labelledby={id}
      data-testid="showcase-card"
    >
      <Stack gap="sm">
        <div>
          <Title order={2} size="h4" id={id}>
            {title}
          </Title>
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        </div>
        {children}
      </Stack>
    </Card>
  );
}

const minutesAgo = (m: number) => Date.now() - m * 60_000;
const sampleNotifications: TNotification[] = [
  {
    id: 3,
    ticket_id: 42,
    title: 'Ticket #42',
    message: 'Se te ha asignado un nuevo ticket',
    type: 'info',
    viewed: 0,
    visible: 1,
    created_at: new Date(minutesAgo(2)).toISOString(),
    timestamp: minutesAgo(2),
    actor_name: 'Diego Hernández',
    ticket_name: 'Falla en montacargas',
  },
  {
    id: 2,
    ticket_id: 37,
    title: 'Ticket #37',
    message: 'El estado de tu ticket cambió',
    type: 'info',
    viewed: 0,
    visible: 1,
    created_at: new Date(minutesAgo(45)).toISOString(),
    timestamp: minutesAgo(45),
    actor_name: null,
    ticket_name: null,
  },
  {
    id: 1,
    ticket_id: 12,
    title: 'Ticket #12',
    message: 'Se te ha asignado un nuevo ticket',
    type: 'info',
    viewed: 1,
    visible: 1,
    created_at: new Date(minutesAgo(300)).toISOString(),
    timestamp: minutesAgo(300),
    actor_name: null,
    ticket_name: null,
  },
];

function NotificationsDemo() {
  const [items, setItems] = useState(sampleNotifications);
  const [isHistory, setHistory] = useState(false);
  const titleId = useId();
  const unseen = items.filter((n) => n.viewed === 0).length;
  return (
    <Stack gap="sm">
      <Group gap="sm">
        <Indicator label={badgeLabel(unseen)} size={16} color="red" offset={6} disabled={unseen === 0}>
          <ActionIcon variant="subtle" color="gray" size="lg" aria-label={`Notificaciones: ${unseen} sin ver`}>
            <IconBell size={20} stroke={1.7} />
          </ActionIcon>
        </Indicator>
        <Button size="compact-sm" variant="subtle" onClick={() => setItems(sampleNotifications)}>
          Restablecer ejemplo
        </Button>
      </Group>
      <Paper withBorder radius="md" shadow="md" w={DROPDOWN_WIDTH} maw="100%" role="dialog" aria-labelledby={titleId}>
        <NotificationPanel
          titleId={titleId}
          items={items}
          streamStatus="live"
          isHistory={isHistory}
          onHistoryChange={setHistory}
          onRemove={(id) => setItems((all) => all.filter((n) => n.id !== id))}
          onRemoveAll={async () => {
            setItems([]);
            return true;
          }}
        />
      </Paper>
    </Stack>
  );
}

function CodeDemo() {
  const [code, setCode] = useState('');
  const labelId = useId();
  const isComplete = code.length === RESET_CODE_LENGTH;
  return (
    <Stack gap="xs" align="flex-start">
      <Text size="sm" fw={500} id={labelId}>
        Código de verificación
      </Text>
      <CodeInput value={code} onChange={setCode} length={RESET_CODE_LENGTH} labelledBy={labelId} />
      <Button disabled={!isComplete} onClick={() => notifySuccess('Código completo', `Ingresaste ${code}.`)}>
        Confirmar
      </Button>
    </Stack>
  );
}

function FieldsDemo() {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [accepted, setAccepted] = useState(false);
  const [touched, setTouched] = useState({ name: false, email: false, accepted: false });
  const nameError = touched.name && name.trim() === '' ? MSG.required : undefined;
  const emailError =
    touched.email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) ? 'El formato del correo es inválido' : undefined;
  const acceptedError = touched.accepted && !accepted ? 'Debes aceptar para continuar.' : undefined;
  return (
    <Stack gap="sm">
      <TextInput
        label="Nombre (solo letras)"
        required
        value={name}
        error={nameError}
        rightSection={validMark(touched.name && !nameError)}
        onChange={(e) => {
          setName(sanitize('onlyLetters', e.currentTarget.value));
          setTouched((t) => ({ ...t, name: true }));
        }}
      />
      <TextInput
        label="Correo"
        type="email"
        required
        value={email}
        error={emailError}
        rightSection={validMark(touched.email && !emailError)}
        onChange={(e) => {
          setEmail(sanitize('email', e.currentTarget.value));
          setTouched((t) => ({ ...t, email: true }));
        }}
      />
      <Checkbox
        label="Acepto los términos"
        checked={accepted}
        error={acceptedError}
        onChange={(e) => {
          setAccepted(e.currentTarget.checked);
          setTouched((t) => ({ ...t, accepted: true }));
        }}
      />
    </Stack>
  );
}

function ModalDemo() {
  const [isOpen, setOpen] = useState(false);
  return (
    <>
      <Button variant="light" onClick={() => setOpen(true)}>
        Abrir modal
      </Button>
      <Modal opened={isOpen} onClose={() => setOpen(false)} title={<ModalTitle title="Modal de ejemplo" />}>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            setOpen(false);
          }}
        >
          <Stack gap="sm">
            <Text size="sm">Los formularios de creación y edición usan este modal.</Text>
            <FormActions onCancel={() => setOpen(false)} isSaving={false} />
          </Stack>
        </form>
      </Modal>
    </>
  );
}

function LoadingDemo() {
  const [isLoading, setLoading] = useState(true);
  return (
    <Stack gap="sm">
      <Switch label="Cargando" checked={isLoading} onChange={(e) => setLoading(e.currentTarget.checked)} />
      <Box pos="relative" h={120}>
        <LoadingOverlay visible={isLoading} zIndex={1} overlayProps={{ radius: 'sm', blur: 1 }} />
        <Paper withBorder h="100%" p="sm">
          <Text size="sm">Contenido que se cubre mientras carga.</Text>
        </Paper>
      </Box>
      <Paper withBorder>
        <PageLoader />
      </Paper>
    </Stack>
  );
}

const selectOptions = [
  { value: '1', label: 'Almacén' },
  { value: '2', label: 'Transporte' },
  { value: '3', label: 'Distribución' },
  { value: '4', label: 'Atención a Clientes' },
];

function ChangeStatusDemo() {
  const [statusId, setStatusId] = useState(1);
  return (
    <Group gap="sm">
      <Text size="sm">Registro de ejemplo #1</Text>
      <StatusBadge statusId={statusId} />
      <ChangeStatusButton
        statusId={statusId}
        recordLabel="registro de ejemplo 1"
        onChange={async (next) => {
          const answer = await api.patch<TExampleChangeStatusResponse>('/example/1/change-status', {
            status_id: next,
          });
          setStatusId(answer.data.status_id);
        }}
      />
    </Group>
  );
}

function ConfirmDemo() {
  const [isOpen, setOpen] = useState(false);
  return (
    <>
      <Button variant="outline" color="red" onClick={() => setOpen(true)}>
        Pedir confirmación
      </Button>
      <ConfirmDialog
        opened={isOpen}
        title="¿Estás seguro de eliminar?"
        message="Este registro será desactivado"
        confirmLabel="Sí, eliminar"
        color="red"
        onConfirm={() => {
          setOpen(false);
          notifySuccess('Eliminado', 'Era solo un ejemplo: nada cambió.');
        }}
        onCancel={() => setOpen(false)}
      />
    </>
  );
}

/**
 * /example: the living style guide. Every card is built from the
 * component the real screens use; add a card here when you add a component.
 */
export default function ExamplePage() {
  const [files, setFiles] = useState<File[]>([]);
  const [select, setSelect] = useState('');
  return (
    <Stack gap="lg">
      <div>
        <Title order={1} size="h2">
          Componentes
        </Title>
        <Text c="dimmed" size="sm">
          Catálogo vivo de los componentes del portal: cada tarjeta usa el mismo componente que las pantallas reales.
        </Text>
      </div>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <ShowcaseCard title="Notificaciones" description="La campana de la barra superior con su contador y su panel.">
          <NotificationsDemo />
        </ShowcaseCard>
        <ShowcaseCard title="Código de 6 dígitos" description="Un dígito por casilla; pegar, flechas y retroceso.">
          <CodeDemo />
        </ShowcaseCard>
        <ShowcaseCard title="Carga de archivos" description="PDF, JPG, JPEG o PNG; como máximo 3 archivos.">
          <FileDropzone value={files} onChange={setFiles} />
        </ShowcaseCard>
        <ShowcaseCard title="Botones" description="Variantes, cargando y deshabilitado.">
          <Group gap="sm">
            <Button>Principal</Button>
            <Button variant="light">Claro</Button>
            <Button variant="outline">Contorno</Button>
            <Button variant="subtle">Sutil</Button>
            <Button variant="default">Por defecto</Button>
            <Button color="red">Peligro</Button>
            <Button loading>Cargando</Button>
            <Button disabled>Deshabilitado</Button>
          </Group>
        </ShowcaseCard>
        <ShowcaseCard title="Campos con validación" description="Entradas, casilla de verificación y sus mensajes.">
          <FieldsDemo />
        </ShowcaseCard>
        <ShowcaseCard title="Selector" description="Con búsqueda; el valor es el id como texto.">
          <SelectField label="Área" value={select} onChange={setSelect} options={selectOptions} />
        </ShowcaseCard>
        <ShowcaseCard title="Modal" description="La ventana de los formularios de creación y edición.">
          <ModalDemo />
        </ShowcaseCard>
        <ShowcaseCard title="Carga" description="Capa de carga sobre un contenido y el indicador de página.">
          <LoadingDemo />
        </ShowcaseCard>
        <ShowcaseCard
          title="Insignia de estado"
          description="1 Activo, 2 Inactivo, otro Desconocido; estados de ticket."
        >
          <Group gap="sm">
            <StatusBadge statusId={1} />
            <StatusBadge statusId={2} />
            <StatusBadge statusId={3} />
            <TicketStatusBadge name="Abierto" stage="open" />
            <TicketStatusBadge name="En progreso" stage="started" />
            <TicketStatusBadge name="Cerrado" stage="closed" />
          </Group>
        </ShowcaseCard>
        <ShowcaseCard title="Marca de permiso" description="Un permiso concedido (1 o '1') o no.">
          <Group gap="lg">
            <Group gap={6}>
              <FlagMark value={1} />
              <Text size="sm">1</Text>
            </Group>
            <Group gap={6}>
              <FlagMark value="1" />
              <Text size="sm">'1'</Text>
            </Group>
            <Group gap={6}>
              <FlagMark value={0} />
              <Text size="sm">0</Text>
            </Group>
          </Group>
        </ShowcaseCard>
        <ShowcaseCard
          title="Cambio de estado"
          description="Estado 1 muestra eliminar; estado 2, restaurar. Llama a /example, que no guarda nada."
        >
          <ChangeStatusDemo />
        </ShowcaseCard>
        <ShowcaseCard title="Alertas" description="Los cuatro tipos, fijos y como avisos emergentes.">
          <Stack gap="xs">
            <Alert color="teal" variant="light" icon={<IconCheck />} title="Éxito">
              Registro creado exitosamente.
            </Alert>
            <Alert color="blue" variant="light" icon={<IconInfoCircle />} title="Información">
              Se te ha asignado un nuevo ticket.
            </Alert>
            <Alert color="yellow" variant="light" icon={<IconAlertTriangle />} title="Advertencia">
              Permiso denegado.
            </Alert>
            <Alert color="red" variant="light" icon={<IconAlertCircle />} title="Error">
              Hubo un problema al guardar el registro.
            </Alert>
            <Group gap="xs">
              <Button
                size="compact-sm"
                color="teal"
                variant="light"
                onClick={() => notifySuccess('Creado', 'Registro creado exitosamente.')}
              >
                Éxito
              </Button>
              <Button
                size="compact-sm"
                variant="light"
                onClick={() =>
                  toasts.show({
                    title: 'Ticket #42',
                    message: 'Se te ha asignado un nuevo ticket',
                    color: 'blue',
                    withBorder: true,
                  })
                }
              >
                Información
              </Button>
              <Button
                size="compact-sm"
                color="yellow"
                variant="light"
                onClick={() => notifyWarning('Permiso denegado', 'No puedes hacer esto.')}
              >
                Advertencia
              </Button>
              <Button
                size="compact-sm"
                color="red"
                variant="light"
                onClick={() => notifyError('Error', 'Hubo un problema al guardar el registro.')}
              >
                Error
              </Button>
            </Group>
          </Stack>
        </ShowcaseCard>
        <ShowcaseCard title="Confirmación" description="La pregunta antes de una acción.">
          <ConfirmDemo />
        </ShowcaseCard>
      </SimpleGrid>
    </Stack>
  );
}
