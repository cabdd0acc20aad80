import { useState } from 'react';
import { isApiError, isSessionLost } from './api-client.ts';

/** A save failure shows the field errors or the message, else this. */
export const SAVE_FAILED = 'Hubo un problema al guardar el registro.';

export interface FormProblem {
  title: string;
  text: string;
}

/**
 * The error state of a create/edit modal: a field shows its client error once
 * touched and the server's error until it changes again; a failed save lists
 * the server's field errors ('Error de validación') or its message.
 */
export function useRecordForm(errors: Partial<Record<string, string>>, onClose: () => void) {
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const [isSaving, setSaving] = useState(false);

  const errorOf = (name: string) => serverErrors[name] ?? (touched[name] ? errors[name] : undefined);
  const isValid = (name: string) => touched[name] === true && !errorOf(name);

  /** Whether an error's key (`week.0.1.end`) is of the field `name`. */
  const isUnder = (key: string, name: string) => key === name || key.startsWith(`${name}.`);

  /** A field of parts (a calendar's week): every error under its name, by path, the server's first. */
  const errorsUnder = (name: string): Record<string, string> => {
    const own = touched[name] ? Object.entries(errors).filter(([key]) => isUnder(key, name)) : [];
    const server = Object.entries(serverErrors).filter(([key]) => isUnder(key, name));
    return Object.fromEntries([...own, ...server] as [string, string][]);
  };

  /** A field changed: it now shows its own error, and the server's is gone. */
  const touch = (name: string) => {
    setTouched((t) => ({ ...t, [name]: true }));
    setServerErrors((current) => Object.fromEntries(Object.entries(current).filter(([key]) => !isUnder(key, name))));
  };

  /** Shows every field's error; when there is none, runs `write` and closes, or shows why it failed. */
  async function save(names: string[], write: () => Promise<void>) {
    setTouched(Object.fromEntries(names.map((name) => [name, true])));
    if (Object.keys(errors).length > 0) return;
    setSaving(true);
    setProblem(null);
    try {
      await write();
      onClose();
    } catch (error) {
      if (isSessionLost(error)) return onClose();
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

  return { errorOf, errorsUnder, isValid, touch, save, problem, isSaving };
}
