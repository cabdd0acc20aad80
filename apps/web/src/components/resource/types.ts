import type { CatalogResourceName, SanitizerType, SectionName, TCatalogRecord } from '@portal/contract';
import type { ReactNode } from 'react';
import type { OptionSource } from '@/lib/resource-api.ts';

export interface TextField {
  kind: 'text';
  name: string;
  label: string;
  /** The character rule applied as the user types; `pattern`: a regular expression (only control characters stripped). */
  rule: SanitizerType | 'pattern';
  inputType?: 'text' | 'email' | 'password';
  required?: boolean;
  /** Only in the create form (the password of a user). */
  createOnly?: boolean;
  maxLength?: number;
  placeholder?: string;
}

export interface SelectField {
  kind: 'select';
  name: string;
  label: string;
  /** Options from /statuses, a resource's active records, or a fixed list. */
  source: OptionSource | { value: string; label: string }[];
  required?: boolean;
  /** Shown but not editable when editing (the section of a section permission). */
  fixedOnEdit?: boolean;
  /** An optional select's first option, which chooses none (sent as null). */
  noneLabel?: string;
  defaultValue?: string;
}

export interface CheckboxField {
  kind: 'checkbox';
  name: string;
  label: string;
}

/**
 * A field with an editor of its own (a calendar's week, its holidays, a target in hours and
 * minutes): its value is whatever the editor holds, turned into the body's value by `toPayload`.
 */
export interface CustomField {
  kind: 'custom';
  name: string;
  label: string;
  /** The editor's value for a new record (no record) or for a record's value. */
  initial: (recordValue: unknown) => CustomValue;
  toPayload: (value: CustomValue) => unknown;
  /**
   * The editor. `errors`: the field's errors by path (`week`, `week.0`, `week.0.1.end`), the
   * server's and, once touched, the contract's.
   */
  render: (props: CustomFieldProps) => ReactNode;
}

/** A custom field's value: plain data (lists, objects, texts). */
export type CustomValue = string | number | boolean | object;

export interface CustomFieldProps {
  label: string;
  value: CustomValue;
  onChange: (value: CustomValue) => void;
  errors: Record<string, string>;
}

export type ResourceField = TextField | SelectField | CheckboxField | CustomField;

export type FormValues = Record<string, CustomValue>;
export type FormMode = 'create' | 'edit';

export interface ResourceColumn<R> {
  header: string;
  render: (record: R) => ReactNode;
  /** Right-aligned narrow column (flags). */
  isCompact?: boolean;
}

export interface ResourceConfig<N extends CatalogResourceName = CatalogResourceName> {
  resource: N;
  section: SectionName;
  /** Heading of the list (also the page size key). */
  title: string;
  /** 'área' in 'Agregar área' / 'Editar área'. */
  singular: string;
  columns: ResourceColumn<TCatalogRecord<N>>[];
  fields: ResourceField[];
  modalSize?: 'md' | 'lg' | 'xl';
  /** Columns of the form grid (1 or 2). */
  formColumns?: 1 | 2;
  /** An ordered catalogue: the list shows each record's place with buttons to move it up or down (flag u). */
  isOrdered?: boolean;
  /** Tabs the edit modal shows beside the form ('Datos'), e.g. a group's members. */
  editTabs?: ResourceTab[];
  /** While some listed record says so (a background job in progress), the list is read again every few seconds. */
  isRunning?: (record: TCatalogRecord<N>) => boolean;
}

/** A tab of a record's edit modal, beside its form. */
export interface ResourceTab {
  value: string;
  label: string;
  render: (record: { id: number }) => ReactNode;
}

/** Status select of every form, from /statuses. */
export const statusField: SelectField = {
  kind: 'select',
  name: 'status_id',
  label: 'Estado',
  source: 'statuses',
  required: true,
  defaultValue: '1',
};

/** Lets a catalogue list hold configs of different resources. */
export const defineResource = <N extends CatalogResourceName>(config: ResourceConfig<N>) =>
  config as unknown as ResourceConfig;
