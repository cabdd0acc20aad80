import { describe, expect, it } from 'vitest';
import { createTicketMail, nextDigestAt } from './ticket-mail.ts';

describe('digest times', () => {
  it('an hourly digest leaves at the next full hour', () => {
    expect(nextDigestAt('hourly', new Date('2026-11-27T10:30:00Z'), 'America/Mexico_City').toISOString()).toBe(
      '2026-11-27T11:00:00.000Z',
    );
  });

  it("a daily digest leaves at the next 08:00 of the person's zone, daylight saving time included", () => {
    const at = (now: string, zone: string) => nextDigestAt('daily', new Date(now), zone).toISOString();
    // Mexico City (UTC−6 all year): 04:30 local → 08:00 the same day; 09:00 local → 08:00 the next.
    expect(at('2026-11-27T10:30:00Z', 'America/Mexico_City')).toBe('2026-11-27T14:00:00.000Z');
    expect(at('2026-11-27T15:00:00Z', 'America/Mexico_City')).toBe('2026-11-28T14:00:00.000Z');
    // Matamoros keeps daylight saving time: UTC−5 in July.
    expect(at('2026-07-01T12:00:00Z', 'America/Matamoros')).toBe('2026-07-01T13:00:00.000Z');
  });
});

describe('reply address', () => {
  const mail = createTicketMail({
    publicUrl: 'https://portal.empresa.mx/',
    from: 'Portal <portal@empresa.mx>',
    replyAddress: 'soporte@empresa.mx',
    secret: 'a-secret-of-the-portal-0123456789',
  });

  it('is signed per ticket and changes with the ticket and the secret', () => {
    const address = mail.replyAddress(1234)!;
    expect(address).toMatch(/^soporte\+t1234\.[0-9a-z]{8}@empresa\.mx$/);
    expect(mail.replyAddress(1235)!.split('.')[1]).not.toBe(address.split('.')[1]);
    const other = createTicketMail({
      publicUrl: 'https://portal.empresa.mx',
      from: 'Portal <portal@empresa.mx>',
      replyAddress: 'soporte@empresa.mx',
      secret: 'another-secret-of-the-portal-012345',
    });
    expect(other.replyAddress(1234)).not.toBe(address);
  });

  it('escapes what people wrote in the HTML body', () => {
    const composed = mail.compose({
      ticketId: 7,
      ticketName: 'Báscula <b>rota</b>',
      recipientName: 'Ana',
      message: 'Aviso',
      actorName: null,
      detail: '<script>alert(1)</script>',
    });
    expect(composed.html).not.toContain('<script>');
    expect(composed.html).toContain('&lt;script&gt;');
    expect(composed.subject).toBe('[Ticket #7] Báscula <b>rota</b>');
    expect(composed.text).toContain('https://portal.empresa.mx/tickets/7');
  });
});
