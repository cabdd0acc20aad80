import { Anchor, Button, Stack, TextInput } from '@mantine/core';
import { PASSWORD_RESET_MSG, ZSendResetCodeRequest, sanitize } from '@portal/contract';
import { IconArrowLeft, IconMail } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { paths } from '@/config/paths.ts';
import { notifySuccess } from '@/lib/notify.ts';
import { useSendResetCode } from '../api/send-reset-code.ts';
import { resetStorage } from '../reset-storage.ts';
import { AuthFrame, ProblemAlert } from '@/components/ui/auth-frame.tsx';
import { recoveryErrorText } from './recovery-error.ts';

const emailRule = ZSendResetCodeRequest.shape.email;

/** Step 1: the e-mail that receives the code. */
export default function ForgotPasswordPage() {
  const navigate = useNavigate();
  const send = useSendResetCode();
  const [email, setEmail] = useState(() => resetStorage.email() ?? '');
  const [isTouched, setTouched] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const check = emailRule.safeParse(email);
  const fieldError = !isTouched
    ? undefined
    : email.trim() === ''
      ? 'Este campo es obligatorio.'
      : check.success
        ? undefined
        : check.error.issues[0]?.message;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (!check.success) return;
    setProblem(null);
    try {
      const response = await send.mutateAsync({ email: check.data });
      resetStorage.startWith(check.data);
      notifySuccess('Código enviado', response.message);
      navigate(paths.confirmCode);
    } catch (error) {
      setProblem(recoveryErrorText(error, PASSWORD_RESET_MSG.sendFailed));
    }
  }

  return (
    <AuthFrame
      title="¿Olvidaste tu contraseña?"
      description="Ingresa el correo de tu cuenta y te enviaremos un código de 6 dígitos para restablecerla."
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {problem && <ProblemAlert title="No pudimos enviar el código">{problem}</ProblemAlert>}
          <TextInput
            label="Correo electrónico"
            name="email"
            type="email"
            autoComplete="email"
            placeholder="nombre@empresa.com"
            leftSection={<IconMail size={16} aria-hidden />}
            value={email}
            onChange={(e) => {
              setEmail(sanitize('email', e.currentTarget.value));
              setTouched(true);
            }}
            error={fieldError}
            withAsterisk
            maxLength={120}
            autoFocus
          />
          <Button type="submit" fullWidth size="md" loading={send.isPending}>
            Enviar código
          </Button>
          <Anchor component={Link} to={paths.login} size="sm" ta="center">
            <IconArrowLeft size={14} style={{ verticalAlign: 'middle', marginRight: 4 }} aria-hidden />
            Volver a iniciar sesión
          </Anchor>
        </Stack>
      </form>
    </AuthFrame>
  );
}
