import { Alert, Anchor, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { sanitize } from '@portal/contract';
import { IconCheck, IconClockExclamation } from '@tabler/icons-react';
import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { AuthFrame, ProblemAlert } from '@/components/ui/auth-frame.tsx';
import { paths } from '@/config/paths.ts';
import { ApiError, errorText } from '@/lib/api-client.ts';
import { notifySuccess } from '@/lib/notify.ts';
import { forgetSessionEndReason, sessionEndReason, startSession } from '@/lib/session.ts';
import { login } from '../api/session-api.ts';

type Field = 'username' | 'password';
const REQUIRED = 'Este campo es obligatorio.';

/** The text of the 'Tenemos un problema' alert. */
export function loginFailureText(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.details.isNetworkError) return 'No se pudo conectar con el servidor.';
    return errorText(error, 'Ocurrió un error inesperado.');
  }
  return error instanceof Error ? 'Ocurrió un error inesperado.' : 'Error desconocido.';
}

export default function LoginPage() {
  const [values, setValues] = useState<Record<Field, string>>({ username: '', password: '' });
  const [touched, setTouched] = useState<Record<Field, boolean>>({ username: false, password: false });
  const [problem, setProblem] = useState<string | null>(null);
  const [isSubmitting, setSubmitting] = useState(false);
  // Said once: a later visit to /login in this tab starts clean.
  const [hasExpired] = useState(() => sessionEndReason() === 'expired');
  useEffect(forgetSessionEndReason, []);

  // Login fields keep only textWithSymbols characters and are required.
  const change = (field: Field) => (event: React.ChangeEvent<HTMLInputElement>) => {
    const value = sanitize('textWithSymbols', event.currentTarget.value);
    setValues((v) => ({ ...v, [field]: value }));
    setTouched((t) => ({ ...t, [field]: true }));
  };
  const errorOf = (field: Field) => (touched[field] && values[field].trim() === '' ? REQUIRED : undefined);
  const isValid = (field: Field) => touched[field] && values[field].trim() !== '';

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched({ username: true, password: true });
    if (values.username.trim() === '' || values.password === '') return;
    setSubmitting(true);
    setProblem(null);
    try {
      const response = await login({ username: values.username.trim(), password: values.password });
      notifySuccess('¡Bienvenido!', response.message || 'Inicio de sesión exitoso.');
      // The guest guard sees the new session and moves on to /tickets.
      startSession(response.data.token, response.data.user);
    } catch (error) {
      setProblem(loginFailureText(error));
      setSubmitting(false);
    }
  }

  return (
    <AuthFrame title="Portal de tickets" description="Ingresa tus credenciales" logoSize={56} maxWidth={420}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {problem && <ProblemAlert title="Tenemos un problema">{problem}</ProblemAlert>}
          {hasExpired && !problem && (
            <Alert
              color="yellow"
              variant="light"
              title="Tu sesión expiró"
              icon={<IconClockExclamation />}
              role="status"
            >
              Inicia sesión de nuevo para continuar.
            </Alert>
          )}

          <TextInput
            label="Usuario"
            name="username"
            autoComplete="username"
            placeholder="Tu usuario"
            value={values.username}
            onChange={change('username')}
            error={errorOf('username')}
            withAsterisk
            maxLength={50}
            rightSection={
              isValid('username') ? <IconCheck size={16} color="var(--mantine-color-teal-7)" aria-hidden /> : null
            }
          />
          <PasswordInput
            label="Contraseña"
            name="password"
            autoComplete="current-password"
            placeholder="Tu contraseña"
            value={values.password}
            onChange={change('password')}
            error={errorOf('password')}
            withAsterisk
            maxLength={128}
            visibilityToggleButtonProps={{ 'aria-label': 'Mostrar u ocultar contraseña' }}
          />

          <Button type="submit" fullWidth size="md" loading={isSubmitting} mt="xs">
            Iniciar Sesión
          </Button>
          <Anchor component={Link} to={paths.forgotPassword} size="sm" ta="center">
            ¿Olvidaste tu contraseña?
          </Anchor>
        </Stack>
      </form>
    </AuthFrame>
  );
}
