import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from './helper.ts';

describe.each(dialects)('group members on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let supervisor: string;
  let agent: string;
  let groupId: number;
  let otherGroupId: number;
  const userId = async (username: string) =>
    (
      await t.services.database.db
        .selectFrom('users')
        .select('id')
        .where('username', '=', username)
        .executeTakeFirstOrThrow()
    ).id;
  const members = async (id = groupId) =>
    ((await t.call(admin, 'GET', `/api/groups/${id}/members`)).json() as { data: { user_id: number; role: string }[] })
      .data;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    [admin, supervisor, agent] = await Promise.all([t.login('admin'), t.login('supervisor'), t.login('agente')]);
    const create = async (name: string) =>
      ((await t.call(admin, 'POST', '/api/groups/create', { name })).json() as { data: { id: number } }).data.id;
    groupId = await create('Almacén Central');
    otherGroupId = await create('Flota Refrigerada');
  });
  afterAll(() => t?.close());

  it('adds members and leads, lists leads first, and a user may belong to several groups', async () => {
    const [agente, lucia] = [await userId('agente'), await userId('lmartinez')];
    const added = await t.call(admin, 'POST', `/api/groups/${groupId}/members`, { user_id: agente });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toMatchObject({
      status: true,
      message: 'Miembro agregado.',
      data: { user_id: agente, role: 'member', name: 'Diego Hernández', username: 'agente', status_id: 1 },
    });
    expect(
      (await t.call(admin, 'POST', `/api/groups/${groupId}/members`, { user_id: String(lucia), role: 'lead' }))
        .statusCode,
    ).toBe(201);
    expect((await t.call(admin, 'POST', `/api/groups/${otherGroupId}/members`, { user_id: agente })).statusCode).toBe(
      201,
    );
    expect(await members()).toEqual([
      expect.objectContaining({ user_id: lucia, role: 'lead' }),
      expect.objectContaining({ user_id: agente, role: 'member' }),
    ]);
    // The user's profile shows every group they belong to.
    const profile = await t.call(agent, 'GET', `/api/users/laboral-information/${agente}`);
    expect(profile.json().groups).toEqual([
      { id: groupId, name: 'Almacén Central', role: 'member' },
      { id: otherGroupId, name: 'Flota Refrigerada', role: 'member' },
    ]);
  });

  it('changes the role of a member added again (200), and removes a member', async () => {
    const agente = await userId('agente');
    const again = await t.call(admin, 'POST', `/api/groups/${groupId}/members`, { user_id: agente, role: 'lead' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ message: 'Rol del miembro actualizado.', data: { role: 'lead' } });
    const removed = await t.call(admin, 'DELETE', `/api/groups/${otherGroupId}/members/${agente}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual({ status: true, message: 'Miembro eliminado.' });
    expect(await members(otherGroupId)).toEqual([]);
    const twice = await t.call(admin, 'DELETE', `/api/groups/${otherGroupId}/members/${agente}`);
    expect(twice.statusCode).toBe(404);
    expect(twice.json().message).toBe('El usuario no es miembro del grupo.');
  });

  it('audits each change of members', async () => {
    const { rows } = await t.services.database.db
      .selectFrom('audit_log')
      .select('event')
      .where('event', 'like', 'group.member%')
      .orderBy('id')
      .execute()
      .then((rows) => ({ rows }));
    expect(rows.map((r) => r.event)).toEqual([
      'group.member_added',
      'group.member_added',
      'group.member_added',
      'group.member_updated',
      'group.member_removed',
    ]);
  });

  it('refuses bad input with a Spanish 422 and changes nothing', async () => {
    const before = await members();
    const cases: [unknown, string, string][] = [
      [{ user_id: 999_999 }, 'user_id', 'El usuario no existe o está inactivo.'],
      [{ user_id: 'x' }, 'user_id', 'Debe ser un identificador válido.'],
      [{ user_id: await userId('jcastillo'), role: 'jefe' }, 'role', 'El rol debe ser member o lead.'],
    ];
    for (const [body, field, message] of cases) {
      const res = await t.call(admin, 'POST', `/api/groups/${groupId}/members`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().errors[field]).toContain(message);
    }
    // An inactive user cannot be added.
    const mariana = await userId('mflores');
    await t.call(admin, 'PATCH', `/api/users/${mariana}/change-status`, { status_id: 2 });
    const inactive = await t.call(admin, 'POST', `/api/groups/${groupId}/members`, { user_id: mariana });
    expect(inactive.statusCode).toBe(422);
    expect(await members()).toEqual(before);
    // An unknown group is a 404.
    expect((await t.call(admin, 'GET', '/api/groups/999999/members')).statusCode).toBe(404);
    expect((await t.call(admin, 'POST', '/api/groups/999999/members', { user_id: 1 })).statusCode).toBe(404);
  });

  it('needs r on gr_main to list, w to add and d to remove members', async () => {
    const jorge = await userId('jcastillo');
    // The supervisor reads the groups (r) but may not change their members.
    expect((await t.call(supervisor, 'GET', `/api/groups/${groupId}/members`)).statusCode).toBe(200);
    const add = await t.call(supervisor, 'POST', `/api/groups/${groupId}/members`, { user_id: jorge });
    expect(add.statusCode).toBe(403);
    const agente = await userId('agente');
    expect((await t.call(supervisor, 'DELETE', `/api/groups/${groupId}/members/${agente}`)).statusCode).toBe(403);
    // The agent has no access to the groups at all.
    expect((await t.call(agent, 'GET', `/api/groups/${groupId}/members`)).statusCode).toBe(403);
    expect((await t.call(agent, 'POST', `/api/groups/${groupId}/members`, { user_id: jorge })).statusCode).toBe(403);
    expect((await t.call(null, 'GET', `/api/groups/${groupId}/members`)).statusCode).toBe(401);
    // An agent sees their own groups on their profile, not another user's.
    expect((await t.call(agent, 'GET', `/api/users/laboral-information/${jorge}`)).statusCode).toBe(403);
    expect((await members()).map((m) => m.user_id)).not.toContain(jorge);
  });

  it('a role granted w on gr_main may add members', async () => {
    const db = t.services.database.db;
    const section = await db
      .selectFrom('sections')
      .select(['id', 'route_id'])
      .where('name', '=', 'gr_main')
      .executeTakeFirstOrThrow();
    const route = await t.call(admin, 'POST', '/api/routes-permission/create', {
      route_id: section.route_id,
      role_id: 3,
    });
    expect(route.statusCode, route.body).toBe(201);
    const grant = await t.call(admin, 'POST', '/api/sections-permission/create', {
      section_id: section.id,
      role_id: 3,
      r: 1,
      w: 1,
    });
    expect(grant.statusCode, grant.body).toBe(201);
    const jorge = await userId('jcastillo');
    const res = await t.call(agent, 'POST', `/api/groups/${groupId}/members`, { user_id: jorge });
    expect(res.statusCode, res.body).toBe(201);
    expect((await t.call(agent, 'DELETE', `/api/groups/${groupId}/members/${jorge}`)).statusCode).toBe(403);
  });
});
