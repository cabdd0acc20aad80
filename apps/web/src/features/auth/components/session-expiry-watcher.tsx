import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconClockExclamation } from '@tabler/icons-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '@/config/paths.ts';
import { ERROR_MS, notifyError, notifySuccess, SUCCESS_MS } from '@/lib/notify.ts';
import { clearSession, replaceToken, useSession } from '@/lib/session.ts';
import { secondsLeft } from '@/lib/token.ts';
import { renewToken } from '../api/session-api.ts';

/** How often the token's expiry is checked, and when the warning shows (seconds left). */
export const EXPIRY_CHECK_MS = 30_000;
export const WARNING_POLL_MS = 5_000;
export const WARNING_SECONDS = 30;

/**
 * Watches the token's `exp`: clears an expired session (at start, at login and
 * every 30 s) and, when 30 s or less remain (polled every 5 s), offers renewal.
 */
export function SessionExpiryWatcher() {
  const session = useSession();
  const token = session?.token ?? null;
  const navigate = useNavigate();
  const [left, setLeft] = useState<number | null>(null);
  const [isRenewing, setRenewing] = useState(false);
  const isFailing = useRef(false);

  useEffect(() => {
    const expireIfDue = () => {
      const remaining = secondsLeft(token);
      if (remaining === null || remaining <= 0) {
        setLeft(null);
        clearSession('expired');
        return true;
      }
      return false;
    };
    const warnIfDue = () => {
      if (isFailing.current || expireIfDue()) return;
      const remaining = secondsLeft(token)!;
      setLeft(remaining <= WARNING_SECONDS ? remaining : null);
    };
    warnIfDue();
    const expiry = window.setInterval(expireIfDue, EXPIRY_CHECK_MS);
    const warning = window.setInterval(warnIfDue, WARNING_POLL_MS);
    return () => {
      window.clearInterval(expiry);
      window.clearInterval(warning);
    };
  }, [token]);

  // While the dialog is open its countdown moves every second.
  const isOpen = left !== null;
  useEffect(() => {
    if (!isOpen) return;
    const tick = window.setInterval(() => {
      const remaining = secondsLeft(token);
      setLeft(remaining !== null && remaining > 0 ? remaining : 0);
    }, 1000);
    return () => window.clearInterval(tick);
  }, [isOpen, token]);

  const renew = useCallback(async () => {
    setRenewing(true);
    try {
      const response = await renewToken();
      replaceToken(response.data.token);
      setLeft(null);
      notifySuccess('Sesión renovada', 'Tu sesión se renovó correctamente.', SUCCESS_MS);
    } catch {
      isFailing.current = true;
      setLeft(null);
      notifyError('Error', 'No se pudo renovar la sesión. Serás redirigido al login.', ERROR_MS);
      window.setTimeout(() => {
        isFailing.current = false;
        clearSession('expired');
      }, ERROR_MS);
    } finally {
      setRenewing(false);
    }
  }, []);

  return (
    <Modal
      opened={isOpen}
      onClose={() => undefined}
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      title="Tu sesión está por expirar"
      size="sm"
    >
      <Stack gap="md">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <IconClockExclamation size={32} color="var(--mantine-color-yellow-7)" aria-hidden />
          <Text size="sm">
            Tu sesión expirará en <strong>{Math.max(left ?? 0, 0)} segundos</strong>. ¿Deseas renovarla para seguir
            trabajando?
          </Text>
        </Group>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => navigate(paths.logout)} disabled={isRenewing}>
            Cerrar sesión
          </Button>
          <Button onClick={renew} loading={isRenewing}>
            Renovar sesión
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
