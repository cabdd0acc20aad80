import { Divider, Modal, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import {
  DEFAULT_ATTACHMENT_MAX_BYTES,
  MAX_FILES_PER_UPLOAD,
  MSG,
  sanitize,
  TICKET_TEXT_RULE,
  ZTicketWrite,
  type TOption,
  type TTicket,
  type TTicketCreateResponse,
  type TTicketWrite,
} from '@portal/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { FileDropzone } from '@/components/ui/file-dropzone.tsx';
import { ModalTitle } from '@/components/ui/modal-title.tsx';
import { OptionSelect } from '@/components/ui/option-select.tsx';
import { FormActions, FormProblemAlert, validMark } from '@/components/ui/record-form.tsx';
import { errorText, isSessionLost } from '@/lib/api-client.ts';
import { notifyError, notifySuccess, notifyWarning } from '@/lib/notify.ts';
import type { OptionSource } from '@/lib/resource-api.ts';
import { useRecordForm } from '@/lib/use-record-form.ts';
import { attachmentKeys, attachmentsQuery, uploadAttachments } from '../api/attachments-api.ts';
import { createTicket, ticketKeys, updateTicket } from '../api/tickets-api.ts';
import { AttachmentsPanel } from './attachments-panel.tsx';

type Values = Record<keyof TTicketWrite, string>;

interface SelectDef {
  name: Exclude<keyof TTicketWrite, 'name' | 'description'>;
  label: string;
  source: OptionSource;
  /** The ticket's current choice, kept as an option even if it was deactivated since. */
  current: (ticket: TTicket) => TOption | undefined;
  /** Optional: its first option chooses none. */
  noneLabel?: string;
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
  {
    name: 'group_id',
    label: 'Grupo',
    source: 'groups',
    current: (t) => t.group ?? undefined,
    noneLabel: 'Sin grupo',
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
  group_id: ticket?.group_id ? String(ticket.group_id) : '',
});

/** What the API is sent: trimmed text, and no group as null. */
const bodyOf = (values: Values) => ({
  ...values,
  name: values.name.trim(),
  description: values.description.trim(),
  group_id: values.group_id === '' ? null : values.group_id,
});

/** Field errors under the contract's own schema, the one the API validates with. */
function validate(values: Values): Partial<Record<keyof Values, string>> {
  const errors: Partial<Record<keyof Values, string>> = {};
  for (const s of selects) if (values[s.name] === '' && s.noneLabel === undefined) errors[s.name] = MSG.required;
  const result = ZTicketWrite.safeParse(bodyOf(values));
  if (!result.success) {
    for (const issue of result.error.issues) {
      const key = String(issue.path[0]) as keyof Values;
      errors[key] ??= issue.message;
    }
  }
  return errors;
}

/** The large create/edit modal of a ticket: name, description and seven selects from the active records. */
export function TicketFormModal({ ticket, onClose }: { ticket?: TTicket; onClose: () => void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const isEdit = ticket !== undefined;
  const [values, setValues] = useState<Values>(() => initial(ticket));
  const errors = validate(values);
  const form = useRecordForm(errors, onClose);
  // Files dropped here are attached once the ticket is saved (a new ticket has no id before).
  const [files, setFiles] = useState<File[]>([]);
  const attachments = useQuery({ ...attachmentsQuery(ticket?.id ?? 0), enabled: isEdit });
  const limits = attachments.data?.limits;
  const canAttach = !isEdit || attachments.data?.can_add === true;
  const room = limits ? Math.min(limits.max_files, limits.max_per_ticket - attachments.data!.data.length) : 0;

  async function attachTo(ticketId: number) {
    if (files.length === 0) return;
    try {
      await uploadAttachments(ticketId, files);
    } catch (error) {
      if (!isSessionLost(error)) {
        notifyError('El ticket se guardó, pero los archivos no se adjuntaron', errorText(error, ''));
      }
    }
    await queryClient.invalidateQueries({ queryKey: attachmentKeys.ofTicket(ticketId) });
  }

  const set = (name: keyof Values, value: string) => {
    const clean = name === 'name' || name === 'description' ? sanitize(TICKET_TEXT_RULE, value) : value;
    setValues((v) => ({ ...v, [name]: clean }));
    form.touch(name);
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    const body = bodyOf(values);
    void form.save(Object.keys(values), async () => {
      const saved = isEdit ? await updateTicket(ticket.id, body) : await createTicket(body);
      await attachTo(saved.data.id);
      notifySuccess(
        isEdit ? 'Actualizado' : 'Creado',
        isEdit ? 'Registro actualizado exitosamente.' : 'Registro creado exitosamente.',
      );
      await queryClient.invalidateQueries({ queryKey: ticketKeys.all });
      // A new ticket sharing a reference with open ones: its page shows the suggestion (Ver, Marcar como duplicado).
      const suggestion = isEdit ? null : (saved as TTicketCreateResponse).possible_duplicate;
      if (suggestion) {
        notifyWarning('Posible duplicado', suggestion.message);
        void navigate(`/tickets/${saved.data.id}`);
      }
    });
  }

  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
      title={<ModalTitle title={isEdit ? `Editar ticket #${ticket.id}` : 'Nuevo ticket'} />}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <FormProblemAlert problem={form.problem} />
          <TextInput
            label="Nombre"
            name="name"
            required
            maxLength={150}
            value={values.name}
            error={form.errorOf('name')}
            rightSection={validMark(form.isValid('name'))}
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
            error={form.errorOf('description')}
            onChange={(e) => set('description', e.currentTarget.value)}
          />
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md" verticalSpacing="sm">
            {selects.map((s) => (
              <OptionSelect
                key={s.name}
                source={s.source}
                current={ticket ? s.current(ticket) : undefined}
                label={s.label}
                name={s.name}
                value={values[s.name]}
                error={form.errorOf(s.name)}
                onChange={(v) => set(s.name, v)}
                required={s.noneLabel === undefined}
                noneLabel={s.noneLabel}
              />
            ))}
          </SimpleGrid>
          {(isEdit || canAttach) && <Divider />}
          {isEdit && <AttachmentsPanel ticketId={ticket.id} withUpload={false} />}
          {canAttach &&
            (isEdit && room <= 0 ? null : (
              <Stack gap={4}>
                <Text size="sm" fw={500}>
                  {isEdit ? 'Adjuntar más archivos' : 'Archivos adjuntos'}
                </Text>
                <FileDropzone
                  value={files}
                  onChange={setFiles}
                  maxFiles={isEdit ? room : MAX_FILES_PER_UPLOAD}
                  maxSize={limits?.max_bytes ?? DEFAULT_ATTACHMENT_MAX_BYTES}
                  disabled={form.isSaving}
                  label="Arrastra archivos aquí o haz clic para elegirlos; se adjuntan cuando se guarda el ticket"
                />
              </Stack>
            ))}
          <FormActions onCancel={onClose} isSaving={form.isSaving} />
        </Stack>
      </form>
    </Modal>
  );
}
