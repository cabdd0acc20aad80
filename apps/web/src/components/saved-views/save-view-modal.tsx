import { Button, Checkbox, Group, Modal, Radio, Stack, Text, TextInput } from '@mantine/core';
import type { SavedViewList, TSavedViewQueryInput } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ApiError, errorText } from '@/lib/api-client.ts';
import { notifySuccess } from '@/lib/notify.ts';
import { createSavedView, savedViewsQuery } from '@/lib/saved-views-api.ts';

interface SaveViewModalProps {
  list: SavedViewList;
  query: TSavedViewQueryInput;
  onClose: () => void;
  onSaved: (id: number) => void;
}

/** 'Guardar vista': a name, and personal or shared with the roles chosen (only for who may share). */
export function SaveViewModal({ list, query, onClose, onSaved }: SaveViewModalProps) {
  const views = useQuery(savedViewsQuery());
  const canShare = views.data?.can_share ?? false;
  const [name, setName] = useState('');
  const [audience, setAudience] = useState<'personal' | 'shared'>('personal');
  const [roleIds, setRoleIds] = useState<string[]>([]);
  const [errors, setErrors] = useState<{ name?: string; role_ids?: string; form?: string }>({});
  const [isSaving, setSaving] = useState(false);

  async function save(event: FormEvent) {
    event.preventDefault();
    const isShared = audience === 'shared';
    if (name.trim() === '') return setErrors({ name: 'Este campo es obligatorio.' });
    if (isShared && roleIds.length === 0) return setErrors({ role_ids: 'Elige al menos un rol.' });
    setSaving(true);
    try {
      const answer = await createSavedView({
        name: name.trim(),
        list,
        query,
        role_ids: isShared ? roleIds.map(Number) : [],
      });
      notifySuccess('Vista guardada', `La vista «${answer.data.name}» está en el menú, en Vistas.`);
      onSaved(answer.data.id);
    } catch (error) {
      const fields = error instanceof ApiError ? error.errors : undefined;
      setErrors({
        name: fields?.name?.join(' '),
        role_ids: fields?.role_ids?.join(' '),
        form: fields?.name || fields?.role_ids ? undefined : errorText(error, 'No se pudo guardar la vista.'),
      });
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal opened onClose={onClose} title={<Text fw={650}>Guardar vista</Text>} size="md">
      <form onSubmit={(e) => void save(e)} noValidate>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            Se guardan la búsqueda, los filtros, el orden y el tamaño de página actuales.
          </Text>
          <TextInput
            label="Nombre de la vista"
            required
            maxLength={60}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={errors.name}
            data-autofocus
          />
          {canShare && (
            <Radio.Group
              label="¿Quién la verá?"
              value={audience}
              onChange={(v) => setAudience(v as 'personal' | 'shared')}
            >
              <Group gap="lg" mt={6}>
                <Radio value="personal" label="Solo yo" />
                <Radio value="shared" label="Compartida con roles" />
              </Group>
            </Radio.Group>
          )}
          {canShare && audience === 'shared' && (
            <Checkbox.Group label="Roles" value={roleIds} onChange={setRoleIds} error={errors.role_ids}>
              <Stack gap={6} mt={6}>
                {(views.data?.roles ?? []).map((role) => (
                  <Checkbox key={role.id} value={String(role.id)} label={role.name} />
                ))}
              </Stack>
            </Checkbox.Group>
          )}
          {errors.form && (
            <Text c="red" size="sm" role="alert">
              {errors.form}
            </Text>
          )}
          <Group justify="flex-end" gap="sm">
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
