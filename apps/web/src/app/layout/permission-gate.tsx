import { Alert, Center, Stack, Text, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useEffect, type ReactNode } from 'react';
import { PageLoader } from '@/components/ui/page-loader.tsx';
import { isApiError } from '@/lib/api-client.ts';
import { notifyWarning } from '@/lib/notify.ts';
import { checkPermissionQuery, SectionAccessContext, sectionAccess } from '@/lib/permissions.ts';
import { clearSession, useSession } from '@/lib/session.ts';

/**
 * Asks /check-permission for the route and renders the screen only with r,
 * giving it the section flags through `useSectionAccess()`.
 */
export default function PermissionGate({
  routeName,
  preload,
  children,
}: {
  routeName: string;
  /** Starts loading the screen's code alongside the permission check (a lazy import is loaded once). */
  preload?: () => Promise<unknown>;
  children: ReactNode;
}) {
  const session = useSession();
  useEffect(() => {
    void preload?.().catch(() => undefined);
  }, [preload]);
  const query = useQuery({ ...checkPermissionQuery(session!, routeName), enabled: session !== null });

  const error = query.error;
  useEffect(() => {
    if (!error) return;
    if (isApiError(error) && error.details.isSessionLost) return;
    if (isApiError(error) && error.details.exception === 'RouteNotFoundException') {
      notifyWarning('¡Perdimos la sesión!', 'Inicia sesión para continuar');
    }
    // Any other failure (network included) also ends at /login.
    clearSession();
  }, [error]);

  // The answer comes in a synchronous render (the query cache's subscription); the screen then
  // mounts in a deferred one, which React renders in slices instead of one long task.
  const sections = useDeferredValue(query.data?.sections);
  if (query.isPending || error || !sections) return <PageLoader />;
  const access = sectionAccess(sections);
  if (!access.canRead) return <NoAccess />;
  return <SectionAccessContext.Provider value={access}>{children}</SectionAccessContext.Provider>;
}

function NoAccess() {
  return (
    <Center mih={320}>
      <Stack align="center" gap="xs" maw={440}>
        <IconLock size={40} stroke={1.5} aria-hidden />
        <Title order={2} size="h3">
          Acceso denegado
        </Title>
        <Text c="dimmed" ta="center">
          Tu rol no tiene permiso para ver esta pantalla.
        </Text>
        <Alert color="gray" variant="light" mt="sm">
          Si lo necesitas, pide a un administrador que te lo asigne en Roles y Permisos.
        </Alert>
      </Stack>
    </Center>
  );
}
