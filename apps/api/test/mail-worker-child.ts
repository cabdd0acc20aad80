/**
 * A process that only sends the outbox, as one of the portal's processes does: the kill -9 test
 * (mail-outbox-kill.test.ts) starts it on the test's database and kills it mid-send.
 * Env: DATABASE_URL (PostgreSQL) or SQLITE_FILE, SMTP_URL, LEASE_MS, BATCH_SIZE.
 */
import { createDatabase } from '../src/db/database.ts';
import { createMailer } from '../src/lib/mailer.ts';
import { createMailOutboxRepository } from '../src/modules/mail/mail-outbox.repository.ts';
import { createMailOutboxWorker } from '../src/modules/mail/mail-outbox.worker.ts';
import { createTicketMail } from '../src/modules/mail/ticket-mail.ts';

const env = process.env;
const database = createDatabase({
  databaseUrl: env.DATABASE_URL || undefined,
  sqliteFile: env.SQLITE_FILE ?? '',
  poolSize: 4,
});
const log = { info() {}, warn() {}, error: (...args: unknown[]) => console.error(...args) };
const from = 'Portal de tickets <portal@empresa.mx>';
const worker = createMailOutboxWorker({
  outbox: createMailOutboxRepository(database),
  mailer: createMailer({ smtpUrl: env.SMTP_URL, from, outboxDir: '/nonexistent', log }),
  composeDigest: createTicketMail({ publicUrl: 'http://localhost', from, replyAddress: undefined, secret: 'x' })
    .composeDigest,
  log,
  pollMs: 50,
  retryBaseMs: 100,
  leaseMs: Number(env.LEASE_MS ?? 1000),
  batchSize: Number(env.BATCH_SIZE ?? 10),
});
worker.start();
console.log('ready');
