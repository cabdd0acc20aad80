import { Alert, Box, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import classes from './auth-frame.module.css';
import { LogoMark } from './logo.tsx';

/** The card of the public screens (/login and password recovery): logo, title, subtitle, footer. */
export function AuthFrame({
  title,
  description,
  logoSize = 48,
  maxWidth = 440,
  children,
}: {
  title: string;
  description: ReactNode;
  logoSize?: number;
  maxWidth?: number;
  children: ReactNode;
}) {
  return (
    <Box mih="100dvh" className={classes.frame}>
      <Center component="main" style={{ flex: 1 }} p="md">
        <Paper withBorder shadow="md" radius="lg" p={{ base: 'lg', sm: 36 }} w="100%" maw={maxWidth}>
          <Stack gap="md">
            <Stack align="center" gap={6} mb="xs">
              <LogoMark size={logoSize} />
              <Title order={1} size="h2" ta="center" mt="xs">
                {title}
              </Title>
              <Text c="dimmed" size="sm" ta="center">
                {description}
              </Text>
            </Stack>
            {children}
          </Stack>
        </Paper>
      </Center>
      <Text component="footer" size="xs" c="dimmed" ta="center" pb="md">
        © {new Date().getFullYear()} Portal de tickets. Todos los derechos reservados.
      </Text>
    </Box>
  );
}

/** A red alert with a title and a text that may span several lines (joined server errors). */
export function ProblemAlert({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Alert color="red" variant="light" title={title} icon={<IconAlertCircle />} role="alert">
      <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
        {children}
      </Text>
    </Alert>
  );
}
