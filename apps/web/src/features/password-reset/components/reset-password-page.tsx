import { Anchor, Button, PasswordInput, Stack } from '@mantine/core';
import { MIN_PASSWORD_LENGTH, PASSWORD_RESET_MSG, ZPassword, sanitize } from '@portal/contract';
import { IconLock } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { paths } from '@/config/paths.ts';
import { notifySuccess } from '@/lib/notify.ts';
import { useResetPassword } from '../api/reset-password.ts';
import { resetStorage } from '../reset-storage.ts';
import { AuthFrame, ProblemAlert } from '@/components/ui/auth-frame.tsx';
import { recoveryErrorText } from './recovery-error.ts';

/** Step 3; only reachable with the token a verified code gave. */
export default function ResetPasswordPage() {
  const [stored] = useState(() => ({ email: resetStorage.email(), token: resetStorage.token() }));
  if (!stored.email || !stored.token) return <Navigate to={paths.forgotPassword} replace />;
  return <ResetPassword email={stored.email} resetToken={stored.token} />;
}

type Field = 'password' | 'password_confirmation';
const REQUIRED = 'Este campo es obligatorio.';

function ResetPassword({ email, resetToken }: { email: string; resetToken: string }) {
  const navigate = useNavigate();
  const reset = useResetPassword();
  const [values, setValues] = useState<Record<Field, string>>({ password: '', password_confirmation: '' });
  const [touched, setTouched] = useState<Record<Field, boolean>>({ password: false, password_confirmation: false });
  const [problem, setProblem] = useState<string | null>(null);

  // The characters the sign-in form accepts, so the new password can always be typed there.
  const change = (field: Field) => (event: React.ChangeEvent<HTMLInputElement>) => {
    const value = sanitize('textWithSymbols', event.currentTarget.value);
    setValues((v) => ({ ...v, [field]: value }));
    setTouched((t) => ({ ...t, [field]: true }));
  };

  const errors: Record<Field, string | undefined> = {
    password:
      values.password === '' ? REQUIRED : (ZPassword.safeParse(values.password).error?.issues[0]?.message ?? undefined),
    password_confirmation:
      values.password_confirmation === ''
        ? REQUIRED
        : values.password_confirmation !== values.password
          ? PASSWORD_RESET_MSG.passwordsDoNotMatch
          : undefined,
  };
  const shown = (field: Field) => (touched[field] ? errors[field] : undefined);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched({ password: true, password_confirmation: true });
    if (errors.password || errors.password_confirmation) return;
    setProblem(null);
    try {
      const response = await reset.mutateAsync({ email, reset_token: resetToken, ...values });
      resetStorage.clear();
      notifySuccess('Contraseña restablecida', response.message);
      navigate(paths.login, { replace: true });
    } catch (error) {
      setProblem(recoveryErrorText(error, 'Ocurrió un error inesperado.'));
    }
  }

  return (
    <AuthFrame
      title="Crea tu nueva contraseña"
      description={`Usa al menos ${MIN_PASSWORD_LENGTH} caracteres. Al guardarla se cerrarán todas tus sesiones abiertas.`}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {problem && <ProblemAlert title="La contraseña no fue restablecida">{problem}</ProblemAlert>}
          <input type="text" name="username" autoComplete="username" value={email} readOnly hidden />
          <PasswordInput
            label="Nueva contraseña"
            name="password"
            autoComplete="new-password"
            leftSection={<IconLock size={16} aria-hidden />}
            value={values.password}
            onChange={change('password')}
            error={shown('password')}
            withAsterisk
            maxLength={128}
            autoFocus
            visibilityToggleButtonProps={{ 'aria-label': 'Mostrar u ocultar contraseña' }}
          />
          <PasswordInput
            label="Confirmar contraseña"
            name="password_confirmation"
            autoComplete="new-password"
            leftSection={<IconLock size={16} aria-hidden />}
            value={values.password_confirmation}
            onChange={change('password_confirmation')}
            error={shown('password_confirmation')}
            withAsterisk
            maxLength={128}
            visibilityToggleButtonProps={{ 'aria-label': 'Mostrar u ocultar confirmación' }}
          />
          <Button type="submit" fullWidth size="md" loading={reset.isPending}>
            Restablecer contraseña
          </Button>
          <Anchor component={Link} to={paths.forgotPassword} size="sm" ta="center">
            ¿El código expiró? Solicita uno nuevo
          </Anchor>
        </Stack>
      </form>
    </AuthFrame>
  );
}
