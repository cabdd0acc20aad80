import { ATTACHMENT_MSG, MAX_ATTACHMENTS_PER_TICKET } from '@portal/contract';
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../src/db/migrator.ts';
import { contentDisposition, sniffType } from '../src/modules/attachments/attachments.service.ts';
import { createTestApp, dialects, type TestApp } from './helper.ts';

const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(2000), Buffer.from('\n%%EOF\n')]);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(3000)]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(1500)]);
const EXE = Buffer.concat([Buffer.from('MZ'), randomBytes(500)]);

interface Part {
  name: string;
  data: Buffer;
  type?: string;
  field?: string;
}

const BOUNDARY = '----portal-test-boundary-7MA4YWxkTrZu0gW';

function multipartBody(parts: Part[]): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    chunks.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${p.field ?? 'files'}"; filename="${p.name}"\r\n` +
          `Content-Type: ${p.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      p.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

const uploadTempDirs = () => readdirSync(tmpdir()).filter((d) => d.startsWith('portal-upload-'));

describe('attachment helpers', () => {
  it('sniffs pdf, png and jpeg from the first bytes only', () => {
    expect(sniffType(PDF)).toBe('application/pdf');
    expect(sniffType(PNG)).toBe('image/png');
    expect(sniffType(JPEG)).toBe('image/jpeg');
    expect(sniffType(EXE)).toBeNull();
    expect(sniffType(Buffer.from('%PD'))).toBeNull();
    expect(sniffType(Buffer.alloc(0))).toBeNull();
  });

  it('encodes the name for Content-Disposition with an ASCII fallback and RFC 5987', () => {
    expect(contentDisposition('Fotografía del andén (1).png')).toBe(
      `attachment; filename="Fotografia del anden (1).png"; filename*=UTF-8''Fotograf%C3%ADa%20del%20and%C3%A9n%20%281%29.png`,
    );
    expect(contentDisposition('a"b\\c;d%.pdf')).toBe(
      `attachment; filename="a_b_c_d_.pdf"; filename*=UTF-8''a%22b%5Cc%3Bd%25.pdf`,
    );
    expect(contentDisposition('日本.pdf')).toContain(`filename=".pdf"; filename*=UTF-8''%E6%97%A5%E6%9C%AC.pdf`);
  });
});

describe.each(dialects)('ticket attachments on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let supervisor: string;
  let agente: string;
  let lmartinez: string;
  let ticketId: number;
  const ids: Record<string, number> = {};
  const db = () => t.services.database.db;

  const upload = (token: string | null, ticket: number, parts: Part[], payload = multipartBody(parts)) =>
    t.app.inject({
      method: 'POST',
      url: `/api/tickets/${ticket}/attachments`,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      },
      payload,
    });
  const rowCounts = async () => ({
    files: Number(
      (
        await db()
          .selectFrom('ticket_attachments')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
    chunks: Number(
      (
        await db()
          .selectFrom('attachment_chunks')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
  });

  beforeAll(async () => {
    t = await createTestApp(dialect, { ATTACHMENT_MAX_BYTES: String(10 * 1024 * 1024) });
    [admin, supervisor, agente, lmartinez] = (await Promise.all(
      ['admin', 'supervisor', 'agente', 'lmartinez'].map((u) => t.login(u)),
    )) as [string, string, string, string];
    for (const u of await db().selectFrom('users').select(['id', 'username']).execute()) ids[u.username] = u.id;
    // A ticket of agente's that lmartinez neither created nor is assigned to.
    const ticket = await db()
      .selectFrom('tickets')
      .select('id')
      .where('created_by', '=', ids.agente!)
      .where((eb) => eb.or([eb('user_assigned_id', 'is', null), eb('user_assigned_id', '!=', ids.lmartinez!)]))
      .orderBy('id')
      .executeTakeFirstOrThrow();
    ticketId = ticket.id;
  });
  afterAll(() => t?.close());

  it('stores the files a ticket creator uploads, typed by their bytes, and lists them', async () => {
    const res = await upload(agente, ticketId, [
      { name: 'informe.pdf', data: PDF, type: 'image/png' },
      { name: 'foto sin extensión', data: PNG },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.message).toBe('2 archivos adjuntados');
    expect(body.data.map((a: { name: string; type: string; size: number }) => [a.name, a.type, a.size])).toEqual([
      ['informe.pdf', 'application/pdf', PDF.length],
      ['foto sin extensión', 'image/png', PNG.length],
    ]);

    const list = await t.call(agente, 'GET', `/api/tickets/${ticketId}/attachments`);
    expect(list.statusCode, list.body).toBe(200);
    const listed = list.json();
    expect(listed.can_add).toBe(true);
    expect(listed.limits).toEqual({ max_bytes: 10 * 1024 * 1024, max_files: 3, max_per_ticket: 20 });
    expect(listed.data).toHaveLength(2);
    expect(listed.data[0]).toMatchObject({
      ticket_id: ticketId,
      name: 'informe.pdf',
      size: PDF.length,
      type: 'application/pdf',
      uploaded_by: { id: ids.agente, name: 'Diego Hernández' },
      can_delete: true,
    });
    expect(typeof listed.data[0].created_at).toBe('string');
  });

  it('serves a download with the stored type, the encoded name and nosniff, to anyone who may read the ticket', async () => {
    const { data } = (await t.call(agente, 'GET', `/api/tickets/${ticketId}/attachments`)).json();
    const pdf = data.find((a: { name: string }) => a.name === 'informe.pdf');
    const png = data.find((a: { name: string }) => a.name === 'foto sin extensión');
    const res = await t.call(supervisor, 'GET', `/api/attachments/${pdf.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="informe.pdf"; filename*=UTF-8''informe.pdf`);
    expect(res.rawPayload.equals(PDF)).toBe(true);
    const image = await t.call(agente, 'GET', `/api/attachments/${png.id}`);
    expect(image.headers['content-disposition']).toContain(`filename*=UTF-8''foto%20sin%20extensi%C3%B3n`);
    expect(image.rawPayload.equals(PNG)).toBe(true);
  });

  it('refuses a user who cannot see the ticket: no list, no download, no upload, no delete', async () => {
    const { data } = (await t.call(agente, 'GET', `/api/tickets/${ticketId}/attachments`)).json();
    const list = await t.call(lmartinez, 'GET', `/api/tickets/${ticketId}/attachments`);
    expect(list.statusCode).toBe(403);
    expect(list.json().message).toBe(ATTACHMENT_MSG.cannotRead);
    const download = await t.call(lmartinez, 'GET', `/api/attachments/${data[0].id}`);
    expect(download.statusCode).toBe(403);
    expect(download.headers['content-disposition']).toBeUndefined();
    const up = await upload(lmartinez, ticketId, [{ name: 'x.pdf', data: PDF }]);
    expect(up.statusCode).toBe(403);
    expect(up.json().message).toBe(ATTACHMENT_MSG.cannotAdd);
    const del = await t.call(lmartinez, 'DELETE', `/api/attachments/${data[0].id}`);
    expect(del.statusCode).toBe(403);
    expect((await t.call(null, 'GET', `/api/attachments/${data[0].id}`)).statusCode).toBe(401);
    expect((await upload(null, ticketId, [{ name: 'x.pdf', data: PDF }])).statusCode).toBe(401);
  });

  it('lets a user who may read but not update the ticket download but not add', async () => {
    const section = await db()
      .selectFrom('sections')
      .select('id')
      .where('name', '=', 'tickets_main')
      .executeTakeFirstOrThrow();
    const setUpdate = async (u: number) => {
      await db()
        .updateTable('sections_permission')
        .set({ u })
        .where('section_id', '=', section.id)
        .where('role_id', '=', 3)
        .execute();
      t.services.permissions.invalidate();
    };
    await setUpdate(0);
    try {
      const list = await t.call(agente, 'GET', `/api/tickets/${ticketId}/attachments`);
      expect(list.statusCode).toBe(200);
      expect(list.json().can_add).toBe(false);
      expect((await upload(agente, ticketId, [{ name: 'x.pdf', data: PDF }])).statusCode).toBe(403);
    } finally {
      await setUpdate(1);
    }
  });

  it('refuses anything but pdf, png or jpeg whatever its name says, and stores nothing of that upload', async () => {
    const before = await rowCounts();
    const res = await upload(agente, ticketId, [
      { name: 'bueno.jpg', data: JPEG },
      { name: 'factura.pdf', data: EXE, type: 'application/pdf' },
    ]);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.files).toEqual([ATTACHMENT_MSG.invalidType('factura.pdf')]);
    const empty = await upload(agente, ticketId, [{ name: 'vacío.png', data: Buffer.alloc(0) }]);
    expect(empty.statusCode).toBe(422);
    expect(await rowCounts()).toEqual(before);
  });

  it('refuses more than 3 files per upload, an empty upload and a body that is not multipart', async () => {
    const before = await rowCounts();
    const four = await upload(
      agente,
      ticketId,
      [1, 2, 3, 4].map((n) => ({ name: `f${n}.png`, data: PNG })),
    );
    expect(four.statusCode).toBe(422);
    expect(four.json().errors.files).toEqual(['Solo se pueden subir 3 como máximo']);
    const none = await upload(agente, ticketId, [], Buffer.from(`--${BOUNDARY}--\r\n`));
    expect(none.statusCode).toBe(422);
    expect(none.json().errors.files).toEqual([ATTACHMENT_MSG.missing]);
    const json = await t.call(agente, 'POST', `/api/tickets/${ticketId}/attachments`, { files: [] });
    expect(json.statusCode).toBe(415);
    expect(await rowCounts()).toEqual(before);
  });

  it('refuses a file over ATTACHMENT_MAX_BYTES with a Spanish 413', async () => {
    const before = await rowCounts();
    const big = Buffer.concat([Buffer.from('%PDF-'), Buffer.alloc(10 * 1024 * 1024)]);
    const res = await upload(agente, ticketId, [{ name: 'grande.pdf', data: big }]);
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe('«grande.pdf» supera el tamaño máximo de 10 MB.');
    expect(await rowCounts()).toEqual(before);
  });

  it('stores a 10 MB file in chunks and serves it back byte-identical', async () => {
    const tenMb = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe1]), randomBytes(10 * 1024 * 1024 - 4)]);
    const res = await upload(agente, ticketId, [{ name: 'plano.jpeg', data: tenMb }]);
    expect(res.statusCode, res.body).toBe(200);
    const [stored] = res.json().data;
    expect(stored.size).toBe(10 * 1024 * 1024);
    const chunks = await db()
      .selectFrom('attachment_chunks')
      .select('seq')
      .where('attachment_id', '=', stored.id)
      .execute();
    expect(chunks).toHaveLength(40);
    const down = await t.call(admin, 'GET', `/api/attachments/${stored.id}`);
    expect(down.statusCode).toBe(200);
    expect(down.headers['content-type']).toBe('image/jpeg');
    expect(Number(down.headers['content-length'])).toBe(tenMb.length);
    expect(down.rawPayload.equals(tenMb)).toBe(true);
  });

  it('leaves nothing behind when the multipart body is cut short', async () => {
    const before = await rowCounts();
    const body = multipartBody([
      { name: 'uno.pdf', data: PDF },
      { name: 'dos.png', data: PNG },
    ]);
    const cut = body.subarray(0, body.length - 1200);
    const res = await upload(agente, ticketId, [], cut);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(ATTACHMENT_MSG.interrupted);
    expect(await rowCounts()).toEqual(before);
  });

  it('leaves nothing behind when the client disconnects mid-upload', async () => {
    const before = await rowCounts();
    const tempBefore = new Set(uploadTempDirs());
    const newTempDirs = () => uploadTempDirs().filter((d) => !tempBefore.has(d));
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const head = multipartBody([{ name: 'lento.pdf', data: Buffer.concat([PDF, randomBytes(512 * 1024)]) }]);
    await new Promise<void>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => {
        socket.write(
          `POST /api/tickets/${ticketId}/attachments HTTP/1.1\r\nHost: localhost\r\n` +
            `Authorization: Bearer ${agente}\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\n` +
            `Content-Length: ${head.length}\r\n\r\n`,
        );
        socket.write(head.subarray(0, 300 * 1024), () => setTimeout(() => socket.destroy(), 300));
      });
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    // The server notices the closed socket, drops the spooled file and never opens a transaction.
    for (let i = 0; i < 50 && newTempDirs().length > 0; i += 1) await new Promise((r) => setTimeout(r, 50));
    expect(newTempDirs()).toEqual([]);
    expect(await rowCounts()).toEqual(before);
  });

  it('allows at most 20 files per ticket', async () => {
    const other = await db()
      .selectFrom('tickets')
      .select('id')
      .where('created_by', '=', ids.agente!)
      .where('id', '!=', ticketId)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    for (let n = 0; n < 6; n += 1) {
      const res = await upload(
        agente,
        other.id,
        [1, 2, 3].map((k) => ({ name: `p${n}-${k}.png`, data: PNG })),
      );
      expect(res.statusCode, res.body).toBe(200);
    }
    const overflow = await upload(
      agente,
      other.id,
      [1, 2, 3].map((k) => ({ name: `q${k}.png`, data: PNG })),
    );
    expect(overflow.statusCode).toBe(422);
    expect(overflow.json().errors.files).toEqual([ATTACHMENT_MSG.ticketFull(18)]);
    const fill = await upload(
      agente,
      other.id,
      [1, 2].map((k) => ({ name: `r${k}.png`, data: PNG })),
    );
    expect(fill.statusCode).toBe(200);
    const full = await upload(agente, other.id, [{ name: 's.png', data: PNG }]);
    expect(full.statusCode).toBe(422);
    expect(full.json().errors.files).toEqual([ATTACHMENT_MSG.ticketFull(MAX_ATTACHMENTS_PER_TICKET)]);
  });

  it('lets the uploader or a privileged role delete a file, and nobody else', async () => {
    const up = await upload(supervisor, ticketId, [{ name: 'del supervisor.png', data: PNG }]);
    expect(up.statusCode, up.body).toBe(200);
    const bySupervisor = up.json().data[0];
    const { data } = (await t.call(agente, 'GET', `/api/tickets/${ticketId}/attachments`)).json();
    const mine = data.find((a: { name: string }) => a.name === 'informe.pdf');
    expect(data.find((a: { id: number }) => a.id === bySupervisor.id).can_delete).toBe(false);

    const refused = await t.call(agente, 'DELETE', `/api/attachments/${bySupervisor.id}`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(ATTACHMENT_MSG.cannotDelete);

    const own = await t.call(agente, 'DELETE', `/api/attachments/${mine.id}`);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toEqual({ status: true, message: ATTACHMENT_MSG.deleted });
    const privileged = await t.call(admin, 'DELETE', `/api/attachments/${bySupervisor.id}`);
    expect(privileged.statusCode).toBe(200);

    const chunksLeft = await db()
      .selectFrom('attachment_chunks')
      .select('seq')
      .where('attachment_id', 'in', [mine.id, bySupervisor.id])
      .execute();
    expect(chunksLeft).toEqual([]);
    expect((await t.call(agente, 'GET', `/api/attachments/${mine.id}`)).statusCode).toBe(404);
    expect((await t.call(agente, 'DELETE', `/api/attachments/${mine.id}`)).statusCode).toBe(404);
    expect((await t.call(agente, 'GET', `/api/tickets/999999/attachments`)).statusCode).toBe(404);
  });
});

describe.each(dialects)('the /example showcase endpoint on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t?.close());

  it('answers the change-status of the showcase to a role holding ex_main and stores nothing', async () => {
    const admin = await t.login('admin');
    const res = await t.call(admin, 'PATCH', '/api/example/1/change-status', { status_id: 2 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: true, message: 'Estado actualizado.', data: { id: 1, status_id: 2 } });
    const bad = await t.call(admin, 'PATCH', '/api/example/1/change-status', { status_id: 7 });
    expect(bad.statusCode).toBe(422);
  });

  it('refuses a role without the example section, and routes the menu to /example only for Administrador', async () => {
    const agente = await t.login('agente');
    expect((await t.call(agente, 'PATCH', '/api/example/1/change-status', { status_id: 2 })).statusCode).toBe(403);
    const routes = async (roleId: number, token: string) =>
      (await t.call(token, 'POST', '/api/user-permissions', { role_id: roleId })).json().routes as string[];
    expect(await routes(1, await t.login('admin'))).toContain('example');
    expect(await routes(3, agente)).not.toContain('example');
  });
});

describe.each(dialects)('migration 0005 on an existing %s database', (dialect) => {
  it('creates the attachment tables and gives Administrador the /example screen', async () => {
    const t = await createTestApp(dialect);
    try {
      const { db } = t.services.database;
      // Back to the state of a database seeded before 0005.
      const route = await db.selectFrom('routes').select('id').where('name', '=', 'example').executeTakeFirstOrThrow();
      const section = await db
        .selectFrom('sections')
        .select('id')
        .where('route_id', '=', route.id)
        .executeTakeFirstOrThrow();
      await db.deleteFrom('sections_permission').where('section_id', '=', section.id).execute();
      await db.deleteFrom('routes_permission').where('route_id', '=', route.id).execute();
      await db.deleteFrom('sections').where('id', '=', section.id).execute();
      await db.deleteFrom('routes').where('id', '=', route.id).execute();
      await db.schema.dropTable('attachment_chunks').execute();
      await db.schema.dropTable('ticket_attachments').execute();
      await sql`delete from kysely_migration where name = '0005-attachments-and-example'`.execute(db);

      expect(await migrateToLatest(t.services.database)).toEqual(['0005-attachments-and-example']);
      t.services.permissions.invalidate();
      const admin = await t.login('admin');
      const routes = (await t.call(admin, 'POST', '/api/user-permissions', { role_id: 1 })).json().routes;
      expect(routes).toContain('example');
      const check = await t.call(admin, 'POST', '/api/check-permission', {
        user_id: 1,
        role_id: 1,
        route_name: 'example',
      });
      expect(check.json().sections).toEqual([{ name: 'ex_main', r: 1, w: 1, u: 1, d: 1 }]);
      const supervisorRoutes = (
        await t.call(await t.login('supervisor'), 'POST', '/api/user-permissions', { role_id: 2 })
      ).json().routes;
      expect(supervisorRoutes).not.toContain('example');
      expect(await db.selectFrom('ticket_attachments').selectAll().execute()).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
