import { SECTIONS } from '@portal/contract';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import type Mail from 'nodemailer/lib/mailer/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDovecot, type Dovecot } from './dovecot.ts';
import { createTestApp, dialects, ticketBody, type TestApp } from './helper.ts';

const MAIL_FROM = 'Portal de tickets <portal@empresa.mx>';
const OWN_DOMAIN = 'empresa.mx';

/** The smallest valid PNG (1×1), as a phone's photo would be sniffed. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

let sequence = 0;
/** A raw RFC 5322 message, written by nodemailer's composer as a mail program would. */
async function message(options: Mail.Options & { id?: string }): Promise<Buffer> {
  sequence += 1;
  const { id, ...mail } = options;
  return new MailComposer({
    to: 'soporte@empresa.mx',
    messageId: id ?? `<m${sequence}.${Date.now()}@cliente.example>`,
    date: new Date(),
    ...mail,
  })
    .compile()
    .build();
}

let dovecot: Dovecot;
beforeAll(async () => {
  dovecot = await startDovecot();
});
afterAll(async () => {
  await dovecot?.stop();
});

describe.each(dialects)('mail in on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  const email: Record<string, string> = {};
  const id: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp(dialect, {
      MAIL_FROM,
      MAIL_REPLY_ADDRESS: 'soporte@empresa.mx',
      PUBLIC_URL: 'https://portal.empresa.mx',
      MAIL_IN_URL: dovecot.url,
      // The tests poll when they have put their messages in the mailbox.
      MAIL_IN_POLL_MS: '3600000',
    });
    admin = await t.login('admin');
    for (const user of await t.services.database.db.selectFrom('users').select(['id', 'username', 'email']).execute()) {
      email[user.username] = user.email;
      id[user.username] = user.id;
    }
    // Whatever the previous dialect's run left in the mailbox is read now.
    await poll();
  });
  afterAll(async () => {
    await t?.close();
  });

  const poll = () => t.services.mailInPoller!.pollOnce();
  const inbox = (messageId: string) =>
    t.services.database.db.selectFrom('mail_inbox').selectAll().where('message_id', '=', messageId).executeTakeFirst();
  const ticketsNamed = (name: string) =>
    t.services.database.db.selectFrom('tickets').selectAll().where('name', '=', name).execute();
  const activitiesOf = (ticketId: number) =>
    t.services.database.db
      .selectFrom('activities')
      .selectAll()
      .where('ticket_id', '=', ticketId)
      .orderBy('id')
      .execute();

  async function newTicket(name: string, assignee?: string): Promise<number> {
    const res = await t.call(admin, 'POST', '/api/tickets/create', ticketBody(name, `Descripción de ${name}`));
    expect(res.statusCode, res.body).toBe(201);
    const ticketId = res.json().data.id as number;
    if (assignee) {
      const assigned = await t.call(admin, 'PATCH', `/api/tickets/${ticketId}/assign/${id[assignee]}`);
      expect(assigned.statusCode, assigned.body).toBe(200);
    }
    return ticketId;
  }

  it('turns a reply to the ticket address into an activity by its sender, with its attachment, and files it in Procesados', async () => {
    const ticketId = await newTicket('Báscula descalibrada Nuevo Laredo', 'agente');
    const replyTo = t.services.ticketMail.replyAddress(ticketId)!;
    const messageId = `<reply.${dialect}.1@cliente.example>`;
    await dovecot.append(
      await message({
        id: messageId,
        from: `Diego Agente <${email.agente}>`,
        to: replyTo,
        subject: `RE: [Ticket #${ticketId}] Báscula descalibrada Nuevo Laredo`,
        text: [
          'Ya calibré la báscula; adjunto la foto del ticket de prueba.',
          '',
          '--',
          'Diego, almacén Nuevo Laredo',
          '',
          `El jue, 26 nov 2026 a las 10:00, Portal de tickets <portal@${OWN_DOMAIN}> escribió:`,
          '> Se te ha asignado un nuevo ticket',
          '> Ver el ticket',
        ].join('\n'),
        attachments: [{ filename: 'calibracion.png', content: PNG }],
      }),
    );
    const before = await dovecot.count('Procesados');
    await poll();
    expect(await dovecot.count('Procesados')).toBe(before + 1);
    expect(await dovecot.count('INBOX')).toBe(0);
    const [activity] = await activitiesOf(ticketId);
    expect(activity).toMatchObject({
      name: 'Ya calibré la báscula; adjunto la foto del ticket de prueba.',
      user_id: id.agente,
    });
    const files = await t.services.database.db
      .selectFrom('ticket_attachments')
      .selectAll()
      .where('ticket_id', '=', ticketId)
      .execute();
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({
      name: 'calibracion.png',
      type: 'image/png',
      size: PNG.length,
      uploaded_by: id.agente,
    });
    expect(await inbox(messageId)).toMatchObject({ outcome: 'processed', ticket_id: ticketId });
    // The ticket's creator hears of it as of any activity; the page shows it.
    const page = await t.call(admin, 'GET', `/api/tickets/${ticketId}`);
    expect(page.body).toContain('Ya calibré la báscula');
  });

  it('follows the thread of our mails (In-Reply-To / References) when the reply address was lost', async () => {
    const ticketId = await newTicket('Montacargas sin batería', 'agente');
    const messageId = `<reply.${dialect}.2@cliente.example>`;
    await dovecot.append(
      await message({
        id: messageId,
        from: email.agente,
        to: 'soporte@empresa.mx',
        subject: 'RE: Montacargas',
        inReplyTo: `<t${ticketId}.abc@${OWN_DOMAIN}>`,
        references: [`<ticket-${ticketId}@${OWN_DOMAIN}>`, `<t${ticketId}.abc@${OWN_DOMAIN}>`],
        text: 'Batería cambiada.\n\n> texto citado',
      }),
    );
    await poll();
    expect((await activitiesOf(ticketId)).map((a) => a.name)).toEqual(['Batería cambiada.']);
  });

  it('creates a ticket from a new message of an active user, its text cleaned to the ticket rules', async () => {
    const messageId = `<new.${dialect}.1@cliente.example>`;
    await dovecot.append(
      await message({
        id: messageId,
        from: `Supervisor <${email.supervisor}>`,
        subject: `Rampa "3" dañada! ${dialect} #urgente`,
        text: 'La rampa del andén 3 no baja (revisar hoy).\nGracias\n\n-- \nSupervisor de turno',
        attachments: [{ filename: 'rampa.png', content: PNG }],
      }),
    );
    await poll();
    const [ticket] = await ticketsNamed(`Rampa 3 dañada ${dialect} urgente`);
    expect(ticket).toMatchObject({
      created_by: id.supervisor,
      description: 'La rampa del andén 3 no baja revisar hoy. Gracias',
    });
    expect(await inbox(messageId)).toMatchObject({ outcome: 'processed', ticket_id: ticket!.id });
    const files = await t.services.database.db
      .selectFrom('ticket_attachments')
      .select(['name', 'uploaded_by'])
      .where('ticket_id', '=', ticket!.id)
      .execute();
    expect(files).toEqual([{ name: 'rampa.png', uploaded_by: id.supervisor }]);
  });

  it('refuses unknown senders, a ticket from who may not create one, a reply on a ticket the sender cannot see', async () => {
    const hidden = await newTicket('Ticket ajeno del administrador');
    const unknown = `<refuse.${dialect}.1@cliente.example>`;
    const notAllowed = `<refuse.${dialect}.2@cliente.example>`;
    const cannotSee = `<refuse.${dialect}.3@cliente.example>`;
    await dovecot.append(
      await message({ id: unknown, from: 'alguien@externo.example', subject: `Desconocido ${dialect}`, text: 'Hola' }),
    );
    await dovecot.append(
      await message({
        id: cannotSee,
        from: email.lmartinez,
        to: t.services.ticketMail.replyAddress(hidden)!,
        subject: 'RE: ajeno',
        text: 'Me meto en un ticket que no veo',
      }),
    );
    // Agente loses w on Mis Tickets (and has none on Tickets Generales).
    await t.services.database.db
      .updateTable('sections_permission')
      .set({ w: 0 })
      .where('role_id', '=', 3)
      .where('section_id', 'in', (eb) =>
        eb.selectFrom('sections').select('id').where('name', 'in', [SECTIONS.tickets, SECTIONS.generalTickets]),
      )
      .execute();
    await t.services.permissions.invalidate();
    await dovecot.append(
      await message({ id: notAllowed, from: email.agente, subject: `Sin permiso ${dialect}`, text: 'Hola' }),
    );
    const before = await dovecot.count('Rechazados');
    try {
      await poll();
    } finally {
      await t.services.database.db
        .updateTable('sections_permission')
        .set({ w: 1 })
        .where('role_id', '=', 3)
        .where('section_id', 'in', (eb) => eb.selectFrom('sections').select('id').where('name', '=', SECTIONS.tickets))
        .execute();
      await t.services.permissions.invalidate();
    }
    expect(await dovecot.count('Rechazados')).toBe(before + 3);
    for (const messageId of [unknown, notAllowed, cannotSee])
      expect((await inbox(messageId))?.outcome).toBe('rejected');
    expect(await ticketsNamed(`Desconocido ${dialect}`)).toEqual([]);
    expect(await ticketsNamed(`Sin permiso ${dialect}`)).toEqual([]);
    expect(await activitiesOf(hidden)).toEqual([]);
  });

  it('ignores auto-replies, bounces and our own mails come back', async () => {
    const ticketId = await newTicket('Ticket con respuestas automáticas', 'agente');
    const replyTo = t.services.ticketMail.replyAddress(ticketId)!;
    const base = { from: email.agente, to: replyTo, text: 'Estoy fuera de la oficina' };
    const raws = [
      await message({ ...base, subject: 'Fuera de la oficina', headers: { 'Auto-Submitted': 'auto-replied' } }),
      await message({ ...base, subject: 'Vacaciones', headers: { Precedence: 'bulk' } }),
      await message({ ...base, subject: 'Respuesta', headers: { 'X-Autoreply': 'yes' } }),
      await message({ ...base, from: `Mail Delivery System <MAILER-DAEMON@${OWN_DOMAIN}>`, subject: 'Undelivered' }),
      await message({ ...base, id: `<t${ticketId}.loop@${OWN_DOMAIN}>`, subject: 'Bucle' }),
      Buffer.from(
        [
          `From: ${email.agente}`,
          `To: ${replyTo}`,
          'Subject: Delivery Status Notification',
          `Message-ID: <dsn.${dialect}@cliente.example>`,
          'MIME-Version: 1.0',
          'Content-Type: multipart/report; report-type=delivery-status; boundary="b1"',
          '',
          '--b1',
          'Content-Type: text/plain',
          '',
          'No se pudo entregar.',
          '--b1',
          'Content-Type: message/delivery-status',
          '',
          'Action: failed',
          '--b1--',
          '',
        ].join('\r\n'),
      ),
    ];
    for (const raw of raws) await dovecot.append(raw);
    const before = await dovecot.count('Rechazados');
    await poll();
    expect(await dovecot.count('Rechazados')).toBe(before + raws.length);
    expect(await activitiesOf(ticketId)).toEqual([]);
    const ignored = await t.services.database.db
      .selectFrom('mail_inbox')
      .select('reason')
      .where('outcome', '=', 'ignored')
      .execute();
    expect(ignored.length).toBeGreaterThanOrEqual(raws.length);
  });

  it('processes a message fetched twice only once', async () => {
    const raw = await message({
      id: `<twice.${dialect}@cliente.example>`,
      from: email.supervisor,
      subject: `Mensaje repetido ${dialect}`,
      text: 'Una sola vez',
    });
    await dovecot.append(raw);
    await dovecot.append(raw);
    const before = await dovecot.count('Procesados');
    await poll();
    // And once more later, as when a move did not complete.
    await dovecot.append(raw);
    await poll();
    expect(await ticketsNamed(`Mensaje repetido ${dialect}`)).toHaveLength(1);
    expect(await dovecot.count('Procesados')).toBe(before + 3);
  });

  it('sends a 30 MB and a malformed message to Errores and goes on with the next one', async () => {
    const huge = await message({
      from: email.supervisor,
      subject: 'Enorme',
      text: 'Adjunto enorme',
      attachments: [
        {
          filename: 'enorme.pdf',
          content: Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(30 * 1024 * 1024, 0x41)]),
        },
      ],
    });
    expect(huge.length).toBeGreaterThan(30 * 1024 * 1024);
    await dovecot.append(huge);
    await dovecot.append(Buffer.from('\u0000\u0001\u0002 esto no es un correo \u00ff\r\n'));
    await dovecot.append(
      await message({
        from: email.supervisor,
        subject: `Después de los errores ${dialect}`,
        text: 'Sigue funcionando',
      }),
    );
    const before = await dovecot.count('Errores');
    await poll();
    expect(await dovecot.count('Errores')).toBe(before + 2);
    expect(await ticketsNamed(`Después de los errores ${dialect}`)).toHaveLength(1);
    const status = await t.call(admin, 'GET', '/api/mail-outbox/inbound');
    expect(status.statusCode, status.body).toBe(200);
    const data = status.json().data;
    expect(data.enabled).toBe(true);
    expect(data.last_poll_at).not.toBeNull();
    expect(data.last_error).toMatch(/mal formado/);
    expect(data.counts.error).toBe(2);
    expect(data.counts.processed).toBeGreaterThanOrEqual(4);
    expect(data.counts.rejected).toBe(3);
  });
});
