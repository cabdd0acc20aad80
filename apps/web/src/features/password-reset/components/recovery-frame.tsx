import { Alert, Box, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { PASSWORD_RESET_MSG } from '@portal/contract';
import { IconAlertCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { LogoMark } from '@/components/ui/logo.tsx';
import { errorText, isApiError } from '@/lib/api-client.ts';

/** SPEC §8: the server's message, a network failure's own text, else the screen's fallback. */
export function recoveryErrorText(error: unknown, fallback: string): string {
  if (isApiError(error) && error.details.isNetworkError) return PASSWORD_RESET_MSG.connectionFailed;
  return errorText(error, fallback);
}

export function RecoveryProblem({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Alert color="red" variant="light" title={title} icon={<IconAlertCircle />} role="alert">
      <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
        {children}
      </Text>
    </Alert>
  );
}

/** The card the three recovery screens share, in the look of /login. */
export function RecoveryFrame({
  title,
  description,
  children,
}: {
  title: string;
  description: ReactNode;
  children: ReactNode;
}) {
  return (
    <Box
      mih="100dvh"
      style={{
        display: 'flex',
        flexDirection: 'column',
        background:
          'linear-gradient(160deg, var(--mantine-color-brand-0) 0%, var(--mantine-color-gray-0) 45%, var(--mantine-color-gray-1) 100%)',
      }}
    >
      <Center component="main" style={{ flex: 1 }} p="md">
        <Paper withBorder shadow="md" radius="lg" p={{ base: 'lg', sm: 36 }} w="100%" maw={440}>
          <Stack gap="md">
            <Stack align="center" gap={6} mb="xs">
              <LogoMark size={48} />
              <Title order={1} size="h2" ta="center" mt="xs">
                {title}
              </Title>
              <Text c="gray.7" size="sm" ta="center">
                {description}
              </Text>
            </Stack>
            {children}
          </Stack>
        </Paper>
      </Center>
      <Text component="footer" size="xs" c="gray.7" ta="center" pb="md">
        © {new Date().getFullYear()} Portal de tickets. Todos los derechos reservados.
      </Text>
    </Box>
  );
}
