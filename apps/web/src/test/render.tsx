import { MantineProvider } from '@mantine/core';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { theme } from '@/app/theme.ts';

export function renderWithProviders(ui: ReactNode, { path = '/' }: { path?: string } = {}) {
  return render(
    <MantineProvider theme={theme}>
      <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
    </MantineProvider>,
  );
}
