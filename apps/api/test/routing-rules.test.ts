import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, ticketBody, type TestApp } from './helper.ts';

/** Reglas de asignación: the first active matching rule gives a new ticket its group. */
describe.each(dialects)('routing rules on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let supervisor: string;
  let agent: string;
  const group: Record<string, number> = {};
  const rule: Record<string, number> = {};

  const createGroup = async (name: string) =>
    ((await t.call(admin, 'POST', '/api/groups/create', { name })).json() as { data: { id: number } }).data.id;
  const createRule = async (body: object) => {
    const res = await t.call(admin, 'POST', '/api/routing-rules/create', body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: number; position: number };
  };
  const order = async () =>
    (
      (await t.call(admin, 'POST', '/api/routing-rules', { page: 1, per_page: 50 })).json() as {
        data: { id: number; position: number }[];
      }
    ).data.map((r) => r.id);
  const groupOfNew = async (values: Partial<ReturnType<typeof ticketBody>> & { group_id?: number | null } = {}) => {
    const res = await t.call(supervisor, 'POST', '/api/tickets/create', {
      ...ticketBody('Ruteo', 'Prueba'),
      ...values,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.group_id as number | null;
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    [admin, supervisor, agent] = await Promise.all([t.login('admin'), t.login('supervisor'), t.login('agente')]);
    group.almacen = await createGroup('Almacén');
    group.flota = await createGroup('Flota Refrigerada');
    group.cerrado = await createGroup('Turno Cerrado');
  });
  afterAll(() => t?.close());

  it('leaves a ticket without a group when no rule matches', async () => {
    expect(await groupOfNew()).toBeNull();
  });

  it('sends a new ticket to the group of the first matching rule, in their order; empty conditions match any', async () => {
    rule.urgentFlota = (
      await createRule({ name: 'Urgentes de flota', priority_type_id: 4, project_id: 4, group_id: group.flota })
    ).id;
    rule.area2 = (await createRule({ name: 'Transporte', area_id: 2, group_id: group.almacen })).id;
    rule.any = (await createRule({ name: 'Todo lo demás', group_id: group.almacen })).id;
    expect(await order()).toEqual([rule.urgentFlota, rule.area2, rule.any]);
    expect(await groupOfNew({ priority_type_id: 4, project_id: 4 })).toBe(group.flota);
    expect(await groupOfNew({ priority_type_id: 4, project_id: 1 })).toBe(group.almacen);
    // An explicit group wins over the rules.
    expect(await groupOfNew({ priority_type_id: 4, project_id: 4, group_id: group.almacen })).toBe(group.almacen);
  });

  it('follows a new order: a rule moved first is tried first', async () => {
    const moved = await t.call(admin, 'PATCH', `/api/routing-rules/${rule.any}/move`, { position: 1 });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().data.position).toBe(1);
    expect(await order()).toEqual([rule.any, rule.urgentFlota, rule.area2]);
    expect(await groupOfNew({ priority_type_id: 4, project_id: 4 })).toBe(group.almacen);
    // Past the end: last.
    await t.call(admin, 'PATCH', `/api/routing-rules/${rule.any}/move`, { position: 99 });
    expect(await order()).toEqual([rule.urgentFlota, rule.area2, rule.any]);
    const positions = (
      (await t.call(admin, 'POST', '/api/routing-rules', { page: 1, per_page: 50 })).json() as {
        data: { position: number }[];
      }
    ).data.map((r) => r.position);
    expect(positions).toEqual([1, 2, 3]);
  });

  it('skips an inactive rule, and a rule whose group was deactivated since', async () => {
    await t.call(admin, 'PATCH', `/api/routing-rules/${rule.urgentFlota}/change-status`, { status_id: 2 });
    expect(await groupOfNew({ priority_type_id: 4, project_id: 4 })).toBe(group.almacen);
    await t.call(admin, 'PATCH', `/api/routing-rules/${rule.urgentFlota}/change-status`, { status_id: 1 });
    expect(await groupOfNew({ priority_type_id: 4, project_id: 4 })).toBe(group.flota);
    await t.call(admin, 'PATCH', `/api/groups/${group.flota}/change-status`, { status_id: 2 });
    expect(await groupOfNew({ priority_type_id: 4, project_id: 4 })).toBe(group.almacen);
    await t.call(admin, 'PATCH', `/api/groups/${group.flota}/change-status`, { status_id: 1 });
  });

  it('refuses a rule pointing to an inactive group, an unknown value or a bad position, and changes nothing', async () => {
    await t.call(admin, 'PATCH', `/api/groups/${group.cerrado}/change-status`, { status_id: 2 });
    const before = await order();
    const cases: [object, string][] = [
      [{ name: 'Al turno cerrado', group_id: group.cerrado }, 'group_id'],
      [{ name: 'Sin grupo' }, 'group_id'],
      [{ name: 'Área inexistente', area_id: 999_999, group_id: group.almacen }, 'area_id'],
      [{ name: 'Urgentes de flota', group_id: group.almacen }, 'name'],
    ];
    for (const [body, field] of cases) {
      const res = await t.call(admin, 'POST', '/api/routing-rules/create', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(Object.keys(res.json().errors)).toContain(field);
    }
    const toInactive = await t.call(admin, 'PUT', `/api/routing-rules/update/${rule.area2}`, {
      name: 'Transporte',
      group_id: group.cerrado,
    });
    expect(toInactive.statusCode, toInactive.body).toBe(422);
    expect(toInactive.json().errors.group_id).toEqual(['El valor seleccionado no existe o está inactivo.']);
    for (const position of [0, -1, 1.5, 'x']) {
      const res = await t.call(admin, 'PATCH', `/api/routing-rules/${rule.area2}/move`, { position });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.position).toEqual(['La posición debe ser un número entero mayor que 0.']);
    }
    expect((await t.call(admin, 'PATCH', '/api/routing-rules/999999/move', { position: 1 })).statusCode).toBe(404);
    expect(await order()).toEqual(before);
  });

  it('needs rr_main: a supervisor reads the rules, only an administrator changes them, an agent sees none', async () => {
    expect((await t.call(supervisor, 'POST', '/api/routing-rules', { page: 1 })).statusCode).toBe(200);
    expect(
      (await t.call(supervisor, 'POST', '/api/routing-rules/create', { name: 'Intento', group_id: group.almacen }))
        .statusCode,
    ).toBe(403);
    expect((await t.call(supervisor, 'PATCH', `/api/routing-rules/${rule.any}/move`, { position: 1 })).statusCode).toBe(
      403,
    );
    expect((await t.call(agent, 'POST', '/api/routing-rules', { page: 1 })).statusCode).toBe(403);
  });
});
