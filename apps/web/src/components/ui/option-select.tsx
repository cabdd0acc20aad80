import type { TOption } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { optionsQuery, type OptionSource } from '@/lib/resource-api.ts';
import { SelectField, toSelectOptions, type SelectFieldProps } from './select-field.tsx';

interface OptionSelectProps extends Omit<SelectFieldProps, 'options' | 'isLoading'> {
  /** Record statuses or a resource's active records. */
  source: OptionSource;
  /** A record's current choice, offered even if it was deactivated since. */
  current?: TOption;
  /** The label of a first option that chooses none (value ''), for an optional field. */
  noneLabel?: string;
}

/** The select control over the options of a source, 'Cargando...' until they come. */
export function OptionSelect({ source, current, noneLabel, ...props }: OptionSelectProps) {
  const options = useQuery(optionsQuery(source));
  const items = options.data ?? [];
  const all = current && !items.some((o) => o.id === current.id) ? [current, ...items] : items;
  const none = noneLabel === undefined ? [] : [{ value: '', label: noneLabel }];
  return <SelectField {...props} options={[...none, ...toSelectOptions(all)]} isLoading={options.isPending} />;
}
