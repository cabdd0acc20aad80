import { RESET_CODE_TTL_MINUTES } from '@portal/contract';
import type { MailMessage } from '../../lib/mailer.ts';

const BRAND = '#0f3f99';
const PRODUCT = 'Portal de tickets';

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

/** A plain, table-based layout with inline styles: what e-mail clients render reliably. */
function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="es">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:0;background:#f1f3f5;font-family:Inter,Segoe UI,Helvetica,Arial,sans-serif;color:#212529">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f1f3f5;padding:24px 0">
<tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:520px;background:#ffffff;border-radius:8px;overflow:hidden">
<tr><td style="background:${BRAND};color:#ffffff;padding:16px 24px;font-size:18px;font-weight:600">${PRODUCT}</td></tr>
<tr><td style="padding:24px;font-size:15px;line-height:1.5">${body}</td></tr>
<tr><td style="padding:16px 24px;border-top:1px solid #e9ecef;font-size:12px;color:#868e96">Este es un mensaje automático; no respondas a este correo.</td></tr>
</table>
</td></tr>
</table>
</body>
</html>`;
}

export function resetCodeMail(to: { email: string; name: string }, code: string): MailMessage {
  const subject = 'Código para restablecer tu contraseña';
  const text = [
    `Hola ${to.name}:`,
    '',
    `Recibimos una solicitud para restablecer la contraseña de tu cuenta en el ${PRODUCT}.`,
    '',
    `Tu código de verificación es: ${code}`,
    '',
    `El código vence en ${RESET_CODE_TTL_MINUTES} minutos y solo puede usarse una vez.`,
    'Si no solicitaste este cambio, ignora este correo: tu contraseña seguirá siendo la misma.',
    '',
    `— ${PRODUCT}`,
  ].join('\n');
  const html = layout(
    subject,
    `<p style="margin:0 0 16px">Hola ${escapeHtml(to.name)}:</p>
<p style="margin:0 0 16px">Recibimos una solicitud para restablecer la contraseña de tu cuenta en el ${PRODUCT}. Tu código de verificación es:</p>
<p style="margin:0 0 16px;text-align:center"><span style="display:inline-block;padding:12px 20px;border:1px solid #dee2e6;border-radius:6px;background:#f8f9fa;font-size:30px;font-weight:700;letter-spacing:8px;font-family:Consolas,Menlo,monospace;color:${BRAND}">${code}</span></p>
<p style="margin:0 0 16px">El código vence en <strong>${RESET_CODE_TTL_MINUTES} minutos</strong> y solo puede usarse una vez.</p>
<p style="margin:0;color:#495057">Si no solicitaste este cambio, ignora este correo: tu contraseña seguirá siendo la misma.</p>`,
  );
  return { to: to.email, subject, text, html };
}

export function passwordChangedMail(
  to: { email: string; name: string; username: string },
  change: { at: Date; ip: string },
): MailMessage {
  const subject = 'Tu contraseña fue cambiada';
  const when = new Intl.DateTimeFormat('es', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(change.at);
  const text = [
    `Hola ${to.name}:`,
    '',
    `La contraseña de tu cuenta "${to.username}" en el ${PRODUCT} fue cambiada el ${when} desde la dirección ${change.ip}.`,
    'Por seguridad, cerramos todas las sesiones que tenías abiertas.',
    '',
    'Si no fuiste tú, restablece tu contraseña de inmediato desde "¿Olvidaste tu contraseña?" y avisa al administrador del portal.',
    '',
    `— ${PRODUCT}`,
  ].join('\n');
  const html = layout(
    subject,
    `<p style="margin:0 0 16px">Hola ${escapeHtml(to.name)}:</p>
<p style="margin:0 0 16px">La contraseña de tu cuenta <strong>${escapeHtml(to.username)}</strong> en el ${PRODUCT} fue cambiada el ${escapeHtml(when)} desde la dirección ${escapeHtml(change.ip)}.</p>
<p style="margin:0 0 16px">Por seguridad, cerramos todas las sesiones que tenías abiertas.</p>
<p style="margin:0;color:#c92a2a">Si no fuiste tú, restablece tu contraseña de inmediato desde «¿Olvidaste tu contraseña?» y avisa al administrador del portal.</p>`,
  );
  return { to: to.email, subject, text, html };
}
