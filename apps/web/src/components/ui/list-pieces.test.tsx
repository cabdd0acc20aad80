import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/test/render.tsx';
import { DataTable } from './data-table.tsx';
import { countLabel } from './list-pagination.tsx';
import { ticketStatusColor } from './status-badge.tsx';

const columns = [{ header: 'Nombre', render: (r: { name: string }) => r.name }];

describe('DataTable', () => {
  it('shows only the error notice when the list failed to load, not the empty illustration too', () => {
    renderWithProviders(
      <DataTable
        columns={columns}
        rows={[]}
        rowKey={(r) => r.name}
        isLoading={false}
        minWidth={300}
        error={new Error('Sin conexión')}
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Sin conexión');
    expect(screen.queryByText('Sin resultados por ahora')).not.toBeInTheDocument();
  });

  it('shows the empty state when the list loaded and is empty', () => {
    renderWithProviders(
      <DataTable columns={columns} rows={[]} rowKey={(r) => r.name} isLoading={false} minWidth={300} />,
    );
    expect(screen.getByText('Sin resultados por ahora')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('keeps the same rows, links and all, while it refreshes, and says it is busy', () => {
    const linked = [{ header: 'Nombre', render: (r: { name: string }) => <a href={`/r/${r.name}`}>{r.name}</a> }];
    const table = (isRefreshing: boolean) => (
      <DataTable
        columns={linked}
        rows={[{ name: 'Rampa' }]}
        rowKey={(r) => r.name}
        isLoading={false}
        isRefreshing={isRefreshing}
        minWidth={300}
        label="Lista"
      />
    );
    const { rerender } = render(table(false), {
      wrapper: ({ children }) => <MantineProvider>{children}</MantineProvider>,
    });
    const link = screen.getByRole('link', { name: 'Rampa' });
    rerender(table(true));
    expect(screen.getByRole('link', { name: 'Rampa' })).toBe(link);
    expect(screen.getByRole('table', { name: 'Lista' })).toHaveAttribute('aria-busy', 'true');
    expect(screen.queryByTestId('skeleton-row')).not.toBeInTheDocument();
  });
});

describe('countLabel', () => {
  it('says one ticket in the singular and several in the plural', () => {
    expect(countLabel(1, 7, 1, 'tickets')).toBe('Mostrando 1–1 de 1 ticket');
    expect(countLabel(2, 7, 9, 'tickets')).toBe('Mostrando 8–9 de 9 tickets');
    expect(countLabel(1, 7, 1, 'registros')).toBe('Mostrando 1–1 de 1 registro');
    expect(countLabel(1, 7, 0, 'tickets')).toBe('Sin tickets');
    expect(countLabel(1, 7, 1, 'usuarios activos', 'usuario activo')).toBe('Mostrando 1–1 de 1 usuario activo');
  });
});

describe('ticketStatusColor', () => {
  it('gives a cancelled ticket a colour of its own, apart from a resolved one', () => {
    expect(ticketStatusColor('Resuelto', 'closed')).toBe('teal');
    expect(ticketStatusColor('Cerrado', 'closed')).toBe('teal');
    expect(ticketStatusColor('Cancelado', 'closed')).not.toBe(ticketStatusColor('Resuelto', 'closed'));
    expect(ticketStatusColor('Rechazado', 'closed')).toBe(ticketStatusColor('Cancelado', 'closed'));
    expect(ticketStatusColor('Abierto', 'open')).toBe('blue');
    expect(ticketStatusColor('En progreso', 'started')).toBe('yellow');
  });
});
