import { REFERENCE_MSG } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReferenceReextraction } from '../src/modules/references/reference-reextraction.ts';
import { createTestApp, dialects, ticketBody, type TestApp } from './helper.ts';

const BOUNDARY = '----portal-references-boundary';

describe.each(dialects)('logistics references on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let agente: string;
  let supervisor: string;
  const db = () => t.services.database.db;

  const create = async (token: string, name: string, description = `Descripción de ${name}`) => {
    const res = await t.call(token, 'POST', '/api/tickets/create', ticketBody(name, description));
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as {
      data: { id: number; name: string };
      possible_duplicate: { message: string; ticket_ids: number[] } | null;
    };
  };
  const refsOf = async (ticketId: number) =>
    (
      await db()
        .selectFrom('ticket_references as r')
        .innerJoin('reference_types as rt', 'rt.id', 'r.type_id')
        .select(['rt.name', 'r.value'])
        .where('r.ticket_id', '=', ticketId)
        .orderBy('rt.id')
        .orderBy('r.value')
        .execute()
    ).map((r) => `${r.name}:${r.value}`);
  const typeId = async (name: string) =>
    (await db().selectFrom('reference_types').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
  const statusId = async (name: string) =>
    (await db().selectFrom('ticket_statuses').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
  const search = async (token: string, list: string, text: string) => {
    const res = await t.call(token, 'POST', list, { search: text, per_page: 50 });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data as { id: number }[]).map((r) => r.id);
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    [admin, agente, supervisor] = await Promise.all([t.login('admin'), t.login('agente'), t.login('supervisor')]);
    await t.services.referenceReextraction.idle();
  });
  afterAll(() => t?.close());

  it('extracts the references of the name and description, normalised, on create and update', async () => {
    const { data } = await create(
      admin,
      'Embarque emb-100200 retrasado',
      'Pedido PED-000777, guía 9876543210 y placa abc-123-d; EMB-100200 otra vez. EMB-1002001 no cuenta',
    );
    expect(await refsOf(data.id)).toEqual([
      'Embarque:EMB-100200',
      'Pedido:PED-000777',
      'Guía:9876543210',
      'Placa:ABC-123-D',
    ]);
    const page = (await t.call(admin, 'GET', `/api/tickets/${data.id}`)).json().data;
    expect(page.references.map((r: { value: string }) => r.value)).toEqual([
      'EMB-100200',
      'PED-000777',
      '9876543210',
      'ABC-123-D',
    ]);

    const updated = await t.call(admin, 'PUT', `/api/tickets/update/${data.id}`, {
      ...ticketBody('Embarque EMB-100201', 'Sin más referencias'),
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(await refsOf(data.id)).toEqual(['Embarque:EMB-100201']);
  });

  it('refuses an unsafe pattern, an unsupported one and an example that does not match, with nothing written', async () => {
    const count = async () => (await db().selectFrom('reference_types').select('id').execute()).length;
    const before = await count();
    const unsafe = await t.call(admin, 'POST', '/api/reference-types/create', {
      name: 'Peligroso',
      pattern: '(a+)+$',
      example: 'aaa',
    });
    expect(unsafe.statusCode).toBe(422);
    expect(unsafe.json().errors.pattern).toEqual([REFERENCE_MSG.patternUnsafe]);
    const backref = await t.call(admin, 'POST', '/api/reference-types/create', {
      name: 'Repetido',
      pattern: '(a)\\1',
      example: 'aa',
    });
    expect(backref.json().errors.pattern).toEqual([REFERENCE_MSG.patternUnsupported]);
    const mismatch = await t.call(admin, 'POST', '/api/reference-types/create', {
      name: 'Contenedor',
      pattern: 'CONT-\\d{4}',
      example: 'CONT-12',
    });
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json().errors.example).toEqual([REFERENCE_MSG.exampleMismatch]);
    // A new pattern is checked against the example.
    const embarque = await typeId('Embarque');
    const partial = await t.call(admin, 'PUT', `/api/reference-types/update/${embarque}`, {
      name: 'Embarque',
      pattern: 'EMB\\d{6}',
      example: 'EMB-004512',
    });
    expect(partial.statusCode).toBe(422);
    expect(partial.json().errors.example).toEqual([REFERENCE_MSG.exampleMismatch]);
    expect(await count()).toBe(before);
    // Only who has the screen's w may create one.
    const refused = await t.call(supervisor, 'POST', '/api/reference-types/create', {
      name: 'Contenedor',
      pattern: 'CONT-\\d{4}',
      example: 'CONT-1234',
    });
    expect(refused.statusCode).toBe(403);
  });

  it('suggests the duplicate and links the tickets sharing a reference with open ones', async () => {
    const first = await create(admin, 'Embarque EMB-004512 retrasado');
    const second = await create(agente, 'Mismo embarque', 'El EMB-004512 no llegó a Monterrey');
    expect(first.possible_duplicate).toBeNull();
    expect(second.possible_duplicate).toEqual({
      message: `Posible duplicado: #${first.data.id} (mismo embarque EMB-004512)`,
      ticket_ids: [first.data.id],
      reference: expect.objectContaining({ type_name: 'Embarque', value: 'EMB-004512' }),
    });
    const third = await create(admin, 'Tercer aviso EMB-004512');
    expect(third.possible_duplicate?.message).toBe(
      `Posible duplicado: #${first.data.id} y #${second.data.id} (mismo embarque EMB-004512)`,
    );
    const links = (await t.call(admin, 'GET', `/api/tickets/${third.data.id}/links`)).json().data;
    expect(links.map((l: { relation: string; ticket: { id: number } }) => [l.relation, l.ticket.id])).toEqual([
      ['related', first.data.id],
      ['related', second.data.id],
    ]);
    const page = (await t.call(admin, 'GET', `/api/tickets/${first.data.id}`)).json().data;
    expect(page.possible_duplicate).toBeNull();
    expect(page.events.at(-1)).toMatchObject({
      kind: 'linked',
      field: 'related',
      to_value: `#${third.data.id} Tercer aviso EMB-004512`,
    });
    const thirdPage = (await t.call(admin, 'GET', `/api/tickets/${third.data.id}`)).json().data;
    expect(thirdPage.possible_duplicate.ticket_ids).toEqual([first.data.id, second.data.id]);
    // Its timeline: the creation first, then one entry per ticket linked.
    expect(
      thirdPage.events.map((e: { kind: string; to_value: string | null }) => [e.kind, e.to_value]).slice(0, 1),
    ).toEqual([['created', null]]);
    expect(
      thirdPage.events
        .filter((e: { kind: string }) => e.kind === 'linked')
        .map((e: { to_value: string }) => e.to_value)
        .sort(),
    ).toEqual([`#${first.data.id} Embarque EMB-004512 retrasado`, `#${second.data.id} Mismo embarque`]);

    // Merged into the first, the third's references stay with the first as well.
    const other = await create(admin, 'Pedido PED-555111 sin surtir');
    const merged = await t.call(admin, 'POST', `/api/tickets/${other.data.id}/merge`, { ticket_id: first.data.id });
    expect(merged.statusCode, merged.body).toBe(200);
    expect(await refsOf(first.data.id)).toEqual(['Embarque:EMB-004512', 'Pedido:PED-555111']);
  });

  it('finds a reference typed in any list exactly, before word matches', async () => {
    const carrier = await create(admin, 'Carga PED-123456 en andén');
    await create(admin, 'Pedido PED 123456 mal escrito');
    expect(await search(admin, '/api/general-tickets', 'ped-123456')).toEqual([carrier.data.id]);
    expect(await search(admin, '/api/general-tickets', ' PED-123456 ')).toEqual([carrier.data.id]);
    // Mis Tickets keeps its scope: the agent did not create it.
    expect(await search(agente, '/api/tickets', 'PED-123456')).toEqual([]);
    // A reference no ticket carries is searched as words.
    expect(await search(admin, '/api/general-tickets', 'PED-999999')).toEqual([]);
  });

  it('lists the reference’s tickets with a summary, and runs the bulk actions ticket by ticket', async () => {
    const embarque = await typeId('Embarque');
    const mine = await create(agente, 'Agente EMB-777777');
    const theirs = await create(admin, 'Administrador EMB-777777');
    const closed = await create(agente, 'Cerrado EMB-777777');
    const done = await t.call(agente, 'PUT', `/api/tickets/update/${closed.data.id}`, {
      ...ticketBody('Cerrado EMB-777777', `Descripción de Cerrado EMB-777777`),
      status_id: await statusId('Resuelto'),
    });
    expect(done.statusCode, done.body).toBe(200);

    const page = await t.call(admin, 'GET', `/api/references/${embarque}/emb-777777`);
    expect(page.statusCode, page.body).toBe(200);
    const data = page.json().data;
    expect(data.value).toBe('EMB-777777');
    expect(data.tickets.map((x: { id: number }) => x.id)).toEqual([closed.data.id, theirs.data.id, mine.data.id]);
    expect(data.summary).toMatchObject({ open: 2, closed: 1 });
    expect(data.summary.first_seen).toEqual(expect.any(String));
    expect(data.can_update).toBe(true);
    // The agent sees their own tickets only.
    const agentPage = (await t.call(agente, 'GET', `/api/references/${embarque}/EMB-777777`)).json().data;
    expect(agentPage.tickets.map((x: { id: number }) => x.id)).toEqual([closed.data.id, mine.data.id]);

    const enCurso = await statusId('En progreso');
    const bulk = await t.call(agente, 'POST', `/api/references/${embarque}/EMB-777777/bulk`, {
      action: 'status',
      status_id: enCurso,
    });
    expect(bulk.statusCode, bulk.body).toBe(200);
    expect(bulk.json().results).toEqual([
      { ticket_id: mine.data.id, ok: true, message: expect.any(String) },
      { ticket_id: theirs.data.id, ok: false, message: 'No tienes permiso sobre este ticket.' },
    ]);
    expect(bulk.json().message).toBe(REFERENCE_MSG.bulkDone(1, 1));
    const statusOf = async (id: number) =>
      (await db().selectFrom('tickets').select('status_id').where('id', '=', id).executeTakeFirstOrThrow()).status_id;
    expect(await statusOf(mine.data.id)).toBe(enCurso);
    expect(await statusOf(theirs.data.id)).toBe(1);

    const agentId = (
      await db().selectFrom('users').select('id').where('username', '=', 'agente').executeTakeFirstOrThrow()
    ).id;
    const assign = await t.call(admin, 'POST', `/api/references/${embarque}/EMB-777777/bulk`, {
      action: 'assign',
      user_id: agentId,
    });
    expect(assign.json().results.every((r: { ok: boolean }) => r.ok)).toBe(true);

    // A role without u on any ticket list is refused the bulk actions (and sees none of the tickets).
    const role = (await t.call(admin, 'POST', '/api/roles/create', { name: 'Consulta de referencias' })).json().data;
    const viewer = await t.call(admin, 'POST', '/api/users/create', {
      name: 'Valeria',
      last_name: 'Gómez',
      second_last_name: 'Ruiz',
      username: `vref${dialect}`,
      email: `vref.${dialect}@portal.local`,
      password: 'Camion2024!',
      role_id: String(role.id),
      area_id: '1',
      status_id: '1',
    });
    expect(viewer.statusCode, viewer.body).toBe(201);
    const viewerToken = await t.login(`vref${dialect}`, 'Camion2024!');
    const refused = await t.call(viewerToken, 'POST', `/api/references/${embarque}/EMB-777777/bulk`, {
      action: 'assign',
      user_id: agentId,
    });
    expect(refused.statusCode).toBe(403);
    const hidden = (await t.call(viewerToken, 'GET', `/api/references/${embarque}/EMB-777777`)).json().data;
    expect(hidden).toMatchObject({ tickets: [], can_update: false });

    // Without a session: refused; an unknown type is a 404.
    expect((await t.call(null, 'GET', `/api/references/${embarque}/EMB-777777`)).statusCode).toBe(401);
    expect((await t.call(admin, 'GET', `/api/references/99999/EMB-777777`)).statusCode).toBe(404);
    const bad = await t.call(admin, 'POST', `/api/references/${embarque}/EMB-777777/bulk`, { action: 'borrar' });
    expect(bad.statusCode).toBe(422);
  });

  it('re-extracts every ticket in the background after a change of pattern, with its progress', async () => {
    const { data } = await create(admin, 'Contenedor CONT-1234 y placa XYZ-987-Q');
    expect(await refsOf(data.id)).toEqual(['Placa:XYZ-987-Q']);
    const created = await t.call(admin, 'POST', '/api/reference-types/create', {
      name: 'Contenedor',
      pattern: 'CONT-\\d{4}',
      example: 'cont-1234',
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.id as number;
    await t.services.referenceReextraction.idle();
    expect(await refsOf(data.id)).toEqual(['Placa:XYZ-987-Q', 'Contenedor:CONT-1234']);
    const longer = (await create(admin, 'Contenedor CONT-55555 en patio')).data.id;
    expect(await refsOf(longer)).not.toContain('Contenedor:CONT-55555');

    const changed = await t.call(admin, 'PUT', `/api/reference-types/update/${id}`, {
      name: 'Contenedor',
      pattern: 'CONT-\\d{4,5}',
      example: 'CONT-12345',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    await t.services.referenceReextraction.idle();
    // The ticket the new pattern reads differently has its reference replaced; the other keeps its own.
    expect(await refsOf(longer)).toEqual(['Contenedor:CONT-55555']);
    expect(await refsOf(data.id)).toEqual(['Placa:XYZ-987-Q', 'Contenedor:CONT-1234']);
    // While a run goes on, the catalogue shows how far it is.
    const listed = async () =>
      ((await t.call(admin, 'POST', '/api/reference-types', { per_page: 50 })).json().data as { id: number }[]).find(
        (r) => r.id === id,
      );
    expect(await listed()).toMatchObject({ reextract_done: null, reextract_total: null });
    await db().insertInto('reference_reextractions').values({ type_id: id, after_id: 0, done: 0, total: 10 }).execute();
    const running = (await t.call(admin, 'GET', `/api/reference-types/${id}`)).json().data;
    expect(running).toMatchObject({ reextract_done: 0, reextract_total: 10 });
    // The list (the screen polls it) shows the progress, which no catalogue write announces.
    expect(await listed()).toMatchObject({ reextract_done: 0, reextract_total: 10 });
    // Its steps tell how long each held its transaction, and announce no catalogue change (the
    // progress lives apart from the catalogue, which every process would otherwise forget).
    const [kinds, steps] = [[] as string[], [] as number[]];
    const stopKinds = t.services.bus.onInvalidate(({ kind }) => kinds.push(kind));
    const stopSteps = t.services.referenceReextraction.onStep((ms) => steps.push(ms));
    try {
      await t.services.referenceReextraction.idle();
    } finally {
      stopKinds();
      stopSteps();
    }
    expect(kinds).not.toContain('catalogs');
    expect(steps.length).toBeGreaterThan(0);
    expect(steps.every((ms) => ms >= 0)).toBe(true);
    expect(await db().selectFrom('reference_reextractions').selectAll().execute()).toEqual([]);
    const record = (await t.call(admin, 'GET', `/api/reference-types/${id}`)).json().data;
    expect(record).toMatchObject({ reextract_done: null, reextract_total: null });
    expect(await refsOf(data.id)).toEqual(['Placa:XYZ-987-Q', 'Contenedor:CONT-1234']);

    // Deactivated: its references go with the next run.
    await t.call(admin, 'PATCH', `/api/reference-types/${id}/change-status`, { status_id: 2 });
    await t.services.referenceReextraction.idle();
    expect(await refsOf(data.id)).toEqual(['Placa:XYZ-987-Q']);
  });

  it('stores a re-extraction’s cursor every tenth batch while nothing changes, and writes what changes at once', async () => {
    await create(admin, 'Embarque EMB-777001 retenido');
    const embarque = await typeId('Embarque');
    const before = await db()
      .selectFrom('ticket_references')
      .selectAll()
      .orderBy('ticket_id')
      .orderBy('value')
      .execute();
    const { n } = await db()
      .selectFrom('tickets')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    const reextraction = createReferenceReextraction(t.services.database, { batch: 1 });
    const writes: number[] = [];
    reextraction.onStep((ms) => writes.push(ms));
    await db()
      .insertInto('reference_reextractions')
      .values({ type_id: embarque, after_id: 0, done: 0, total: Number(n) })
      .execute();
    await reextraction.idle();
    // One ticket a batch, none changed: a write every tenth batch and one at the end.
    expect(writes.length).toBe(Math.floor(Number(n) / 10) + 1);
    expect(await db().selectFrom('reference_reextractions').selectAll().execute()).toEqual([]);
    expect(
      await db().selectFrom('ticket_references').selectAll().orderBy('ticket_id').orderBy('value').execute(),
    ).toEqual(before);

    // A reference lost by a data fix is written back by the batch that finds it.
    const fixed = await create(admin, 'Embarque EMB-777002 retenido');
    await db().deleteFrom('ticket_references').where('ticket_id', '=', fixed.data.id).execute();
    await db()
      .insertInto('reference_reextractions')
      .values({ type_id: embarque, after_id: 0, done: 0, total: Number(n) + 1 })
      .execute();
    await reextraction.idle();
    expect(await refsOf(fixed.data.id)).toEqual(['Embarque:EMB-777002']);
  });

  it('writes at most 50 changed tickets a transaction, the last one moving the cursor', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 55; i++)
      ids.push((await create(admin, `Embarque EMB-8800${String(i).padStart(2, '0')}`)).data.id);
    await db().deleteFrom('ticket_references').where('ticket_id', 'in', ids).execute();
    const reextraction = createReferenceReextraction(t.services.database, { batch: 1_000 });
    const writes: number[] = [];
    reextraction.onStep((ms) => writes.push(ms));
    await db()
      .insertInto('reference_reextractions')
      .values({ type_id: await typeId('Embarque'), after_id: Math.min(...ids) - 1, done: 0, total: 55 })
      .execute();
    await reextraction.idle();
    expect(writes).toHaveLength(2);
    const restored = await db()
      .selectFrom('ticket_references')
      .select('ticket_id')
      .where('ticket_id', 'in', ids)
      .execute();
    expect(restored).toHaveLength(55);
    expect(await db().selectFrom('reference_reextractions').selectAll().execute()).toEqual([]);
  });

  it('extracts the references of imported tickets in the load', async () => {
    await create(admin, 'Importable PED-424242');
    const exported = await t.call(admin, 'POST', '/api/tickets/export', { list: 'general', search: 'PED-424242' });
    expect(exported.statusCode).toBe(200);
    const payload = Buffer.concat([
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="t.csv"\r\nContent-Type: text/csv\r\n\r\n`,
      ),
      Buffer.from(exported.body),
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/tickets/import',
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, authorization: `Bearer ${admin}` },
      payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain('"done"');
    expect(await search(admin, '/api/general-tickets', 'PED-424242')).toHaveLength(2);
  });
});
