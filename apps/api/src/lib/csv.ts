/** The byte order mark that makes spreadsheet programs read the file as UTF-8. */
export const CSV_BOM = '\uFEFF';

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote or line break,
 * quotes doubled. A text a spreadsheet would run as a formula (starting with
 * = + - @, tab or carriage return) is prefixed with an apostrophe (OWASP CSV
 * injection), so it shows as text.
 */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV record, CRLF-terminated (RFC 4180). */
export const csvLine = (fields: (string | number | null | undefined)[]): string =>
  `${fields.map(csvField).join(',')}\r\n`;
