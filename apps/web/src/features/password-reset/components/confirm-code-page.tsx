import { Anchor, Button, Center, Group, PinInput, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { PASSWORD_RESET_MSG, RESET_CODE_LENGTH, RESET_CODE_TTL_MINUTES } from '@portal/contract';
import { useRef, useState, type ClipboardEvent, type FormEvent } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { paths } from '@/config/paths.ts';
import { notifySuccess } from '@/lib/notify.ts';
import { useSendResetCode } from '../api/send-reset-code.ts';
import { useVerifyResetCode } from '../api/verify-reset-code.ts';
import { resetStorage } from '../reset-storage.ts';
import { AuthFrame, ProblemAlert } from '@/components/ui/auth-frame.tsx';
import { recoveryErrorText } from './recovery-error.ts';

/** Step 2 of SPEC §4; without a stored e-mail there is nothing to confirm. */
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
  const boxes = useRef<HTMLDivElement>(null);
  const isComplete = code.length === RESET_CODE_LENGTH;
  // Six 50 px boxes do not fit a 360 px phone inside the card.
  const isNarrow = useMediaQuery('(max-width: 26em)');

  const focusBox = (index: number) =>
    boxes.current?.querySelectorAll<HTMLInputElement>('input:not([type=hidden])')[index]?.focus();

  // A pasted mail line ("Tu código es: 123 456") still fills the boxes: only its digits count.
  const paste = (event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    const digits = event.clipboardData.getData('text/plain').replace(/\D/g, '').slice(0, RESET_CODE_LENGTH);
    if (digits === '') return;
    setCode(digits);
    setProblem(null);
    focusBox(Math.min(digits.length, RESET_CODE_LENGTH - 1));
  };

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
              <PinInput
                rootRef={boxes}
                length={RESET_CODE_LENGTH}
                type="number"
                oneTimeCode
                autoFocus
                size={isNarrow ? 'md' : 'lg'}
                gap={isNarrow ? 6 : 'sm'}
                value={code}
                onChange={(value) => {
                  setCode(value);
                  if (problem) setProblem(null);
                }}
                error={problem !== null}
                aria-labelledby="reset-code-label"
                getInputProps={(index) => ({
                  'aria-label': `Dígito ${index + 1} de ${RESET_CODE_LENGTH}`,
                  onPaste: paste,
                })}
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
