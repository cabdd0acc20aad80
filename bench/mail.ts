/**
 * E-mail both ways, at a small size:
 *
 * - out: 1,000 notification mails queued at once, delivered by one process's outbox worker to
 *   the in-process smtp-server receiver (goal: ≤ 10 s);
 * - an event's mail: tickets assigned one at a time through the API, from the answer to the
 *   assignment mail's arrival at the receiver (goal: within 2 s of the commit);
 * - in: 500 messages (new tickets and replies) put in a throwaway Dovecot's mailbox and read by
 *   the mail-in poller (goal: ≤ 30 s).
 *
 *   npx tsx bench/mail.ts [--mails 1000] [--messages 500] [--dialect sqlite|postgres|both]
 *
 * PostgreSQL databases are created on TEST_PG_ADMIN_URL (as the API tests do) and dropped after.
 */
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { parseArgs } from 'node:util';
import { startDovecot } from '../apps/api/test/dovecot.ts';
import { createTestApp, dialects, type TestApp, type TestDialect } from '../apps/api/test/helper.ts';
import { startSmtpReceiver } from '../apps/api/test/smtp-receiver.ts';

const { values: args } = parseArgs({
  options: {
    mails: { type: 'string', default: '1000' },
    messages: { type: 'string', default: '500' },
    dialect: { type: 'string', default: 'both' },
  },
});
const mails = Number(args.mails);
const messages = Number(args.messages);
const chosen = dialects.filter((d) => args.dialect === 'both' || args.dialect === d);

/** Tickets assigned one at a time to time an event's mail. */
const EVENT_MAILS = 20;

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function outbound(dialect: TestDialect): Promise<void> {
  const smtp = await startSmtpReceiver();
  const t = await createTestApp(dialect, {
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Portal de tickets <portal@empresa.mx>',
    MAIL_POLL_MS: '3600000',
  });
  try {
    await t.services.mailWorker.stop();
    const { ticketMail, mailOutbox, database } = t.services;
    await database.db.transaction().execute(async (trx) => {
      for (let i = 0; i < mails; i++) {
        const mail = ticketMail.compose({
          ticketId: 1,
          ticketName: 'Báscula descalibrada Nuevo Laredo',
          recipientName: 'Diego',
          message: 'Nueva actividad en un ticket tuyo',
          actorName: 'Lucía Martínez',
          detail: `Se recalibró con la pesa patrón (${i})`,
        });
        await mailOutbox.enqueue({ userId: null, ticketId: 1, to: `dest${i}@empresa.mx`, ...mail }, trx);
      }
    });
    const started = performance.now();
    await t.services.mailWorker.runOnce();
    const elapsed = performance.now() - started;
    const counts = await mailOutbox.countByStatus();
    console.log(
      `${dialect}: ${mails} mails out in ${seconds(elapsed)} (${Math.round((mails / elapsed) * 1000)}/s); ` +
        `received ${smtp.mails.length}, sent ${counts.sent}, failed ${counts.failed} (goal ≤ 10 s)`,
    );

    t.services.mailWorker.start();
    const admin = await t.login('admin');
    const agente = await database.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'agente')
      .executeTakeFirstOrThrow();
    const delays: number[] = [];
    for (let i = 0; i < EVENT_MAILS; i++) {
      const created = await t.call(admin, 'POST', '/api/tickets/create', {
        name: `Falla de prueba ${i}`,
        description: 'Sin energía en el andén',
        area_id: 1,
        project_id: 1,
        category_id: 1,
        priority_type_id: 1,
        difficulty_id: 1,
        status_id: 1,
      });
      const id = (JSON.parse(created.body) as { data: { id: number } }).data.id;
      const assigned = await t.call(admin, 'PATCH', `/api/tickets/${id}/assign/${agente.id}`);
      if (assigned.statusCode !== 200) throw new Error(`assign: ${assigned.statusCode} ${assigned.body}`);
      const answered = performance.now();
      await smtp.waitFor((m) => m.subject === `[Ticket #${id}] Falla de prueba ${i}`, 10_000);
      delays.push(performance.now() - answered);
    }
    delays.sort((a, b) => a - b);
    console.log(
      `${dialect}: an assignment's mail at the receiver after the answer: median ${seconds(delays[delays.length >> 1]!)}, ` +
        `slowest of ${EVENT_MAILS} ${seconds(delays.at(-1)!)} (goal ≤ 2 s)`,
    );
  } finally {
    await t.close();
    await smtp.close();
  }
}

async function inbound(dialect: TestDialect): Promise<void> {
  const dovecot = await startDovecot();
  let t: TestApp | undefined;
  try {
    t = await createTestApp(dialect, {
      MAIL_FROM: 'Portal de tickets <portal@empresa.mx>',
      MAIL_REPLY_ADDRESS: 'soporte@empresa.mx',
      MAIL_IN_URL: dovecot.url,
      MAIL_IN_POLL_MS: '3600000',
    });
    await t.services.mailInPoller!.pollOnce();
    const { email } = await t.services.database.db
      .selectFrom('users')
      .select('email')
      .where('username', '=', 'supervisor')
      .executeTakeFirstOrThrow();
    const replyTo = t.services.ticketMail.replyAddress(1)!;
    for (let i = 0; i < messages; i++) {
      const reply = i % 2 === 1;
      const raw = await new MailComposer({
        from: email,
        to: reply ? replyTo : 'soporte@empresa.mx',
        subject: reply ? 'RE: [Ticket #1]' : `Falla número ${i} en el andén`,
        text: `Mensaje ${i}: revisar el equipo.\n\n-- \nSupervisor`,
        messageId: `<bench.${dialect}.${i}@cliente.example>`,
      })
        .compile()
        .build();
      await dovecot.append(raw);
    }
    const started = performance.now();
    await t.services.mailInPoller!.pollOnce();
    const elapsed = performance.now() - started;
    const status = await t.services.mailIn.status(true);
    console.log(
      `${dialect}: ${messages} messages in in ${seconds(elapsed)} (${Math.round((messages / elapsed) * 1000)}/s); ` +
        `processed ${status.counts.processed}, rejected ${status.counts.rejected}, errors ${status.counts.error} (goal ≤ 30 s)`,
    );
  } finally {
    await t?.close();
    await dovecot.stop();
  }
}

for (const dialect of chosen) {
  await outbound(dialect);
  await inbound(dialect);
}
