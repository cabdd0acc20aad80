import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearSession } from '@/lib/session.ts';
import { startAgentSession } from '@/test/session.ts';
import CommandPalette from './command-palette.tsx';

/** What the API answers, by path: the agent's routes and flags, and one ticket search. */
function stubApi(routes: string[], tickets: { id: number; name: string }[]) {
  const calls: { path: string; body: unknown }[] = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const path = new URL(url, 'http://portal.test').pathname;
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ path, body });
    const answer = (data: unknown) =>
      new Response(JSON.stringify(data), { headers: { 'content-type': 'application/json' } });
    if (path === '/api/csrf-token') return answer({ token: 'csrf' });
    if (path === '/api/user-permissions') return answer({ status: true, routes });
    if (path === '/api/check-permission') {
      return answer({ status: true, message: 'ok', sections: [{ name: 'tickets_main', r: 1, w: 1, u: 1, d: 0 }] });
    }
    const data = tickets.map((t) => ({
      ...t,
      description: 'Descripción',
      priorities: { name: 'Alta' },
      status_tickets: { name: 'Abierto', stage: 'open' },
      projects: { name: 'Ruta Bajío' },
    }));
    return answer({ status: true, data, meta: { total: data.length, current_page: 1, last_page: 1, per_page: 8 } });
  });
  return calls;
}

function Location() {
  return <output aria-label="Ruta">{useLocation().pathname}</output>;
}

function Harness() {
  const [query, setQuery] = useState('');
  return <CommandPalette opened onClose={() => undefined} query={query} onQueryChange={setQuery} />;
}

function renderPalette() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <MantineProvider env="test">
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={['/tickets']}>
          <Routes>
            <Route path="*" element={<Location />} />
          </Routes>
          <Harness />
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

const search = () => screen.getByRole('textbox', { name: /Buscar pantallas y tickets/ });
const type = (text: string) => fireEvent.change(search(), { target: { value: text } });

beforeEach(() => {
  startAgentSession();
});

afterEach(() => {
  cleanup();
  clearSession();
  vi.unstubAllGlobals();
});

describe('CommandPalette', () => {
  it("offers the agent's screens only, 'Crear ticket' with the w flag, and its shortcuts", async () => {
    stubApi(['tickets', 'record-tickets'], []);
    renderPalette();
    const screens = await screen.findByRole('group', { name: 'Ir a' });
    // Perfil needs no permission; the rest arrive with /user-permissions.
    await within(screens).findByRole('button', { name: /^Historial/ });
    expect(
      within(screens)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Mis TicketsTickets', 'HistorialTickets', 'Perfil']);
    expect(await screen.findByRole('button', { name: /^Crear ticket/ })).toBeInTheDocument();
    const shortcuts = screen.getByRole('group', { name: 'Atajos de teclado' });
    expect(shortcuts).toHaveTextContent('Mis Tickets');
    expect(shortcuts).not.toHaveTextContent('Tickets Generales');
  });

  it('opens a ticket by its number', async () => {
    stubApi(['tickets'], []);
    renderPalette();
    type('#12');
    fireEvent.click(await screen.findByRole('button', { name: /^Abrir ticket #12/ }));
    expect(screen.getByRole('status', { name: 'Ruta' })).toHaveTextContent('/tickets/12');
  });

  it('searches Mis Tickets when the role lacks Tickets Generales, and opens a result', async () => {
    const calls = stubApi(['tickets'], [{ id: 5, name: 'Impresora atascada' }]);
    renderPalette();
    type('impresora');
    const result = await screen.findByRole('button', { name: /^#5 · Impresora atascada/ }, { timeout: 2000 });
    expect(result).toHaveTextContent('Abierto');
    expect(calls.find((c) => c.path === '/api/tickets')?.body).toMatchObject({ search: 'impresora', per_page: 8 });
    expect(calls.some((c) => c.path === '/api/general-tickets')).toBe(false);
    fireEvent.click(result);
    expect(screen.getByRole('status', { name: 'Ruta' })).toHaveTextContent('/tickets/5');
  });

  it("shows 'Sin resultados' when neither screens nor tickets match", async () => {
    stubApi(['tickets', 'general-tickets'], []);
    renderPalette();
    type('zzqx');
    expect(await screen.findByText('Sin resultados', undefined, { timeout: 2000 })).toBeInTheDocument();
  });
});
