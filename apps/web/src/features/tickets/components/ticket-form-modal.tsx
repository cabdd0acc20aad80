import { Alert, Button, Group, Modal, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { MSG, sanitize, ZTicketWrite, type TOption, type TTicket, type TTicketWrite } from '@portal/contract';
import { IconAlertCircle, IconCheck } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { SAVE_FAILED } from './list-texts.ts';
import { SelectField, toSelectOptions } from '@/components/ui/select-field.tsx';
import { isApiError } from '@/lib/api-client.ts';
import { notifySuccess } from '@/lib/notify.ts';
import { optionsQuery, type OptionSource } from '@/lib/resource-api.ts';
import { createTicket, ticketKeys, updateTicket } from '../api/tickets-api.ts';

type Values = Record<keyof TTicketWrite, string>;

interface SelectDef {
  name: Exclude<keyof TTicketWrite, 'name' | 'description'>;
  label: string;
  source: OptionSource;
  /** The ticket's current choice, kept as an option even if it was deactivated since. */
  current: (ticket: TTicket) => TOption;
}

const selects: SelectDef[] = [
  { name: 'area_id', label: 'Área', source: 'areas', current: (t) => ({ id: t.area_id, name: t.areas.name }) },
  {
    name: 'project_id',
    label: 'Proyecto',
    source: 'projects',
    current: (t) => ({ id: t.project_id, name: t.projects.name }),
  },
  {
    name: 'category_id',
    label: 'Categoría',
    source: 'categories',
    current: (t) => ({ id: t.category_id, name: t.categories.name }),
  },
  {
    name: 'priority_type_id',
    label: 'Prioridad',
    source: 'priority-types',
    current: (t) => ({ id: t.priority_type_id, name: t.priorities.name }),
  },
  {
    name: 'difficulty_id',
    label: 'Dificultad',
    source: 'difficulties',
    current: (t) => ({ id: t.difficulty_id, name: t.difficulties.name }),
  },
  {
    name: 'status_id',
    label: 'Estado',
    source: 'ticket-statuses',
    current: (t) => ({ id: t.status_id, name: t.status_tickets.name }),
  },
];

const initial = (ticket?: TTicket): Values => ({
  name: ticket?.name ?? '',
  description: ticket?.description ?? '',
  area_id: ticket ? String(ticket.area_id) : '',
  project_id: ticket ? String(ticket.project_id) : '',
  category_id: ticket ? String(ticket.category_id) : '',
  priority_type_id: ticket ? String(ticket.priority_type_id) : '',
  difficulty_id: ticket ? String(ticket.difficulty_id) : '',
  status_id: ticket ? String(ticket.status_id) : '',
});

/** Field errors under the contract's own schema, the one the API validates with. */
function validate(values: Values): Partial<Record<keyof Values, string>> {
  const errors: Partial<Record<keyof Values, string>> = {};
  for (const s of selects) if (values[s.name] === '') errors[s.name] = MSG.required;
  const result = ZTicketWrite.safeParse({
    ...values,
    name: values.name.trim(),
    description: values.description.trim(),
  });
  if (!result.success) {
    for (const issue of result.error.issues) {
      const key = String(issue.path[0]) as keyof Values;
      errors[key] ??= issue.message;
    }
  }
  return errors;
}

/** The large create/edit modal of a ticket (SPEC §2): name, description and six selects from the active records. */
export function TicketFormModal({ ticket, onClose }: { ticket?: TTicket; onClose: () => void }) {
  const queryClient = useQueryClient();
  const isEdit = ticket !== undefined;
  const [values, setValues] = useState<Values>(() => initial(ticket));
  const [touched, setTouched] = useState<Partial<Record<keyof Values, boolean>>>({});
  const [serverErrors, setServerErrors] = useState<Partial<Record<string, string>>>({});
  const [problem, setProblem] = useState<{ title: string; text: string } | null>(null);
  const [isSaving, setSaving] = useState(false);

  const errors = validate(values);
  const errorOf = (name: keyof Values) => serverErrors[name] ?? (touched[name] ? errors[name] : undefined);
  const validMark = (name: keyof Values) =>
    touched[name] && !errorOf(name) ? <IconCheck size={16} color="var(--mantine-color-teal-7)" aria-hidden /> : null;

  const set = (name: keyof Values, value: string) => {
    const clean = name === 'name' || name === 'description' ? sanitize('alphanumeric', value) : value;
    setValues((v) => ({ ...v, [name]: clean }));
    setTouched((t) => ({ ...t, [name]: true }));
    setServerErrors(({ [name]: _, ...rest }) => rest);
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(Object.fromEntries(Object.keys(values).map((k) => [k, true])));
    if (Object.keys(errors).length > 0) return;
    setSaving(true);
    setProblem(null);
    const body = { ...values, name: values.name.trim(), description: values.description.trim() };
    try {
      if (isEdit) await updateTicket(ticket.id, body);
      else await createTicket(body);
      notifySuccess(
        isEdit ? 'Actualizado' : 'Creado',
        isEdit ? 'Registro actualizado exitosamente.' : 'Registro creado exitosamente.',
      );
      await queryClient.invalidateQueries({ queryKey: ticketKeys.all });
      onClose();
    } catch (error) {
      if (isApiError(error) && error.details.isSessionLost) return onClose();
      const fieldErrors = isApiError(error) ? (error.errors ?? {}) : {};
      const lines = Object.values(fieldErrors).flat();
      if (lines.length > 0) {
        setServerErrors(Object.fromEntries(Object.entries(fieldErrors).map(([k, v]) => [k, v.join(' ')])));
        setProblem({ title: 'Error de validación', text: lines.join('\n') });
      } else {
        setProblem({ title: 'Error', text: (isApiError(error) && error.message) || SAVE_FAILED });
      }
      setSaving(false);
    }
  }

  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
      title={
        <Text fw={650} size="lg">
          {isEdit ? `Editar ticket #${ticket.id}` : 'Nuevo ticket'}
        </Text>
      }
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {problem && (
            <Alert color="red" variant="light" title={problem.title} icon={<IconAlertCircle />} role="alert">
              <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
                {problem.text}
              </Text>
            </Alert>
          )}
          <TextInput
            label="Nombre"
            name="name"
            required
            maxLength={150}
            value={values.name}
            error={errorOf('name')}
            rightSection={validMark('name')}
            onChange={(e) => set('name', e.currentTarget.value)}
            autoComplete="off"
            data-autofocus
          />
          <Textarea
            label="Descripción"
            name="description"
            required
            maxLength={2000}
            autosize
            minRows={3}
            maxRows={8}
            value={values.description}
            error={errorOf('description')}
            onChange={(e) => set('description', e.currentTarget.value)}
          />
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md" verticalSpacing="sm">
            {selects.map((s) => (
              <TicketSelect
                key={s.name}
                def={s}
                ticket={ticket}
                value={values[s.name]}
                error={errorOf(s.name)}
                onChange={(v) => set(s.name, v)}
              />
            ))}
          </SimpleGrid>
          <Group justify="flex-end" gap="sm" mt="xs">
            <Button variant="default" onClick={onClose} disabled={isSaving}>
              Cancelar
            </Button>
            <Button type="submit" loading={isSaving}>
              Guardar
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function TicketSelect({
  def,
  ticket,
  value,
  error,
  onChange,
}: {
  def: SelectDef;
  ticket?: TTicket;
  value: string;
  error?: string;
  onChange: (value: string) => void;
}) {
  const options = useQuery(optionsQuery(def.source));
  const items = options.data ?? [];
  const current = ticket ? def.current(ticket) : undefined;
  const all = current && !items.some((o) => o.id === current.id) ? [current, ...items] : items;
  return (
    <SelectField
      label={def.label}
      name={def.name}
      value={value}
      onChange={onChange}
      options={toSelectOptions(all)}
      error={error}
      required
      isLoading={options.isPending}
    />
  );
}
