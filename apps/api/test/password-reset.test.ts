import { PASSWORD_RESET_MSG } from '@portal/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashPassword } from '../src/lib/passwords.ts';
import { createTestApp, dialects, type TestApp } from './helper.ts';
import { startSmtpReceiver, type ReceivedMail, type SmtpReceiver } from './smtp-receiver.ts';

const SEND = '/api/password/send-reset-code';
const VERIFY = '/api/password/verify-reset-code';
const RESET = '/api/password/reset-password';
const CODE_SUBJECT = 'Código para restablecer tu contraseña';
const MINUTE = 60_000;

describe.each(dialects)('password recovery by e-mail on %s', (dialect) => {
  let t: TestApp;
  let smtp: SmtpReceiver;
  let lastIp = 0;
  /** Each test speaks from its own address, so the per-address limits of one test do not touch another. */
  const freshIp = () => `10.6.${Math.floor(++lastIp / 250)}.${(lastIp % 250) + 1}`;

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    t = await createTestApp(dialect, { SMTP_URL: smtp.url, MAIL_FROM: 'Portal de tickets <no-reply@portal.test>' });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const post = (url: string, body: unknown, ip: string) =>
    t.app.inject({ method: 'POST', url, payload: body as object, remoteAddress: ip });

  /** Asks for a code and reads it from the mail the SMTP server received. */
  async function requestCode(email: string, ip = freshIp()): Promise<{ code: string; mail: ReceivedMail }> {
    const before = smtp.mails.length;
    const res = await post(SEND, { email }, ip);
    expect(res.statusCode, res.body).toBe(200);
    const mail = await smtp.waitFor(
      (m) => smtp.mails.indexOf(m) >= before && m.to.includes(email.toLowerCase()) && m.subject === CODE_SUBJECT,
    );
    const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
    expect(code, mail.text).toBeDefined();
    return { code: code!, mail };
  }

  const otherCode = (code: string, shift = 1) => String((Number(code) + shift) % 1_000_000).padStart(6, '0');

  async function createUser(username: string, email: string) {
    const now = new Date().toISOString();
    await t.services.database.db
      .insertInto('users')
      .values({
        name: 'Prueba',
        last_name: 'Recuperación',
        username,
        email,
        password_hash: await hashPassword('PortalDemo1'),
        role_id: 3,
        status_id: 1,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }

  const auditEvents = async (event: string) =>
    t.services.database.db.selectFrom('audit_log').selectAll().where('event', '=', event).execute();

  const signIn = (username: string, password: string, ip = freshIp()) => post('/api/login', { username, password }, ip);

  it('recovers a forgotten password end to end through a real SMTP server', async () => {
    const ip = freshIp();
    const sessionA = await t.login('agente');
    const sessionB = await t.login('agente');

    const { code, mail } = await requestCode('Agente@Portal.Local', ip);
    expect(mail.from).toBe('no-reply@portal.test');
    expect(mail.to).toEqual(['agente@portal.local']);
    expect(mail.text).toContain(`Tu código de verificación es: ${code}`);
    expect(mail.text).toContain('vence en 10 minutos');
    expect(mail.html).toContain(code);
    expect(mail.html).toContain('lang="es"');

    const stored = await t.services.database.db.selectFrom('password_reset_codes').selectAll().execute();
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(code);

    const verified = await post(VERIFY, { email: 'agente@portal.local', token: code }, ip);
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toMatchObject({ status: true, message: PASSWORD_RESET_MSG.codeVerified });
    const resetToken = verified.json().reset_token as string;
    expect(resetToken).toMatch(/^[\w-]{40,}$/);

    const again = await post(VERIFY, { email: 'agente@portal.local', token: code }, ip);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ status: false, message: PASSWORD_RESET_MSG.invalidCode });

    const body = {
      email: 'agente@portal.local',
      reset_token: resetToken,
      password: 'Recuperada2025',
      password_confirmation: 'Recuperada2025',
    };
    const reset = await post(RESET, body, ip);
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json()).toEqual({ status: true, message: PASSWORD_RESET_MSG.passwordReset });

    for (const old of [sessionA, sessionB]) {
      const res = await t.call(old, 'POST', '/api/user-permissions', {});
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toMatch(/sesión/i);
    }
    const reused = await post(
      RESET,
      { ...body, password: 'OtraClave2025', password_confirmation: 'OtraClave2025' },
      ip,
    );
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toEqual({ status: false, message: PASSWORD_RESET_MSG.invalidResetToken });

    expect((await signIn('agente', 'PortalDemo1')).statusCode).toBe(401);
    expect((await signIn('agente', 'OtraClave2025')).statusCode).toBe(401);
    const fresh = await signIn('agente', 'Recuperada2025');
    expect(fresh.statusCode).toBe(200);
    expect((await t.call(fresh.json().data.token, 'POST', '/api/user-permissions', {})).statusCode).toBe(200);

    const notice = await smtp.waitFor(
      (m) => m.to.includes('agente@portal.local') && m.subject === 'Tu contraseña fue cambiada',
    );
    expect(notice.text).toContain('"agente"');
    expect(notice.text).toContain(ip);
    expect(notice.text).toMatch(/cerramos todas las sesiones/);

    for (const event of ['requested', 'code_sent', 'code_verified', 'completed']) {
      expect(await auditEvents(`password_reset.${event}`), event).not.toHaveLength(0);
    }
  });

  it('a new request replaces the earlier code', async () => {
    const first = await requestCode('lucia.martinez@portal.local');
    const second = await requestCode('lucia.martinez@portal.local');
    const ip = freshIp();
    if (first.code !== second.code) {
      const old = await post(VERIFY, { email: 'lucia.martinez@portal.local', token: first.code }, ip);
      expect(old.statusCode).toBe(400);
    }
    const current = await post(VERIFY, { email: 'lucia.martinez@portal.local', token: second.code }, ip);
    expect(current.statusCode).toBe(200);
    const rows = await t.services.database.db
      .selectFrom('password_reset_codes')
      .innerJoin('users', 'users.id', 'password_reset_codes.user_id')
      .select('password_reset_codes.id')
      .where('users.username', '=', 'lmartinez')
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('kills a code after five wrong tries, even for the right code afterwards', async () => {
    const email = 'jorge.castillo@portal.local';
    const { code } = await requestCode(email);
    const ip = freshIp();
    for (let i = 1; i <= 5; i++) {
      const res = await post(VERIFY, { email, token: otherCode(code, i) }, ip);
      expect(res.statusCode, `try ${i}`).toBe(400);
      expect(res.json()).toEqual({ status: false, message: PASSWORD_RESET_MSG.invalidCode });
    }
    const dead = await post(VERIFY, { email, token: code }, ip);
    expect(dead.statusCode).toBe(400);
    expect(dead.json().message).toBe(PASSWORD_RESET_MSG.invalidCode);

    const row = await t.services.database.db
      .selectFrom('password_reset_codes')
      .innerJoin('users', 'users.id', 'password_reset_codes.user_id')
      .select(['attempts', 'reset_token_hash'])
      .where('users.username', '=', 'jcastillo')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ attempts: 5, reset_token_hash: null });
    const failures = (await auditEvents('password_reset.verify_failure')).filter((e) => e.username === 'jcastillo');
    expect(failures.map((e) => JSON.parse(e.detail!).reason)).toEqual([
      ...Array(5).fill('wrong_code'),
      'too_many_attempts',
    ]);

    const renewed = await requestCode(email);
    expect((await post(VERIFY, { email, token: renewed.code }, ip)).statusCode).toBe(200);
  });

  it('still accepts the right code after four wrong tries', async () => {
    const email = 'mariana.flores@portal.local';
    const { code } = await requestCode(email);
    const ip = freshIp();
    for (let i = 1; i <= 4; i++)
      expect((await post(VERIFY, { email, token: otherCode(code, i) }, ip)).statusCode).toBe(400);
    expect((await post(VERIFY, { email, token: code }, ip)).statusCode).toBe(200);
  });

  it('refuses a code after ten minutes and a reset token after ten more (clock moved, not waited)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const email = 'supervisor@portal.local';
    const ip = freshIp();
    const expiring = await requestCode(email);
    vi.setSystemTime(Date.now() + 10 * MINUTE + 1000);
    const late = await post(VERIFY, { email, token: expiring.code }, ip);
    expect(late.statusCode).toBe(400);
    expect(late.json().message).toBe(PASSWORD_RESET_MSG.invalidCode);
    expect(JSON.parse((await auditEvents('password_reset.verify_failure')).at(-1)!.detail!).reason).toBe('expired');

    const { code } = await requestCode(email);
    vi.setSystemTime(Date.now() + 9 * MINUTE);
    const verified = await post(VERIFY, { email, token: code }, ip);
    expect(verified.statusCode).toBe(200);
    vi.setSystemTime(Date.now() + 10 * MINUTE + 1000);
    const reset = await post(
      RESET,
      {
        email,
        reset_token: verified.json().reset_token,
        password: 'Tardia12345',
        password_confirmation: 'Tardia12345',
      },
      ip,
    );
    expect(reset.statusCode).toBe(400);
    expect(reset.json().message).toBe(PASSWORD_RESET_MSG.invalidResetToken);
    vi.useRealTimers();
    expect((await signIn('supervisor', 'PortalDemo1')).statusCode).toBe(200);
  });

  it('answers an unknown address exactly like a known one, without waiting for the delivery, and sends nothing', async () => {
    // The code's mail is held at the SMTP edge: an answer that waited for the account's work
    // (lookup, code, mail) would wait for it, and could then tell a known address by its time.
    const { send } = t.services.mailer;
    const mailsToAdmin = () => smtp.mails.filter((m) => m.to.includes('admin@portal.local')).length;
    const mailedBefore = mailsToAdmin();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const sending = vi.spyOn(t.services.mailer, 'send').mockImplementation(async (mail) => {
      await held;
      return send(mail);
    });
    try {
      const known = await post(SEND, { email: 'admin@portal.local' }, freshIp());
      expect(known.json()).toEqual({ status: true, message: PASSWORD_RESET_MSG.codeSent });
      await vi.waitFor(() => expect(sending).toHaveBeenCalledTimes(1));
      for (let i = 0; i < 3; i++) {
        const unknown = await post(SEND, { email: `nadie${i}@portal.local` }, freshIp());
        expect(unknown.statusCode).toBe(known.statusCode);
        expect(unknown.body).toBe(known.body);
      }
      expect(mailsToAdmin()).toBe(mailedBefore);
    } finally {
      release();
      sending.mockRestore();
    }
    await t.services.passwordReset.settle();
    await vi.waitFor(() => expect(mailsToAdmin()).toBe(mailedBefore + 1));
    expect(smtp.mails.filter((m) => m.to.some((to) => to.startsWith('nadie')))).toHaveLength(0);
    expect((await auditEvents('password_reset.unknown_email')).length).toBeGreaterThanOrEqual(3);

    const ip = freshIp();
    const wrongKnown = await post(VERIFY, { email: 'admin@portal.local', token: '000000' }, ip);
    const wrongUnknown = await post(VERIFY, { email: 'nadie0@portal.local', token: '000000' }, ip);
    expect(wrongUnknown.statusCode).toBe(400);
    expect(wrongUnknown.body).toBe(wrongKnown.body);
    const resetBody = {
      reset_token: 'x'.repeat(43),
      password: 'Cualquiera123',
      password_confirmation: 'Cualquiera123',
    };
    const resetKnown = await post(RESET, { ...resetBody, email: 'admin@portal.local' }, ip);
    const resetUnknown = await post(RESET, { ...resetBody, email: 'nadie0@portal.local' }, ip);
    expect(resetUnknown.statusCode).toBe(400);
    expect(resetUnknown.body).toBe(resetKnown.body);
  });

  it('sends no code to an inactive account, with the same answer', async () => {
    await createUser('inactivo', 'inactivo@portal.local');
    await t.services.database.db
      .updateTable('users')
      .set({ status_id: 2 })
      .where('username', '=', 'inactivo')
      .execute();
    const res = await post(SEND, { email: 'inactivo@portal.local' }, freshIp());
    expect(res.json()).toEqual({ status: true, message: PASSWORD_RESET_MSG.codeSent });
    await t.services.passwordReset.settle();
    expect(smtp.mails.filter((m) => m.to.includes('inactivo@portal.local'))).toHaveLength(0);
  });

  it('answers the same when the mail server refuses the message, and audits the failure', async () => {
    await createUser('rebote', 'rebote@portal.local');
    smtp.refuse('rebote@portal.local');
    const res = await post(SEND, { email: 'rebote@portal.local' }, freshIp());
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(PASSWORD_RESET_MSG.codeSent);
    await t.services.passwordReset.settle();
    expect((await auditEvents('password_reset.mail_failed')).map((e) => e.username)).toContain('rebote');
  });

  it('rejects bad input with Spanish 422 errors', async () => {
    const ip = freshIp();
    const badEmail = await post(SEND, { email: 'no-es-correo' }, ip);
    expect(badEmail.statusCode).toBe(422);
    expect(badEmail.json()).toMatchObject({ status: false, message: 'Error de validación' });
    expect(badEmail.json().errors.email).toEqual(['El formato del correo es inválido']);

    for (const token of ['12345', '1234567', '12a456', '', 123456]) {
      const res = await post(VERIFY, { email: 'admin@portal.local', token }, ip);
      expect(res.statusCode, String(token)).toBe(422);
      expect(res.json().errors.token).toEqual(['Debes ingresar un código de 6 dígitos.']);
    }

    const mismatch = await post(
      RESET,
      { email: 'admin@portal.local', reset_token: 'abc', password: 'Nueva12345', password_confirmation: 'Nueva54321' },
      ip,
    );
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json().errors.password_confirmation).toEqual(['Las contraseñas no coinciden']);

    const short = await post(
      RESET,
      { email: 'admin@portal.local', reset_token: 'abc', password: 'corta', password_confirmation: 'corta' },
      ip,
    );
    expect(short.statusCode).toBe(422);
    expect(short.json().errors.password).toEqual(['La contraseña debe tener al menos 8 caracteres.']);
    expect((await post(RESET, {}, ip)).statusCode).toBe(422);
  });

  it('limits code requests per e-mail and per address with 429 and Retry-After, then recovers after the window', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    await createUser('cuota', 'cuota@portal.local');
    for (const email of ['cuota@portal.local', 'cuota-nadie@portal.local']) {
      for (let i = 0; i < 3; i++) expect((await post(SEND, { email }, freshIp())).statusCode).toBe(200);
      const refused = await post(SEND, { email }, freshIp());
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({
        status: false,
        message: 'Demasiados intentos. Vuelve a intentarlo en 15 minutos.',
      });
      expect(refused.headers['retry-after']).toBe('900');
    }
    await t.services.passwordReset.settle();
    expect(smtp.mails.filter((m) => m.to.includes('cuota@portal.local'))).toHaveLength(3);

    const ip = freshIp();
    for (let i = 0; i < 10; i++) expect((await post(SEND, { email: `dir${i}@portal.local` }, ip)).statusCode).toBe(200);
    const byAddress = await post(SEND, { email: 'otra@portal.local' }, ip);
    expect(byAddress.statusCode).toBe(429);
    expect(Number(byAddress.headers['retry-after'])).toBeGreaterThan(0);

    const throttled = await auditEvents('password_reset.throttled');
    expect(throttled.map((e) => JSON.parse(e.detail!).limit)).toEqual(
      expect.arrayContaining(['reset-code-email', 'reset-code-address']),
    );

    vi.setSystemTime(Date.now() + 15 * MINUTE + 1000);
    expect((await post(SEND, { email: 'otra@portal.local' }, ip)).statusCode).toBe(200);
    await requestCode('cuota@portal.local');
    await t.services.passwordReset.settle();
  });

  it('limits code guesses per address', async () => {
    const ip = freshIp();
    for (let i = 0; i < 20; i++) {
      expect((await post(VERIFY, { email: `adivina${i}@portal.local`, token: '123456' }, ip)).statusCode).toBe(400);
    }
    const refused = await post(VERIFY, { email: 'admin@portal.local', token: '123456' }, ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(await auditEvents('password_reset.verify_throttled')).toHaveLength(1);
  });

  it('a password reset lifts the sign-in block an attacker caused', async () => {
    await createUser('bloqueado', 'bloqueado@portal.local');
    for (let i = 0; i < 5; i++) expect((await signIn('bloqueado', `Adivino${i}xx`)).statusCode).toBe(401);
    const blocked = await signIn('bloqueado', 'PortalDemo1');
    expect(blocked.statusCode).toBe(429);

    const { code } = await requestCode('bloqueado@portal.local');
    const ip = freshIp();
    const verified = await post(VERIFY, { email: 'bloqueado@portal.local', token: code }, ip);
    const reset = await post(
      RESET,
      {
        email: 'bloqueado@portal.local',
        reset_token: verified.json().reset_token,
        password: 'Desbloqueo2025',
        password_confirmation: 'Desbloqueo2025',
      },
      ip,
    );
    expect(reset.statusCode).toBe(200);
    expect((await signIn('bloqueado', 'Desbloqueo2025')).statusCode).toBe(200);
  });
});
