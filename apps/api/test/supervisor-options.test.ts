import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from './helper.ts';

interface Row {
  id: number;
  role_id: number;
  status_id: number;
  is_supervisor?: number;
}

/** The Supervisor select of the user form offers only users of a privileged role. */
describe.each(dialects)('GET /api/users/active-records?privileged=1 on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = await t.login('admin');
  });
  afterAll(() => t?.close());

  const ids = (res: { json(): { data: { id: number }[] } }) =>
    res
      .json()
      .data.map((o) => o.id)
      .sort((a, b) => a - b);

  it('lists the active users whose role is privileged, and only them', async () => {
    const users = (await t.call(admin, 'POST', '/api/users', { page: 1, per_page: 100, search: '' })).json()
      .data as Row[];
    const roles = (await t.call(admin, 'POST', '/api/roles', { page: 1, per_page: 100, search: '' })).json()
      .data as Row[];
    const privilegedRoles = new Set(roles.filter((r) => r.is_supervisor === 1 && r.status_id === 1).map((r) => r.id));
    const expected = users
      .filter((u) => u.status_id === 1 && privilegedRoles.has(u.role_id))
      .map((u) => u.id)
      .sort((a, b) => a - b);
    expect(expected.length).toBeGreaterThan(0);

    const privileged = await t.call(admin, 'GET', '/api/users/active-records?privileged=1');
    expect(privileged.statusCode, privileged.body).toBe(200);
    expect(ids(privileged)).toEqual(expected);

    const everyone = await t.call(admin, 'GET', '/api/users/active-records');
    expect(ids(everyone).length).toBeGreaterThan(expected.length);
    const off = await t.call(admin, 'GET', '/api/users/active-records?privileged=0');
    expect(ids(off)).toEqual(ids(everyone));
  });

  it('refuses a bad value with a Spanish 422, and anyone without a session with 401', async () => {
    const bad = await t.call(admin, 'GET', '/api/users/active-records?privileged=si');
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ status: false, message: 'Error de validación' });
    const anonymous = await t.call(null, 'GET', '/api/users/active-records?privileged=1');
    expect(anonymous.statusCode).toBe(401);
  });
});
