import {
  Alert,
  Button,
  Checkbox,
  Group,
  Modal,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconAlertCircle, IconCheck } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { SelectField, toSelectOptions } from '@/components/ui/select-field.tsx';
import { isApiError } from '@/lib/api-client.ts';
import { notifySuccess } from '@/lib/notify.ts';
import { createRecord, optionsQuery, resourceKeys, updateRecord } from '@/lib/resource-api.ts';
import { cleanInput, fieldsFor, initialValues, toPayload, validateValues } from './form-values.ts';
import type { FormMode, FormValues, ResourceConfig, ResourceField, SelectField as SelectFieldConfig } from './types.ts';

interface ResourceFormModalProps {
  config: ResourceConfig;
  mode: FormMode;
  record?: Record<string, unknown> & { id: number };
  onClose: () => void;
}

interface Problem {
  title: string;
  text: string;
}

/** SPEC §8: a save failure shows the field errors or the message, else this. */
export const SAVE_FAILED = 'Hubo un problema al guardar el registro.';

/** The create/edit modal of a resource, validated by the contract's write schema. */
export function ResourceFormModal({ config, mode, record, onClose }: ResourceFormModalProps) {
  const queryClient = useQueryClient();
  const fields = fieldsFor(config.fields, mode);
  const [values, setValues] = useState<FormValues>(() => initialValues(config.fields, record));
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<Problem | null>(null);
  const [isSaving, setSaving] = useState(false);

  const errors = validateValues(config.resource, config.fields, values, mode);
  const errorOf = (name: string) => serverErrors[name] ?? (touched[name] ? errors[name] : undefined);
  const isValid = (name: string) => touched[name] && !errorOf(name);

  const setValue = (field: ResourceField, value: string | boolean) => {
    setValues((v) => ({ ...v, [field.name]: typeof value === 'string' ? cleanInput(field, value) : value }));
    setTouched((t) => ({ ...t, [field.name]: true }));
    setServerErrors(({ [field.name]: _, ...rest }) => rest);
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(Object.fromEntries(fields.map((f) => [f.name, true])));
    if (Object.keys(errors).length > 0) return;
    setSaving(true);
    setProblem(null);
    try {
      const body = toPayload(config.fields, values, mode);
      if (mode === 'create') await createRecord(config.resource, body);
      else await updateRecord(config.resource, record!.id, body);
      notifySuccess(
        mode === 'create' ? 'Creado' : 'Actualizado',
        mode === 'create' ? 'Registro creado exitosamente.' : 'Registro actualizado exitosamente.',
      );
      await queryClient.invalidateQueries({ queryKey: resourceKeys.all(config.resource) });
      await queryClient.invalidateQueries({ queryKey: resourceKeys.options(config.resource) });
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
      size={config.modalSize ?? 'md'}
      title={
        <Text fw={650} size="lg">
          {mode === 'create' ? `Agregar ${config.singular}` : `Editar ${config.singular}`}
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
          {record && <input type="hidden" name="id" value={String(record.id)} />}
          <SimpleGrid cols={{ base: 1, sm: config.formColumns ?? 1 }} spacing="md" verticalSpacing="sm">
            {fields.map((field) => (
              <FieldInput
                key={field.name}
                field={field}
                mode={mode}
                value={values[field.name] ?? ''}
                error={errorOf(field.name)}
                isValid={isValid(field.name) === true}
                onChange={(value) => setValue(field, value)}
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

interface FieldInputProps {
  field: ResourceField;
  mode: FormMode;
  value: string | boolean;
  error?: string;
  isValid: boolean;
  onChange: (value: string | boolean) => void;
}

function FieldInput({ field, mode, value, error, isValid, onChange }: FieldInputProps) {
  if (field.kind === 'checkbox') {
    return (
      <Checkbox
        label={field.label}
        name={field.name}
        checked={value === true}
        onChange={(e) => onChange(e.currentTarget.checked)}
        mt={4}
      />
    );
  }
  if (field.kind === 'select')
    return <SelectInput field={field} mode={mode} value={String(value)} error={error} onChange={onChange} />;

  const common = {
    label: field.label,
    name: field.name,
    value: String(value),
    error,
    required: field.required,
    maxLength: field.maxLength,
    placeholder: field.placeholder,
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => onChange(e.currentTarget.value),
  };
  if (field.inputType === 'password') return <PasswordInput {...common} autoComplete="new-password" />;
  return (
    <TextInput
      {...common}
      type={field.inputType === 'email' ? 'email' : 'text'}
      autoComplete="off"
      rightSection={isValid ? <IconCheck size={16} color="var(--mantine-color-teal-7)" aria-hidden /> : null}
    />
  );
}

function SelectInput({
  field,
  mode,
  value,
  error,
  onChange,
}: {
  field: SelectFieldConfig;
  mode: FormMode;
  value: string;
  error?: string;
  onChange: (value: string) => void;
}) {
  const isStatic = Array.isArray(field.source);
  const options = useQuery({
    ...optionsQuery(isStatic ? 'statuses' : (field.source as Exclude<SelectFieldConfig['source'], unknown[]>)),
    enabled: !isStatic,
  });
  const list = isStatic ? (field.source as { value: string; label: string }[]) : toSelectOptions(options.data ?? []);
  return (
    <SelectField
      label={field.label}
      name={field.name}
      value={value}
      onChange={onChange}
      options={list}
      error={error}
      required={field.required}
      disabled={mode === 'edit' && field.fixedOnEdit}
      isLoading={!isStatic && options.isPending}
    />
  );
}
