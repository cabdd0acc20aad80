import { describe, expect, it } from 'vitest';
import { automaticReason, cleanToRule, replyTicketId, stripQuotedAndSignature, type IncomingMail } from './mail-in.ts';

const mail = (overrides: Partial<IncomingMail> = {}): IncomingMail => ({
  messageId: '<a1@cliente.example>',
  from: 'diego@cliente.example',
  recipients: ['soporte@empresa.mx'],
  subject: 'Hola',
  text: 'Texto',
  thread: [],
  headers: new Map(),
  contentType: 'text/plain',
  attachments: [],
  ...overrides,
});

describe('automaticReason', () => {
  it('lets a person’s message through, and Auto-Submitted: no', () => {
    expect(automaticReason(mail(), 'empresa.mx')).toBeNull();
    expect(automaticReason(mail({ headers: new Map([['auto-submitted', 'No']]) }), 'empresa.mx')).toBeNull();
  });
  it('names auto-replies, bulk, bounces, reports and our own mails', () => {
    const cases: Partial<IncomingMail>[] = [
      { headers: new Map([['auto-submitted', 'auto-replied']]) },
      { headers: new Map([['precedence', 'junk']]) },
      { headers: new Map([['precedence', 'auto_reply']]) },
      { headers: new Map([['x-autoreply', 'yes']]) },
      { from: 'mailer-daemon@empresa.mx' },
      { contentType: 'multipart/report' },
      { messageId: '<t12.abc@empresa.mx>' },
    ];
    for (const c of cases) expect(automaticReason(mail(c), 'empresa.mx')).not.toBeNull();
  });
});

describe('replyTicketId', () => {
  const tokenOf = (id: number) => `tok${String(id).padStart(5, '0')}`;
  const options = { replyAddress: 'soporte@empresa.mx', ownDomain: 'empresa.mx', tokenOf };
  it('reads the signed per-ticket address, and refuses a wrong token', () => {
    expect(replyTicketId(mail({ recipients: ['Soporte+t42.tok00042@empresa.mx'] }), options)).toBe(42);
    expect(replyTicketId(mail({ recipients: ['soporte+t42.tok00043@empresa.mx'] }), options)).toBeNull();
    expect(replyTicketId(mail({ recipients: ['otro+t42.tok00042@empresa.mx'] }), options)).toBeNull();
  });
  it('follows our Message-IDs in the thread, never another domain’s', () => {
    expect(replyTicketId(mail({ thread: ['<ticket-7@empresa.mx>'] }), options)).toBe(7);
    expect(replyTicketId(mail({ thread: ['<t9.xyz@empresa.mx>'] }), options)).toBe(9);
    expect(replyTicketId(mail({ thread: ['<ticket-7@otro.example>'] }), options)).toBeNull();
  });
});

describe('stripQuotedAndSignature', () => {
  it('keeps the reply and drops quotes, "escribió:" history, Outlook blocks and signatures', () => {
    expect(stripQuotedAndSignature('Listo.\n\nEl lun, 1 dic 2026, Ana <a@b.c> escribió:\n> hola')).toBe('Listo.');
    expect(stripQuotedAndSignature('Done.\nOn Mon, Ana wrote:\n> hi')).toBe('Done.');
    expect(stripQuotedAndSignature('Hecho\n-- \nDiego\nAlmacén')).toBe('Hecho');
    expect(stripQuotedAndSignature('Ok\n\nDe: Portal\nEnviado: lunes\nPara: Diego\nAsunto: x')).toBe('Ok');
    expect(stripQuotedAndSignature('Uno\n> citado\nDos\n\nEnviado desde mi iPhone')).toBe('Uno\nDos');
  });
});

describe('cleanToRule', () => {
  it('drops the characters the rule does not allow and joins the lines', () => {
    expect(cleanToRule('safeText', 'Rampa "3" dañada!\n(revisar)', 150)).toBe('Rampa 3 dañada revisar');
  });
  it('cuts at a word, marked with dots', () => {
    const cut = cleanToRule('safeText', 'palabra '.repeat(40), 50);
    expect(cut.length).toBeLessThanOrEqual(50);
    expect(cut).toMatch(/palabra\.\.\.$/);
  });
});
