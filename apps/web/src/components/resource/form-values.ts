import { catalogResources, MSG, sanitize, stripControlChars, type CatalogResourceName } from '@portal/contract';
import { z } from 'zod';
import type { FormMode, FormValues, ResourceField } from './types.ts';

z.config(z.locales.es());

/** Fields of a form mode: a create-only field (password) is not in the edit form. */
export const fieldsFor = (fields: ResourceField[], mode: FormMode) =>
  fields.filter((f) => !(f.kind === 'text' && f.createOnly && mode === 'edit'));

/** Blank values for a new record, or a record's values as strings (ids) and booleans (flags). */
export function initialValues(fields: ResourceField[], record?: Record<string, unknown>): FormValues {
  const values: FormValues = {};
  for (const field of fields) {
    const raw = record?.[field.name];
    if (field.kind === 'custom') values[field.name] = field.initial(record ? raw : undefined);
    else if (field.kind === 'checkbox') values[field.name] = raw === 1 || raw === '1' || raw === true;
    else if (field.kind === 'select')
      values[field.name] = raw === null || raw === undefined ? (record ? '' : (field.defaultValue ?? '')) : String(raw);
    else values[field.name] = field.createOnly ? '' : raw === null || raw === undefined ? '' : String(raw);
  }
  return values;
}

/** What a keystroke leaves in a text field: quotes and characters outside its rule are stripped. */
export function cleanInput(field: ResourceField, raw: string): string {
  if (field.kind !== 'text') return raw;
  return field.rule === 'pattern' ? stripControlChars(raw) : sanitize(field.rule, raw);
}

/** The body sent to the API: trimmed texts, ids as strings, flags as 1/0; fixed fields left out when editing. */
export function toPayload(fields: ResourceField[], values: FormValues, mode: FormMode): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of fieldsFor(fields, mode)) {
    const value = values[field.name];
    if (field.kind === 'custom') body[field.name] = field.toPayload(value!);
    else if (field.kind === 'checkbox') body[field.name] = value === true ? 1 : 0;
    else if (field.kind === 'select') {
      if (mode === 'edit' && field.fixedOnEdit) continue;
      body[field.name] = value === '' ? null : value;
    } else {
      const text = typeof value === 'string' ? value : '';
      body[field.name] = field.inputType === 'password' ? text : text.trim();
    }
  }
  return body;
}

/**
 * Field errors of the values under the contract's own write schema (the one
 * the API validates with), plus the required rule for selects. A custom field's
 * errors are keyed by their whole path (`week.0.1.end`), as the API's are.
 */
export function validateValues(
  resource: CatalogResourceName,
  fields: ResourceField[],
  values: FormValues,
  mode: FormMode,
): Record<string, string> {
  const errors: Record<string, string> = {};
  const visible = fieldsFor(fields, mode);
  for (const field of visible) {
    const value = values[field.name];
    if (field.kind === 'select' && field.required && value === '' && !(mode === 'edit' && field.fixedOnEdit)) {
      errors[field.name] = MSG.required;
    }
  }
  const schema = mode === 'create' ? catalogResources[resource].create : catalogResources[resource].update;
  const result = schema.safeParse(toPayload(fields, values, mode));
  if (!result.success) {
    for (const issue of result.error.issues) {
      const name = String(issue.path[0] ?? '');
      const field = visible.find((f) => f.name === name);
      const key = field?.kind === 'custom' ? issue.path.map(String).join('.') : name;
      if (field && !errors[key]) errors[key] = issue.message;
    }
  }
  return errors;
}
