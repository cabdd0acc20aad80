import { Box, Checkbox, Modal, PasswordInput, SimpleGrid, Stack, Tabs, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ModalTitle } from '@/components/ui/modal-title.tsx';
import { OptionSelect } from '@/components/ui/option-select.tsx';
import { FormActions, FormProblemAlert, validMark } from '@/components/ui/record-form.tsx';
import { SelectField } from '@/components/ui/select-field.tsx';
import { notifySuccess } from '@/lib/notify.ts';
import { createRecord, resourceKeys, updateRecord } from '@/lib/resource-api.ts';
import { useRecordForm } from '@/lib/use-record-form.ts';
import { cleanInput, fieldsFor, initialValues, toPayload, validateValues } from './form-values.ts';
import type {
  CheckboxField,
  CustomValue,
  FormMode,
  FormValues,
  ResourceConfig,
  ResourceField,
  SelectField as SelectFieldConfig,
  TextField,
} from './types.ts';

interface ResourceFormModalProps {
  config: ResourceConfig;
  mode: FormMode;
  record?: Record<string, unknown> & { id: number };
  onClose: () => void;
}

/** The create/edit modal of a resource, validated by the contract's write schema. */
export function ResourceFormModal({ config, mode, record, onClose }: ResourceFormModalProps) {
  const queryClient = useQueryClient();
  const fields = fieldsFor(config.fields, mode);
  const [values, setValues] = useState<FormValues>(() => initialValues(config.fields, record));
  const errors = validateValues(config.resource, config.fields, values, mode);
  const form = useRecordForm(errors, onClose);

  const setValue = (field: ResourceField, value: CustomValue) => {
    setValues((v) => ({ ...v, [field.name]: typeof value === 'string' ? cleanInput(field, value) : value }));
    form.touch(field.name);
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    void form.save(
      fields.map((f) => f.name),
      async () => {
        const body = toPayload(config.fields, values, mode);
        if (mode === 'create') await createRecord(config.resource, body);
        else await updateRecord(config.resource, record!.id, body);
        notifySuccess(
          mode === 'create' ? 'Creado' : 'Actualizado',
          mode === 'create' ? 'Registro creado exitosamente.' : 'Registro actualizado exitosamente.',
        );
        await queryClient.invalidateQueries({ queryKey: resourceKeys.all(config.resource) });
        await queryClient.invalidateQueries({ queryKey: resourceKeys.options(config.resource) });
      },
    );
  }

  const tabs = mode === 'edit' && record ? (config.editTabs ?? []) : [];
  const formView = (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <FormProblemAlert problem={form.problem} />
        {record && <input type="hidden" name="id" value={String(record.id)} />}
        <SimpleGrid cols={{ base: 1, sm: config.formColumns ?? 1 }} spacing="md" verticalSpacing="sm">
          {fields.map((field) =>
            field.kind === 'custom' ? (
              <Box key={field.name} style={{ gridColumn: '1 / -1' }}>
                {field.render({
                  label: field.label,
                  value: values[field.name]!,
                  errors: form.errorsUnder(field.name),
                  onChange: (value) => setValue(field, value),
                })}
              </Box>
            ) : (
              <FieldInput
                key={field.name}
                field={field}
                mode={mode}
                value={values[field.name] ?? ''}
                error={form.errorOf(field.name)}
                isValid={form.isValid(field.name)}
                onChange={(value) => setValue(field, value)}
              />
            ),
          )}
        </SimpleGrid>
        <FormActions onCancel={onClose} isSaving={form.isSaving} />
      </Stack>
    </form>
  );

  return (
    <Modal
      opened
      onClose={onClose}
      size={config.modalSize ?? 'md'}
      title={<ModalTitle title={mode === 'create' ? `Agregar ${config.singular}` : `Editar ${config.singular}`} />}
    >
      {tabs.length === 0 ? (
        formView
      ) : (
        <Tabs defaultValue="form" keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="form">Datos</Tabs.Tab>
            {tabs.map((tab) => (
              <Tabs.Tab key={tab.value} value={tab.value}>
                {tab.label}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          <Tabs.Panel value="form">{formView}</Tabs.Panel>
          {tabs.map((tab) => (
            <Tabs.Panel key={tab.value} value={tab.value}>
              {tab.render(record!)}
            </Tabs.Panel>
          ))}
        </Tabs>
      )}
    </Modal>
  );
}

interface FieldInputProps {
  field: TextField | SelectFieldConfig | CheckboxField;
  mode: FormMode;
  value: CustomValue;
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
      rightSection={validMark(isValid)}
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
  const props = {
    label: field.label,
    name: field.name,
    value,
    onChange,
    error,
    required: field.required,
    disabled: mode === 'edit' && field.fixedOnEdit,
  };
  return Array.isArray(field.source) ? (
    <SelectField {...props} options={field.source} />
  ) : (
    <OptionSelect {...props} source={field.source} noneLabel={field.noneLabel} />
  );
}
