/**
 * The character rules The web app strips what a rule forbids as
 * the user types; the server refuses it (422) instead of altering it.
 */
export const sanitizerTypes = [
  'onlyLetters',
  'onlyNumbers',
  'alphanumeric',
  'email',
  'noSpecialChars',
  'safeText',
  'textWithSymbols',
] as const;

export type SanitizerType = (typeof sanitizerTypes)[number];

const accented = 'ÁÉÍÓÚÜÑáéíóúüñ';

/** Character classes (without brackets) of what each rule allows. */
const allowed: Record<SanitizerType, string> = {
  onlyLetters: `A-Za-z${accented} `,
  onlyNumbers: '0-9',
  alphanumeric: `A-Za-z0-9${accented} `,
  email: 'A-Za-z0-9@._\\-',
  noSpecialChars: 'A-Za-z0-9 ',
  safeText: `A-Za-z0-9${accented} .,;:_\\-`,
  textWithSymbols: `A-Za-z0-9${accented} .,;:_@!#$%^&*()+=?/<>\\-`,
};

const quotes = /["'`\u2018\u2019\u201A\u201B\u201C\u201D\u201E\u201F\u00B4]/g;

const hasQuote = new RegExp(quotes.source);

const forbidden = Object.fromEntries(
  sanitizerTypes.map((type) => [type, new RegExp(`[^${allowed[type]}]`, 'g')]),
) as Record<SanitizerType, RegExp>;

const whole = Object.fromEntries(sanitizerTypes.map((type) => [type, new RegExp(`^[${allowed[type]}]*$`)])) as Record<
  SanitizerType,
  RegExp
>;

/** Each rule as a JSON Schema `pattern` (the whole value; quotes are never in a class), for the OpenAPI document. */
export const sanitizerPatterns = Object.fromEntries(
  sanitizerTypes.map((type) => [type, `^[${allowed[type]}]*$`]),
) as Record<SanitizerType, string>;

/** Removes quote characters and every character the rule does not allow. */
export function sanitize(type: SanitizerType, value: string): string {
  return value.replace(quotes, '').replace(forbidden[type], '');
}

/** Whether the value already satisfies the rule (nothing to strip). */
export function isClean(type: SanitizerType, value: string): boolean {
  return !hasQuote.test(value) && whole[type].test(value);
}

export const sanitizerMessages: Record<SanitizerType, string> = {
  onlyLetters: 'Solo se permiten letras y espacios.',
  onlyNumbers: 'Solo se permiten números.',
  alphanumeric: 'Solo se permiten letras, números y espacios.',
  email: 'Solo se permiten letras, números y los caracteres @ . _ -',
  noSpecialChars: 'Solo se permiten letras, números y espacios, sin caracteres especiales.',
  safeText: 'Solo se permiten letras, números, espacios y . , ; : _ -',
  textWithSymbols: 'Contiene caracteres no permitidos (comillas u otros símbolos).',
};

/**
 * C0 and C1 control characters (NUL, escape, delete…). Free text such as a
 * search or a password is not held to a character rule, but never carries these:
 * PostgreSQL refuses NUL in text, and none of them is typed on purpose.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const controlChars = /[\u0000-\u001F\u007F-\u009F]/g;
const hasControlChar = new RegExp(controlChars.source);

export const CONTROL_CHARS_MESSAGE = 'Contiene caracteres de control no permitidos.';

/** Whether the value holds no control character. */
export function isFreeOfControlChars(value: string): boolean {
  return !hasControlChar.test(value);
}

/** Removes every control character (a search is lenient: what cannot match is dropped). */
export function stripControlChars(value: string): string {
  return value.replace(controlChars, '');
}
