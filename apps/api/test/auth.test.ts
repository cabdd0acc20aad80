import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from './helper.ts';

describe.each(dialects)('authentication on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t?.close());

  it('signs in with the documented response shape and never returns the password', async () => {
    const res = await t.call(null, 'POST', '/api/login', { username: 'admin', password: 'PortalAdmin1' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ status: true, message: 'Inicio de sesión exitoso.' });
    expect(body.data.user).toMatchObject({ id: 1, role_id: 1, username: 'admin', role: { name: 'Administrador' } });
    expect(typeof body.data.token).toBe('string');
    expect(res.body).not.toMatch(/password|argon2/);
    const [, payload] = body.data.token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    expect(Object.keys(claims).sort()).toEqual(['exp', 'iat', 'jti', 'sub']);
    expect(claims.exp - claims.iat).toBeGreaterThan(60 * 60 - 1);
    expect(claims.exp - claims.iat).toBeLessThanOrEqual(60 * 60);
  });

  it('refuses a wrong password or an unknown user with the same Spanish 401', async () => {
    const wrong = await t.call(null, 'POST', '/api/login', { username: 'admin', password: 'nope-nope' });
    const unknown = await t.call(null, 'POST', '/api/login', { username: 'nadie', password: 'nope-nope' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ status: false, message: 'Usuario o contraseña incorrectos.' });
    expect(unknown.json()).toEqual(wrong.json());
  });

  it('answers 422 with Spanish field errors for missing credentials', async () => {
    const res = await t.call(null, 'POST', '/api/login', { username: '' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ status: false, message: 'Error de validación' });
    expect(res.json().errors.username[0]).toBe('Este campo es obligatorio.');
    expect(res.json().errors.password[0]).toMatch(/[a-záéíóú]/i);
  });

  it('writes every authentication success and failure to the audit log', async () => {
    await t.call(null, 'POST', '/api/login', { username: 'agente', password: 'bad-password' });
    await t.login('agente');
    const events = await t.services.database.db
      .selectFrom('audit_log')
      .select(['event', 'username'])
      .where('username', '=', 'agente')
      .execute();
    expect(events.map((e) => e.event)).toEqual(expect.arrayContaining(['login.failure', 'login.success']));
  });

  it('refuses requests without a token, with a forged or unsigned token, and with an expired token', async () => {
    const token = await t.login('admin');
    const [header, payload] = token.split('.');
    const forged = `${header}.${payload}.${'A'.repeat(43)}`;
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    const key = new TextEncoder().encode(t.config.jwtSecret);
    const expired = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('1')
      .setJti('expired-token')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(key);
    const otherKey = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('1')
      .setJti('other-key')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-another-secret-another-secret'));
    for (const bad of [null, forged, none, expired, otherKey, 'garbage']) {
      const res = await t.call(bad, 'POST', '/api/areas', {});
      expect(res.statusCode, String(bad)).toBe(401);
      expect(res.json().status).toBe(false);
      expect(res.json().message).toMatch(/sesión/i);
    }
    expect((await t.call(token, 'POST', '/api/areas', {})).statusCode).toBe(200);
  });

  it('logout revokes that token only', async () => {
    const first = await t.login('supervisor');
    const second = await t.login('supervisor');
    const out = await t.call(first, 'POST', '/api/logout');
    expect(out.statusCode).toBe(200);
    expect((await t.call(first, 'POST', '/api/user-permissions', {})).statusCode).toBe(401);
    expect((await t.call(second, 'POST', '/api/user-permissions', {})).statusCode).toBe(200);
  });

  it('renew-token returns a fresh token and revokes the old one', async () => {
    const old = await t.login('agente');
    const res = await t.call(old, 'POST', '/api/renew-token');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: true, message: 'Sesión renovada.' });
    const fresh = res.json().data.token;
    expect(fresh).not.toBe(old);
    expect((await t.call(old, 'POST', '/api/user-permissions', {})).statusCode).toBe(401);
    expect((await t.call(fresh, 'POST', '/api/user-permissions', {})).statusCode).toBe(200);
  });

  it('refuses the tokens of a user once deactivated', async () => {
    const admin = await t.login('admin');
    const token = await t.login('mflores');
    const user = await t.services.database.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'mflores')
      .executeTakeFirstOrThrow();
    expect((await t.call(admin, 'PATCH', `/api/users/${user.id}/change-status`, { status_id: 2 })).statusCode).toBe(
      200,
    );
    expect((await t.call(token, 'POST', '/api/user-permissions', {})).statusCode).toBe(401);
    const relogin = await t.call(null, 'POST', '/api/login', { username: 'mflores', password: 'PortalDemo1' });
    expect(relogin.statusCode).toBe(401);
    expect((await t.call(admin, 'PATCH', `/api/users/${user.id}/change-status`, { status_id: 1 })).statusCode).toBe(
      200,
    );
    expect((await t.call(token, 'POST', '/api/user-permissions', {})).statusCode).toBe(401);
  });
});
