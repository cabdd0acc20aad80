import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from './helper.ts';

const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

function multipart(fileName: string, type: string, bytes: Buffer) {
  const boundary = '----portal-test-boundary';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe.each(dialects)('profile on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let agente: string;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp(dialect);
    [admin, agente] = (await Promise.all(['admin', 'agente'].map((u) => t.login(u)))) as [string, string];
    for (const u of await t.services.database.db.selectFrom('users').select(['id', 'username']).execute()) {
      ids[u.username] = u.id;
    }
  });
  afterAll(() => t?.close());

  describe('laboral information', () => {
    it('gives the user their role, area, supervisor, branch and groups (none yet)', async () => {
      const res = await t.call(agente, 'GET', `/api/users/laboral-information/${ids.agente}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        status: true,
        role: { id: 3, name: 'Agente' },
        area: { id: expect.any(Number), name: 'Almacén' },
        supervisor: { id: ids.supervisor, name: 'Sofía Ramírez' },
        branch: 'Monterrey',
        groups: [],
      });
    });

    it("refuses another user's to an agent and allows it with the users section", async () => {
      expect((await t.call(agente, 'GET', `/api/users/laboral-information/${ids.lmartinez}`)).statusCode).toBe(403);
      const res = await t.call(admin, 'GET', `/api/users/laboral-information/${ids.lmartinez}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().area.name).toBe('Transporte');
      expect((await t.call(admin, 'GET', '/api/users/laboral-information/999999')).statusCode).toBe(404);
    });
  });

  describe('profile edit', () => {
    const profile = {
      name: 'Diego Andrés',
      last_name: 'Hernández',
      second_last_name: 'López',
      username: 'agente',
      email: 'diego.hernandez@portal.local',
    };

    it('saves the personal fields of the caller, and they persist', async () => {
      const res = await t.call(agente, 'PUT', `/api/users/update/${ids.agente}`, profile);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ status: true, message: 'Tus cambios se guardaron correctamente.' });
      const read = await t.call(agente, 'GET', `/api/users/${ids.agente}`);
      expect(read.json().data).toMatchObject({ ...profile, role_id: 3, branch: 'Monterrey' });
      expect(read.body).not.toMatch(/password/);
    });

    it('refuses role, area or status changes by the user themselves', async () => {
      for (const extra of [{ role_id: 1 }, { area_id: 2 }, { status_id: 2 }, { supervisor_id: null }]) {
        const res = await t.call(agente, 'PUT', `/api/users/update/${ids.agente}`, { ...profile, ...extra });
        expect(res.statusCode, JSON.stringify(extra)).toBe(403);
      }
      const row = await t.services.database.db
        .selectFrom('users')
        .select(['role_id', 'status_id'])
        .where('id', '=', ids.agente!)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ role_id: 3, status_id: 1 });
    });

    it("refuses another user's profile to an agent", async () => {
      const res = await t.call(agente, 'PUT', `/api/users/update/${ids.lmartinez}`, {
        ...profile,
        username: 'lmartinez',
        email: 'x@portal.local',
      });
      expect(res.statusCode).toBe(403);
      expect((await t.call(agente, 'GET', `/api/users/${ids.lmartinez}`)).statusCode).toBe(403);
    });

    it('answers the Spanish validation messages for a bad e-mail and Spanish 422s for bad names and duplicates', async () => {
      const dot = await t.call(agente, 'PUT', `/api/users/update/${ids.agente}`, { ...profile, email: '.a@b.com' });
      expect(dot.statusCode).toBe(422);
      expect(dot.json().errors.email).toEqual(["El correo no puede empezar con '.' o '\"'"]);
      const format = await t.call(agente, 'PUT', `/api/users/update/${ids.agente}`, {
        ...profile,
        email: 'sin-arroba',
      });
      expect(format.json().errors.email).toEqual(['El formato del correo es inválido']);
      const name = await t.call(agente, 'PUT', `/api/users/update/${ids.agente}`, { ...profile, name: 'Diego2' });
      expect(name.statusCode).toBe(422);
      expect(name.json().errors.name).toBeDefined();
      const taken = await t.call(agente, 'PUT', `/api/users/update/${ids.agente}`, { ...profile, username: 'admin' });
      expect(taken.statusCode).toBe(422);
      expect(taken.json().errors.username).toEqual(['Ya existe un registro con este valor.']);
    });

    it('lets the users section change every field of another user, and deactivation ends their sessions', async () => {
      const token = await t.login('jcastillo');
      const res = await t.call(admin, 'PUT', `/api/users/update/${ids.jcastillo}`, {
        name: 'Jorge',
        last_name: 'Castillo',
        second_last_name: 'Núñez',
        username: 'jcastillo',
        email: 'jorge.castillo@portal.local',
        role_id: 2,
        branch: 'Saltillo',
        status_id: 2,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().message).toBe('Registro actualizado exitosamente.');
      expect(res.json().data).toMatchObject({ role_id: 2, branch: 'Saltillo', status_id: 2 });
      expect((await t.call(token, 'GET', '/api/tickets/last-three')).statusCode).toBe(401);
    });
  });

  describe('password change', () => {
    const url = () => `/api/users/change-password/${ids.mflores}`;

    it('requires all three fields, with the form title', async () => {
      const token = await t.login('mflores');
      const res = await t.call(token, 'POST', url(), { current_password: 'PortalDemo1' });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ status: false, title: 'Por favor, completa todos los campos' });
      expect(Object.keys(res.json().errors).sort()).toEqual(['new_password', 'password_confirmation']);
    });

    it('refuses a new password equal to the current one, a mismatch, a short one and a wrong current one', async () => {
      const token = await t.login('mflores');
      const same = await t.call(token, 'POST', url(), {
        current_password: 'PortalDemo1',
        new_password: 'PortalDemo1',
        password_confirmation: 'PortalDemo1',
      });
      expect(same.statusCode).toBe(422);
      expect(same.json()).toMatchObject({
        status: false,
        title: 'La contraseña no fue actualizada',
        errors: { new_password: ['La nueva contraseña no puede ser igual a la actual'] },
      });
      const mismatch = await t.call(token, 'POST', url(), {
        current_password: 'PortalDemo1',
        new_password: 'NuevaClave2025',
        password_confirmation: 'NuevaClave2026',
      });
      expect(mismatch.json().errors).toEqual({ password_confirmation: ['Las contraseñas no coinciden'] });
      const short = await t.call(token, 'POST', url(), {
        current_password: 'PortalDemo1',
        new_password: 'abc',
        password_confirmation: 'abc',
      });
      expect(short.json().errors.new_password).toEqual(['La contraseña debe tener al menos 8 caracteres.']);
      const wrong = await t.call(token, 'POST', url(), {
        current_password: 'NoEsMiClave1',
        new_password: 'NuevaClave2025',
        password_confirmation: 'NuevaClave2025',
      });
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json().errors).toEqual({ current_password: ['La contraseña actual es incorrecta.'] });
      expect(await t.login('mflores', 'PortalDemo1')).toBeTruthy();
    });

    it('changes the password: the new one signs in, the old one does not, other sessions end, this one continues', async () => {
      const other = await t.login('mflores');
      const token = await t.login('mflores');
      const res = await t.call(token, 'POST', url(), {
        current_password: 'PortalDemo1',
        new_password: 'NuevaClave2025',
        password_confirmation: 'NuevaClave2025',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        status: true,
        title: 'Contraseña actualizada',
        message: 'Recuerda anotar tu contraseña en un lugar seguro',
      });
      const fresh = res.json().data.token as string;
      expect((await t.call(other, 'GET', '/api/tickets/last-three')).statusCode).toBe(401);
      expect((await t.call(token, 'GET', '/api/tickets/last-three')).statusCode).toBe(401);
      expect((await t.call(fresh, 'GET', '/api/tickets/last-three')).statusCode).toBe(200);
      const old = await t.call(null, 'POST', '/api/login', { username: 'mflores', password: 'PortalDemo1' });
      expect(old.statusCode).toBe(401);
      expect(await t.login('mflores', 'NuevaClave2025')).toBeTruthy();
    });

    it("refuses an agent changing another user's password", async () => {
      const res = await t.call(agente, 'POST', `/api/users/change-password/${ids.lmartinez}`, {
        current_password: 'PortalDemo1',
        new_password: 'Hackeada2025',
        password_confirmation: 'Hackeada2025',
      });
      expect(res.statusCode).toBe(403);
      expect(await t.login('lmartinez', 'PortalDemo1')).toBeTruthy();
    });

    it("lets the users section change another user's password after confirming its own, ending their sessions", async () => {
      const victim = await t.login('lmartinez');
      const wrong = await t.call(admin, 'POST', `/api/users/change-password/${ids.lmartinez}`, {
        current_password: 'PortalDemo1',
        new_password: 'Temporal2025',
        password_confirmation: 'Temporal2025',
      });
      expect(wrong.statusCode).toBe(422);
      const res = await t.call(admin, 'POST', `/api/users/change-password/${ids.lmartinez}`, {
        current_password: 'PortalAdmin1',
        new_password: 'Temporal2025',
        password_confirmation: 'Temporal2025',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toBeUndefined();
      expect((await t.call(victim, 'GET', '/api/tickets/last-three')).statusCode).toBe(401);
      expect((await t.call(admin, 'GET', '/api/tickets/last-three')).statusCode).toBe(200);
      expect(await t.login('lmartinez', 'Temporal2025')).toBeTruthy();
    });
  });

  describe('avatar', () => {
    it('answers the in-house default until the user uploads one', async () => {
      const res = await t.call(agente, 'GET', `/api/images/${ids.agente}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: true, url: '/api/avatars/default.svg' });
      const svg = await t.app.inject({ method: 'GET', url: '/api/avatars/default.svg' });
      expect(svg.statusCode).toBe(200);
      expect(svg.headers['content-type']).toMatch(/image\/svg\+xml/);
      expect(svg.body).toContain('<svg');
      expect((await t.call(agente, 'GET', '/api/images/999999')).statusCode).toBe(404);
      expect((await t.call(null, 'GET', `/api/images/${ids.agente}`)).statusCode).toBe(401);
    });

    it('stores a re-encoded copy of an uploaded PNG and serves it at the new URL', async () => {
      const form = multipart('foto.png', 'image/png', PNG_1PX);
      const upload = await t.app.inject({
        method: 'POST',
        url: `/api/users/${ids.agente}/avatar`,
        payload: form.payload,
        headers: { ...form.headers, authorization: `Bearer ${agente}` },
      });
      expect(upload.statusCode, upload.body).toBe(200);
      const { url } = upload.json();
      expect(url).toMatch(/^\/api\/avatars\/[0-9a-f-]{36}\.webp$/);
      expect((await t.call(admin, 'GET', `/api/images/${ids.agente}`)).json().url).toBe(url);
      const image = await t.app.inject({ method: 'GET', url });
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/webp');
      const meta = await sharp(image.rawPayload).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', 1, 1]);
    });

    const upload = (bytes: Buffer | string, contentType: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/users/${ids.agente}/avatar`,
        payload: bytes,
        headers: { 'content-type': contentType, authorization: `Bearer ${agente}` },
      });

    it('shrinks a large photo to 512 px and drops its metadata (EXIF, location)', async () => {
      const photo = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#1c4e80' } })
        .jpeg()
        .withExif({ IFD0: { Copyright: 'secreto', Artist: 'Lucía' } })
        .toBuffer();
      expect((await sharp(photo).metadata()).exif).toBeDefined();
      const form = multipart('foto.jpg', 'image/jpeg', photo);
      const res = await upload(form.payload, form.headers['content-type']);
      expect(res.statusCode, res.body).toBe(200);
      const stored = await t.app.inject({ method: 'GET', url: res.json().url });
      const meta = await sharp(stored.rawPayload).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', 512, 384]);
      expect(meta.exif).toBeUndefined();
      expect(stored.rawPayload.includes(Buffer.from('secreto'))).toBe(false);
    });

    it('refuses a corrupt or truncated image with a Spanish 422 and keeps the current avatar', async () => {
      const before = (await t.call(agente, 'GET', `/api/images/${ids.agente}`)).json().url;
      const good = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#ff0000' } })
        .png()
        .toBuffer();
      const corrupt = Buffer.concat([good.subarray(0, 40), Buffer.alloc(200, 0x41), good.subarray(240)]);
      for (const bytes of [corrupt, good.subarray(0, good.length - 30), PNG_1PX.subarray(0, 20)]) {
        const form = multipart('foto.png', 'image/png', bytes);
        const res = await upload(form.payload, form.headers['content-type']);
        expect(res.statusCode, res.body).toBe(422);
        expect(res.json()).toEqual({
          status: false,
          message: 'La imagen está dañada o no es una imagen PNG, JPG o WebP válida.',
        });
      }
      expect((await t.call(agente, 'GET', `/api/images/${ids.agente}`)).json().url).toBe(before);
    });

    it('answers a multipart body without boundary, truncated or empty with a Spanish 4xx', async () => {
      const form = multipart('foto.png', 'image/png', PNG_1PX);
      const cases: [Buffer | string, string][] = [
        ['xx', 'multipart/form-data'],
        ['xx', 'multipart/form-data; boundary='],
        [form.payload.subarray(0, 60), form.headers['content-type']],
        [form.payload.subarray(0, form.payload.length - 20), form.headers['content-type']],
        ['', form.headers['content-type']],
        ['--x--\r\n', 'multipart/form-data; boundary=x'],
      ];
      for (const [payload, type] of cases) {
        const res = await upload(payload, type);
        expect(res.statusCode, `${type} ${res.body}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode).toBeLessThan(500);
        expect(res.json().status).toBe(false);
        expect(res.json().message).toMatch(/imagen|formulario|solicitud|Selecciona/i);
      }
      expect((await t.call(null, 'GET', '/api/healthz')).statusCode).toBe(200);
    });

    it('refuses a file that is not an image, whatever its name, and another user’s avatar', async () => {
      const fake = multipart('foto.png', 'image/png', Buffer.from('<script>alert(1)</script>'));
      const bad = await t.app.inject({
        method: 'POST',
        url: `/api/users/${ids.agente}/avatar`,
        payload: fake.payload,
        headers: { ...fake.headers, authorization: `Bearer ${agente}` },
      });
      expect(bad.statusCode).toBe(415);
      expect(bad.json()).toEqual({ status: false, message: 'Formato inválido' });
      const png = multipart('foto.png', 'image/png', PNG_1PX);
      const other = await t.app.inject({
        method: 'POST',
        url: `/api/users/${ids.supervisor}/avatar`,
        payload: png.payload,
        headers: { ...png.headers, authorization: `Bearer ${agente}` },
      });
      expect(other.statusCode).toBe(403);
      const big = multipart('grande.png', 'image/png', Buffer.concat([PNG_1PX, Buffer.alloc(2 * 1024 * 1024)]));
      const tooLarge = await t.app.inject({
        method: 'POST',
        url: `/api/users/${ids.agente}/avatar`,
        payload: big.payload,
        headers: { ...big.headers, authorization: `Bearer ${agente}` },
      });
      expect(tooLarge.statusCode).toBe(413);
      expect(tooLarge.json().message).toBe('La imagen no puede superar 2 MB.');
      expect((await t.app.inject({ method: 'GET', url: '/api/avatars/..%2F..%2Fportal.sqlite' })).statusCode).toBe(404);
    });
  });
});
