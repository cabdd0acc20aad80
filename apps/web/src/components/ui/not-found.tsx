import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { LostIllustration } from './illustrations.tsx';

/** Unknown paths show this page (never a data screen without a session). */
export function NotFound({
  backTo,
  backLabel,
  headingOrder = 1,
}: {
  backTo: string;
  backLabel: string;
  /** 2 inside the layout, whose top bar holds the page's h1. */
  headingOrder?: 1 | 2;
}) {
  return (
    <Center mih={420} p="md">
      <Stack align="center" gap="sm" maw={460}>
        <LostIllustration />
        <Text c="dimmed" fw={600} size="sm">
          Error 404
        </Text>
        <Title order={headingOrder} size="h2" ta="center">
          Página no encontrada
        </Title>
        <Text c="dimmed" ta="center">
          La dirección que buscas no existe o fue movida.
        </Text>
        <Button component={Link} to={backTo} mt="sm">
          {backLabel}
        </Button>
      </Stack>
    </Center>
  );
}
