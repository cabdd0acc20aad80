import { Anchor, Button, Center, Group, Stack, Text } from '@mantine/core';
import { PASSWORD_RESET_MSG, RESET_CODE_LENGTH, RESET_CODE_TTL_MINUTES } from '@portal/contract';
import { useRef, useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { paths } from '@/config/paths.ts';
import { notifySuccess } from '@/lib/notify.ts';
import { useSendResetCode } from '../api/send-reset-code.ts';
import { useVerifyResetCode } from '../api/verify-reset-code.ts';
import { resetStorage } from '../reset-storage.ts';
import { AuthFrame, ProblemAlert } from '@/components/ui/auth-frame.tsx';
import { CodeInput, type CodeInputHandle } from '@/components/ui/code-input.tsx';
import { recoveryErrorText } from './recovery-error.ts';

/** Step 2; without a stored e-mail there is nothing to confirm. */
export default function ConfirmCodePage() {
  const [email] = useState(resetStorage.email);
  if (!email) return <Navigate to={paths.forgotPassword} replace />;
  return <ConfirmCode email={email} />;
}

interface Problem {
  title: string;
  text: string;
}

function ConfirmCode({ email }: { email: string }) {
  const navigate = useNavigate();
  const verify = useVerifyResetCode();
  const resend = useSendResetCode();
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<Problem | null>(null);
  const boxes = useRef<CodeInputHandle>(null);
  const isComplete = code.length === RESET_CODE_LENGTH;
  const focusBox = (index: number) => boxes.current?.focusBox(index);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!/^\d{6}$/.test(code)) {
      setProblem({ title: PASSWORD_RESET_MSG.codeTitle, text: PASSWORD_RESET_MSG.codeLength });
      return;
    }
    setProblem(null);
    try {
      const response = await verify.mutateAsync({ email, token: code });
      resetStorage.saveToken(response.reset_token);
      notifySuccess(response.message, 'Ahora crea tu nueva contraseña.');
      navigate(paths.resetPassword);
    } catch (error) {
      setProblem({
        title: PASSWORD_RESET_MSG.codeTitle,
        text: recoveryErrorText(error, PASSWORD_RESET_MSG.verifyFailed),
      });
      setCode('');
      focusBox(0);
    }
  }

  async function sendAgain() {
    setProblem(null);
    try {
      const response = await resend.mutateAsync({ email });
      notifySuccess('Código reenviado', response.message);
      setCode('');
      focusBox(0);
    } catch (error) {
      setProblem({
        title: 'No pudimos reenviar el código',
        text: recoveryErrorText(error, PASSWORD_RESET_MSG.sendFailed),
      });
    }
  }

  return (
    <AuthFrame
      title="Ingresa el código"
      description={
        <>
          Si <strong>{email}</strong> pertenece a una cuenta, recibirás un código de {RESET_CODE_LENGTH} dígitos. Vence
          en {RESET_CODE_TTL_MINUTES} minutos.
        </>
      }
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {problem && <ProblemAlert title={problem.title}>{problem.text}</ProblemAlert>}
          <Stack gap={6}>
            <Text size="sm" fw={500} ta="center" id="reset-code-label">
              Código de verificación
            </Text>
            <Center>
              <CodeInput
                ref={boxes}
                length={RESET_CODE_LENGTH}
                autoFocus
                value={code}
                onChange={(value) => {
                  setCode(value);
                  if (problem) setProblem(null);
                }}
                hasError={problem !== null}
                labelledBy="reset-code-label"
              />
            </Center>
          </Stack>
          <Button type="submit" fullWidth size="md" disabled={!isComplete} loading={verify.isPending}>
            Confirmar
          </Button>
          <Group justify="space-between" gap="xs">
            <Anchor component={Link} to={paths.forgotPassword} size="sm">
              Usar otro correo
            </Anchor>
            <Button variant="subtle" size="compact-sm" onClick={sendAgain} loading={resend.isPending}>
              Reenviar código
            </Button>
          </Group>
        </Stack>
      </form>
    </AuthFrame>
  );
}
