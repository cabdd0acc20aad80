import type { AddressInfo, Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** The message's headers by lower-case name, unfolded (the last one when repeated). */
  headers: Map<string, string>;
  raw: string;
}

export interface SmtpReceiver {
  /** `smtp://user:pass@127.0.0.1:<port>`, ready for SMTP_URL. */
  url: string;
  mails: ReceivedMail[];
  /** The first mail (already received or still to come) that matches. */
  waitFor(match: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  /** Mails to this address are refused with a 550, as a real server refuses an unknown mailbox. */
  refuse(address: string): void;
  /**
   * Accepts `count` more mails, then holds every next one at MAIL FROM (no answer) until
   * `release()`: the sender is caught mid-send, its mails claimed and unanswered.
   */
  holdAfter(count: number): void;
  /** How many senders are waiting at MAIL FROM. */
  held(): number;
  release(): void;
  close(): Promise<void>;
}

/**
 * A real SMTP server in the test process, on a random port, with AUTH: the API under
 * test talks SMTP to it exactly as it would to a provider.
 */
export async function startSmtpReceiver(
  options: { port?: number; user?: string; pass?: string } = {},
): Promise<SmtpReceiver> {
  const credentials = { user: options.user ?? 'portal', pass: options.pass ?? 'smtp-secret' };
  const mails: ReceivedMail[] = [];
  const refused = new Set<string>();
  let acceptBeforeHold = Infinity;
  let held: (() => void)[] = [];
  const waiters = new Set<{ match: (m: ReceivedMail) => boolean; resolve: (m: ReceivedMail) => void }>();

  const server = new SMTPServer({
    logger: false,
    disabledCommands: ['STARTTLS'],
    disableReverseLookup: true,
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (auth.username === credentials.user && auth.password === credentials.pass)
        return callback(null, { user: auth.username });
      return callback(new Error('Invalid credentials'));
    },
    onMailFrom(_address, _session, callback) {
      if (acceptBeforeHold <= 0) return void held.push(() => callback());
      acceptBeforeHold -= 1;
      callback();
    },
    onRcptTo(address, _session, callback) {
      if (refused.has(address.address.toLowerCase())) {
        return callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const mail = {
          ...parseMessage(raw),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        };
        mails.push(mail);
        for (const w of waiters) {
          if (w.match(mail)) {
            waiters.delete(w);
            w.resolve(mail);
          }
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.server.address() as AddressInfo;
  // Answers go out at once, as a mail provider's do (no waiting on delayed acknowledgements).
  server.server.on('connection', (socket: Socket) => socket.setNoDelay(true));

  return {
    url: `smtp://${credentials.user}:${credentials.pass}@127.0.0.1:${port}`,
    mails,
    waitFor(match, timeoutMs = 10_000) {
      const found = mails.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = { match, resolve: (m: ReceivedMail) => (clearTimeout(timer), resolve(m)) };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error('no matching mail received'));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    refuse: (address) => refused.add(address.toLowerCase()),
    holdAfter(count) {
      acceptBeforeHold = count;
    },
    held: () => held.length,
    release() {
      acceptBeforeHold = Infinity;
      const waiting = held;
      held = [];
      for (const answer of waiting) {
        try {
          answer();
        } catch {
          // Its sender is gone (killed mid-send): nothing to answer.
        }
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Just enough MIME for what nodemailer writes: headers, multipart/alternative, quoted-printable, base64. */
function parseMessage(raw: string): { subject: string; text: string; html: string; headers: Map<string, string> } {
  const { headers, body } = splitHeaders(raw);
  const parts: { type: string; content: string }[] = [];
  collectParts(headers, body, parts);
  return {
    headers,
    subject: decodeWords(headers.get('subject') ?? ''),
    text: parts.find((p) => p.type === 'text/plain')?.content ?? '',
    html: parts.find((p) => p.type === 'text/html')?.content ?? '',
  };
}

function splitHeaders(raw: string): { headers: Map<string, string>; body: string } {
  const normalized = raw.replace(/\r\n/g, '\n');
  const end = normalized.indexOf('\n\n');
  const head = end === -1 ? normalized : normalized.slice(0, end);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body: end === -1 ? '' : normalized.slice(end + 2) };
}

function collectParts(headers: Map<string, string>, body: string, out: { type: string; content: string }[]) {
  const contentType = headers.get('content-type') ?? 'text/plain';
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type.startsWith('multipart/')) {
    const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
    if (!boundary) return;
    for (const chunk of body.split(`--${boundary}`).slice(1)) {
      if (chunk.startsWith('--')) break;
      const part = splitHeaders(chunk.replace(/^\n/, ''));
      collectParts(part.headers, part.body, out);
    }
    return;
  }
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  out.push({ type, content: decodeBody(body, encoding).replace(/\n$/, '') });
}

function decodeBody(body: string, encoding: string): string {
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body.replace(/=\n/g, ''));
  return body;
}

function decodeQuotedPrintable(value: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < value.length; i++) {
    if (value[i] === '=' && /^[0-9A-F]{2}$/i.test(value.slice(i + 1, i + 3))) {
      bytes.push(parseInt(value.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(value[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** RFC 2047 encoded words (`=?UTF-8?Q?...?=`), as nodemailer writes non-ASCII subjects. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=/gi, (_m, _charset: string, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}
