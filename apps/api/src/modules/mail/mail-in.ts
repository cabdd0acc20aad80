import { sanitize, type SanitizerType } from '@portal/contract';

/** An incoming message as the mail-in rules read it (built from mailparser's answer). */
export interface IncomingMail {
  messageId: string;
  /** The sender's address, lower case ('' when the message names none). */
  from: string;
  /** Every address in To and Cc, lower case. */
  recipients: string[];
  subject: string;
  /** The plain text (mailparser derives it from the HTML when there is no text part). */
  text: string;
  /** In-Reply-To and References, each Message-ID with its angle brackets. */
  thread: string[];
  /** Header name (lower case) → its value as text. */
  headers: Map<string, string>;
  /** The top-level content type (`multipart/report` for a delivery report). */
  contentType: string;
  attachments: { filename: string; content: Buffer }[];
}

/**
 * Why a message is an automatic one that must never be answered nor acted on (auto-replies,
 * bounces, loops), or null for a message a person wrote. The signs: `Auto-Submitted` other than
 * `no` (RFC 3834), `Precedence: bulk / junk / auto_reply`, `X-Autoreply` or `X-Autorespond`, a
 * sender `MAILER-DAEMON` or `postmaster`, a `multipart/report` (a delivery or read report), or a
 * Message-ID of our own domain (one of our mails come back: a loop).
 */
export function automaticReason(mail: IncomingMail, ownDomain: string): string | null {
  const header = (name: string) => mail.headers.get(name)?.trim().toLowerCase();
  const autoSubmitted = header('auto-submitted');
  if (autoSubmitted !== undefined && autoSubmitted.split(';')[0]!.trim() !== 'no')
    return 'Respuesta automática (Auto-Submitted).';
  const precedence = header('precedence');
  if (precedence && ['bulk', 'junk', 'auto_reply'].includes(precedence))
    return `Correo masivo o automático (Precedence: ${precedence}).`;
  if (mail.headers.has('x-autoreply') || mail.headers.has('x-autorespond'))
    return 'Respuesta automática (X-Autoreply).';
  const local = mail.from.split('@')[0] ?? '';
  if (local === 'mailer-daemon' || local === 'postmaster') return 'Aviso de no entrega (MAILER-DAEMON).';
  if (mail.contentType === 'multipart/report') return 'Informe de entrega (multipart/report).';
  if (mail.messageId.toLowerCase().endsWith(`@${ownDomain.toLowerCase()}>`)) return 'Correo del propio portal (bucle).';
  return null;
}

/**
 * The ticket a reply answers: the per-ticket reply address (`soporte+t1234.k7f3q9ab@empresa.mx`,
 * its token checked with `tokenOf`) among To and Cc, else a Message-ID of ours in
 * In-Reply-To / References (the thread `<ticket-1234@domain>` or a mail `<t1234.…@domain>`).
 */
export function replyTicketId(
  mail: Pick<IncomingMail, 'recipients' | 'thread'>,
  options: { replyAddress: string | undefined; ownDomain: string; tokenOf: (ticketId: number) => string },
): number | null {
  const at = options.replyAddress?.lastIndexOf('@') ?? -1;
  if (options.replyAddress && at > 0) {
    const base = options.replyAddress.slice(0, at).toLowerCase();
    const domain = options.replyAddress.slice(at + 1).toLowerCase();
    for (const address of mail.recipients) {
      const match = /^(.+)\+t(\d{1,9})\.([0-9a-z]{8})@(.+)$/.exec(address.toLowerCase());
      if (!match || match[1] !== base || match[4] !== domain) continue;
      const id = Number(match[2]);
      if (options.tokenOf(id) === match[3]) return id;
    }
  }
  const domain = options.ownDomain.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const ours = new RegExp(`^<(?:ticket-|t)(\\d{1,9})(?:\\.[^@>]*)?@${domain}>$`, 'i');
  for (const id of [...mail.thread].reverse()) {
    const match = ours.exec(id.trim());
    if (match) return Number(match[1]);
  }
  return null;
}

/** The lines where what a person quotes or signs begins: everything from there on is dropped. */
const cutAt = [
  /^-- ?$/, // the signature delimiter
  /^_{5,}\s*$/, // Outlook's line before the quoted message
  /^-{2,}\s*(original message|mensaje original|forwarded message|mensaje reenviado)\s*-{2,}/i,
  /^(on|el)\s.+(wrote|escribió|escribio):\s*$/i,
  /^.{0,200}(wrote|escribió|escribio):\s*$/i,
  /^(enviado desde mi|sent from my|obtener outlook para)\s/i,
];
/** Outlook's quoted header block: `De:` followed by `Enviado:` / `Para:` / `Asunto:` lines. */
const headerLine = /^(de|from|enviado|sent|fecha|date|para|to|asunto|subject|cc):\s/i;

/** A reply's own words: quoted history (`>` lines, "El … escribió:", Outlook's block) and signature dropped. */
export function stripQuotedAndSignature(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (cutAt.some((rule) => rule.test(line.trim()))) break;
    if (/^(de|from):\s/i.test(line.trim()) && lines.slice(i + 1, i + 4).some((l) => headerLine.test(l.trim()))) break;
    if (/^\s*>/.test(line)) continue;
    kept.push(line);
  }
  return kept.join('\n').trim();
}

/**
 * Text made to follow a character rule: line breaks and runs of blanks become one space, the
 * characters the rule does not allow are dropped (never a reason to refuse the mail), and it is
 * cut to `max` characters at a word.
 */
export function cleanToRule(rule: SanitizerType, value: string, max: number): string {
  const clean = sanitize(rule, value.normalize('NFC').replace(/\s+/g, ' ')).replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max - 3);
  const word = cut.lastIndexOf(' ');
  return `${(word > max / 2 ? cut.slice(0, word) : cut).trim()}...`;
}
