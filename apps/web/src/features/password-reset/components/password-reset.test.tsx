import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter, Route, Routes } from 'react-router';
import { theme } from '@/app/theme.ts';
import { paths } from '@/config/paths.ts';
import ConfirmCodePage from './confirm-code-page.tsx';
import ForgotPasswordPage from './forgot-password-page.tsx';
import ResetPasswordPage from './reset-password-page.tsx';

function renderAt(path: string) {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  return render(
    <MantineProvider theme={theme}>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path={paths.forgotPassword} element={<ForgotPasswordPage />} />
            <Route path={paths.confirmCode} element={<ConfirmCodePage />} />
            <Route path={paths.resetPassword} element={<ResetPasswordPage />} />
            <Route path={paths.login} element={<p>pantalla de login</p>} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

/** Answers each API call in turn and records what was sent. */
function stubApi(...answers: { status: number; body: unknown }[]) {
  const calls: { url: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, body: JSON.parse(String(init.body)) });
      const answer = answers.shift() ?? { status: 500, body: { status: false, message: 'sin respuesta' } };
      return new Response(JSON.stringify(answer.body), {
        status: answer.status,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return calls;
}

const boxes = () => screen.getAllByRole('textbox', { name: /Dígito \d de 6/ });
const confirmButton = () => screen.getByRole('button', { name: 'Confirmar' });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('/confirm-code', () => {
  it('sends the browser to /forgot-password without a stored reset e-mail', async () => {
    renderAt(paths.confirmCode);
    expect(await screen.findByRole('heading', { name: '¿Olvidaste tu contraseña?' })).toBeInTheDocument();
  });

  it('has six one-digit boxes that take digits only, and confirms only with six', async () => {
    localStorage.setItem('reset_email', 'agente@portal.local');
    const user = userEvent.setup();
    renderAt(paths.confirmCode);
    expect(boxes()).toHaveLength(6);
    expect(confirmButton()).toBeDisabled();

    await user.click(boxes()[0]!);
    await user.keyboard('1a2b3');
    expect(boxes().map((b) => b.getAttribute('value'))).toEqual(['1', '2', '3', '', '', '']);
    expect(boxes()[3]).toHaveFocus();
    expect(confirmButton()).toBeDisabled();
    await user.keyboard('456');
    expect(confirmButton()).toBeEnabled();
  });

  it('fills every box from a paste, keeping only its digits', async () => {
    localStorage.setItem('reset_email', 'agente@portal.local');
    renderAt(paths.confirmCode);
    fireEvent.paste(boxes()[2]!, { clipboardData: { getData: () => 'Tu código: 654 321' } });
    await waitFor(() =>
      expect(
        boxes()
          .map((b) => b.getAttribute('value'))
          .join(''),
      ).toBe('654321'),
    );
    expect(boxes()[5]).toHaveFocus();
    expect(confirmButton()).toBeEnabled();
  });

  it('moves with the arrow keys and steps back with backspace', async () => {
    localStorage.setItem('reset_email', 'agente@portal.local');
    const user = userEvent.setup();
    renderAt(paths.confirmCode);
    await user.click(boxes()[0]!);
    await user.keyboard('123');
    expect(boxes()[3]).toHaveFocus();
    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(boxes()[1]).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(boxes()[2]).toHaveFocus();
    await user.keyboard('{ArrowRight}{Backspace}');
    expect(boxes()[2]).toHaveFocus();
    await user.keyboard('{Backspace}');
    expect(boxes()[2]).toHaveValue('');
    expect(boxes()[1]).toHaveFocus();
  });

  it('shows the server message on a wrong code and empties the boxes', async () => {
    localStorage.setItem('reset_email', 'agente@portal.local');
    const calls = stubApi({
      status: 400,
      body: { status: false, message: 'El código ingresado es incorrecto o ha expirado.' },
    });
    const user = userEvent.setup();
    renderAt(paths.confirmCode);
    await user.click(boxes()[0]!);
    await user.keyboard('000000');
    await user.click(confirmButton());
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Código inválido');
    expect(alert).toHaveTextContent('El código ingresado es incorrecto o ha expirado.');
    expect(calls).toEqual([
      { url: '/api/password/verify-reset-code', body: { email: 'agente@portal.local', token: '000000' } },
    ]);
    expect(
      boxes()
        .map((b) => b.getAttribute('value'))
        .join(''),
    ).toBe('');
  });

  it('stores the reset token and goes on to /reset-password', async () => {
    localStorage.setItem('reset_email', 'agente@portal.local');
    stubApi({ status: 200, body: { status: true, message: 'Código verificado.', reset_token: 'token-de-prueba' } });
    const user = userEvent.setup();
    renderAt(paths.confirmCode);
    await user.click(boxes()[0]!);
    await user.keyboard('123456{Enter}');
    expect(await screen.findByRole('heading', { name: 'Crea tu nueva contraseña' })).toBeInTheDocument();
    expect(localStorage.getItem('reset_token')).toBe('token-de-prueba');
  });
});

describe('/forgot-password', () => {
  it('checks the e-mail, stores it and moves on to /confirm-code', async () => {
    const calls = stubApi({ status: 200, body: { status: true, message: 'Si el correo está registrado…' } });
    const user = userEvent.setup();
    renderAt(paths.forgotPassword);
    await user.click(screen.getByRole('button', { name: 'Enviar código' }));
    expect(screen.getByText('Este campo es obligatorio.')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/Correo electrónico/), 'agente@portal');
    expect(screen.getByText('El formato del correo es inválido')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/Correo electrónico/), '.local');
    await user.click(screen.getByRole('button', { name: 'Enviar código' }));
    expect(await screen.findByRole('heading', { name: 'Ingresa el código' })).toBeInTheDocument();
    expect(localStorage.getItem('reset_email')).toBe('agente@portal.local');
    expect(calls[0]).toEqual({ url: '/api/password/send-reset-code', body: { email: 'agente@portal.local' } });
  });

  it('shows the fallback text when the server gives no message, and the connection text offline', async () => {
    const user = userEvent.setup();
    stubApi({ status: 502, body: {} });
    renderAt(paths.forgotPassword);
    await user.type(screen.getByLabelText(/Correo electrónico/), 'agente@portal.local');
    await user.click(screen.getByRole('button', { name: 'Enviar código' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Error 502');

    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    await user.click(screen.getByRole('button', { name: 'Enviar código' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('No se pudo conectar con el servidor'));
  });
});

describe('/reset-password', () => {
  it('sends the browser to /forgot-password without a stored reset token', async () => {
    localStorage.setItem('reset_email', 'agente@portal.local');
    renderAt(paths.resetPassword);
    expect(await screen.findByRole('heading', { name: '¿Olvidaste tu contraseña?' })).toBeInTheDocument();
  });

  it('checks length and match, then clears the stored e-mail and token and goes to /login', async () => {
    localStorage.setItem('reset_email', 'agente@portal.local');
    localStorage.setItem('reset_token', 'token-de-prueba');
    const calls = stubApi({ status: 200, body: { status: true, message: 'Tu contraseña fue restablecida.' } });
    const user = userEvent.setup();
    renderAt(paths.resetPassword);
    await user.type(screen.getByLabelText(/^Nueva contraseña/), 'corta');
    expect(screen.getByText('La contraseña debe tener al menos 8 caracteres.')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^Nueva contraseña/), 'Larga2025');
    await user.type(screen.getByLabelText(/^Confirmar contraseña/), 'otra-cosa');
    expect(screen.getByText('Las contraseñas no coinciden')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Restablecer contraseña' }));
    expect(calls).toHaveLength(0);

    await user.clear(screen.getByLabelText(/^Confirmar contraseña/));
    await user.type(screen.getByLabelText(/^Confirmar contraseña/), 'cortaLarga2025');
    await user.click(screen.getByRole('button', { name: 'Restablecer contraseña' }));
    expect(await screen.findByText('pantalla de login')).toBeInTheDocument();
    expect(calls[0]!.body).toEqual({
      email: 'agente@portal.local',
      reset_token: 'token-de-prueba',
      password: 'cortaLarga2025',
      password_confirmation: 'cortaLarga2025',
    });
    expect(localStorage.getItem('reset_email')).toBeNull();
    expect(localStorage.getItem('reset_token')).toBeNull();
  });
});
