import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client.ts';
import { clearSession, startSession } from '@/lib/session.ts';
import { renderWithProviders } from '@/test/render.tsx';
import LoginPage, { loginFailureText } from './login-page.tsx';

describe('login page', () => {
  it('shows the texts and the current year in the footer', () => {
    renderWithProviders(<LoginPage />);
    expect(screen.getByRole('heading', { name: 'Portal de tickets' })).toBeInTheDocument();
    expect(screen.getByText('Ingresa tus credenciales')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Iniciar Sesión' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '¿Olvidaste tu contraseña?' })).toHaveAttribute('href', '/forgot-password');
    expect(screen.getByText(new RegExp(`© ${new Date().getFullYear()}`))).toBeInTheDocument();
  });

  it('strips quotes and disallowed characters from both fields (textWithSymbols)', () => {
    renderWithProviders(<LoginPage />);
    const username = screen.getByLabelText(/Usuario/);
    fireEvent.change(username, { target: { value: `adm'in"~` } });
    expect(username).toHaveValue('admin');
    const password = screen.getByLabelText(/Contraseña/, { selector: 'input' });
    fireEvent.change(password, { target: { value: 'Clave`#1’' } });
    expect(password).toHaveValue('Clave#1');
  });

  it('marks both fields required when sent empty', () => {
    renderWithProviders(<LoginPage />);
    fireEvent.click(screen.getByRole('button', { name: 'Iniciar Sesión' }));
    expect(screen.getAllByText('Este campo es obligatorio.')).toHaveLength(2);
  });

  it('words failures in Spanish, as the screens show them', () => {
    expect(loginFailureText(new ApiError('Usuario o contraseña incorrectos.', 401))).toBe(
      'Usuario o contraseña incorrectos.',
    );
    expect(
      loginFailureText(new ApiError('Error de validación', 422, { errors: { username: ['A'], password: ['B'] } })),
    ).toBe('A\nB');
    expect(loginFailureText(new ApiError('x', 500, { isNetworkError: true }))).toBe(
      'No se pudo conectar con el servidor.',
    );
    expect(loginFailureText(new Error('boom'))).toBe('Ocurrió un error inesperado.');
    expect(loginFailureText('???')).toBe('Error desconocido.');
  });

  it("says 'Tu sesión expiró' once after the session ended on its own, and nothing after a sign-out", () => {
    const user = {
      id: 1,
      name: 'Ana',
      last_name: 'Admin',
      second_last_name: null,
      username: 'admin',
      email: 'a@b.mx',
      role_id: 1,
    };
    startSession('x.eyJleHAiOjF9.y', user as never);
    clearSession('expired');
    const { unmount } = renderWithProviders(<LoginPage />);
    expect(screen.getByText('Tu sesión expiró')).toBeInTheDocument();
    unmount();
    renderWithProviders(<LoginPage />);
    expect(screen.queryByText('Tu sesión expiró')).not.toBeInTheDocument();
  });

  it('says nothing about expiry after a sign-out', () => {
    const user = {
      id: 1,
      name: 'Ana',
      last_name: 'Admin',
      second_last_name: null,
      username: 'admin',
      email: 'a@b.mx',
      role_id: 1,
    };
    startSession('x.eyJleHAiOjF9.y', user as never);
    clearSession();
    renderWithProviders(<LoginPage />);
    expect(screen.queryByText('Tu sesión expiró')).not.toBeInTheDocument();
  });
});
