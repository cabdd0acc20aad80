import { Center, Loader } from '@mantine/core';

export function PageLoader({ fullScreen = false }: { fullScreen?: boolean }) {
  return (
    <Center h={fullScreen ? '100dvh' : 240} role="status" aria-live="polite">
      <Loader size="md" aria-label="Cargando" />
    </Center>
  );
}
