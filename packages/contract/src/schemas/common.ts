import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, RECORD_STATUS } from '../constants.ts';
import { MSG } from '../messages.ts';
import {
  CONTROL_CHARS_MESSAGE,
  isClean,
  isFreeOfControlChars,
  sanitizerMessages,
  sanitizerPatterns,
  stripControlChars,
  type SanitizerType,
} from '../sanitize.ts';

/** The largest id a PostgreSQL `integer` column holds. */
export const MAX_ID = 2_147_483_647;
const ID_MESSAGE = 'Debe ser un identificador válido.';

/**
 * A positive integer id, sent as a number or as a string of digits,
 * within the range of the `integer` columns (1..2147483647) whichever form it came in.
 */
export const ZId = z
  .union(
    [
      z.number(),
      z
        .string()
        .regex(/^\d{1,10}$/, ID_MESSAGE)
        .transform(Number),
    ],
    { error: ID_MESSAGE },
  )
  .pipe(z.number().int(ID_MESSAGE).min(1, ID_MESSAGE).max(MAX_ID, ID_MESSAGE));

export const ZIdParam = z.object({ id: ZId });

export const ZStatusId = z
  .union([z.literal(1), z.literal(2), z.literal('1'), z.literal('2')], {
    error: 'El estado debe ser Activo o Inactivo.',
  })
  .transform(Number);

/** A flag: 1 or '1' (and booleans) mean granted. */
export const ZFlag = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.literal('0'), z.literal('1')])
  .transform((v) => (v === true || v === 1 || v === '1' ? 1 : 0));

/** Any text without control characters (passwords, tokens, names looked up as they are). */
export function ZFreeText(opts: { max: number; error?: string }) {
  return z
    .string({ error: opts.error ?? 'Debe ser texto.' })
    .max(opts.max, MSG.tooLong(opts.max))
    .refine(isFreeOfControlChars, CONTROL_CHARS_MESSAGE);
}

/** Text following one of the character rules, refused (not altered) otherwise. */
export function ZText(rule: SanitizerType, opts: { min?: number; max: number }) {
  const min = opts.min ?? 1;
  return z
    .string({ error: 'Debe ser texto.' })
    .trim()
    .min(min, min === 1 ? MSG.required : `Mínimo ${min} caracteres.`)
    .max(opts.max, MSG.tooLong(opts.max))
    .refine((v) => isClean(rule, v), sanitizerMessages[rule])
    .meta({
      pattern: sanitizerPatterns[rule],
      description: `Regla de caracteres ${rule}: ${sanitizerMessages[rule]}`,
    });
}

export const ZEmail = z
  .string({ error: 'Debe ser texto.' })
  .trim()
  .max(120, MSG.tooLong(120))
  .refine((v) => !v.startsWith('.') && !v.startsWith('"'), "El correo no puede empezar con '.' o '\"'")
  .pipe(z.email(MSG.invalidEmail))
  // Stored and looked up lower-cased: one mailbox, one account (unique without regard to case).
  .transform((v) => v.toLowerCase())
  .meta({ format: 'email', description: 'Correo electrónico; se guarda en minúsculas.' });

/**
 * The body of a paged list (page, per_page, search); a list whose
 * page size defaults to another value than 7 takes it here.
 */
export function ZListQueryWith(defaultPerPage: number) {
  return z.object({
    page: z.coerce
      .number({ error: 'La página debe ser un número.' })
      .int('La página debe ser un número entero.')
      .min(1, 'La página debe ser mayor o igual a 1.')
      .max(1_000_000, 'La página es demasiado grande.')
      .default(1),
    per_page: z.coerce
      .number({ error: 'El tamaño de página debe ser un número.' })
      .int('El tamaño de página debe ser un número entero.')
      .min(1, 'El tamaño de página debe ser mayor o igual a 1.')
      .max(MAX_PAGE_SIZE, `El tamaño de página no puede ser mayor a ${MAX_PAGE_SIZE}.`)
      .default(defaultPerPage),
    search: z
      .string({ error: 'La búsqueda debe ser texto.' })
      .max(100, MSG.tooLong(100))
      .transform((v) => stripControlChars(v).trim())
      .default(''),
  });
}

export const ZListQuery = ZListQueryWith(DEFAULT_PAGE_SIZE).meta({
  example: { page: 1, per_page: DEFAULT_PAGE_SIZE, search: 'almacén' },
});
export type TListQuery = z.infer<typeof ZListQuery>;

export const ZStatusRef = z.object({ id: z.number(), name: z.string() });

export const ZNamedRef = z.object({ id: z.number(), name: z.string() }).nullable();

/** One page of a list with its position, flat (the catalogue lists). */
export function ZPage<T extends z.ZodTypeAny>(item: T) {
  return z.object({
    data: z.array(item),
    current_page: z.number(),
    last_page: z.number(),
    per_page: z.number(),
    total: z.number(),
  });
}

/** Where a page stands, as the ticket lists give it under `meta`. */
export const ZPageMeta = z.object({
  total: z.number(),
  current_page: z.number(),
  last_page: z.number(),
  per_page: z.number(),
  /** Present and true when counting stopped at a cap: there are more than `total`. */
  total_is_lower_bound: z.boolean().optional(),
});

/** `{ status: true, data: [...] }` and whatever else the list says about itself. */
export function ZListResponse<T extends z.ZodTypeAny, E extends z.ZodRawShape = Record<never, never>>(
  item: T,
  extra: E = {} as E,
) {
  return z.object({ status: z.literal(true), data: z.array(item), ...extra });
}

export const ZMessageResponse = z.object({ status: z.boolean(), message: z.string() });

/**
 * Every 4xx and 5xx answer of the API (the one shape `plugins/errors.ts` and
 * the handlers send); `title` is the heading some forms show.
 */
export const ZErrorResponse = z.object({
  status: z.literal(false),
  title: z.string().optional(),
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
  exception: z.string().optional(),
});
export type TErrorResponse = z.infer<typeof ZErrorResponse>;

export function ZDataResponse<T extends z.ZodTypeAny>(data: T) {
  return z.object({ status: z.literal(true), message: z.string(), data });
}

export const ZOption = z.object({ id: z.number(), name: z.string() });
export const ZOptionsResponse = ZListResponse(ZOption);
export type TOption = z.infer<typeof ZOption>;

type WithoutDefaults<S extends z.ZodRawShape> = {
  [K in keyof S]: S[K] extends z.ZodDefault<infer I> ? z.ZodOptional<I> : S[K];
};

/**
 * The update body of a write schema: a field the create form may leave out
 * (and that then takes a default) is optional and left unchanged when absent,
 * so an update changes only the fields it is given.
 */
export function updateSchemaOf<S extends z.ZodRawShape>(schema: z.ZodObject<S>): z.ZodObject<WithoutDefaults<S>> {
  const shape = Object.fromEntries(
    Object.entries(schema.shape).map(([key, field]) => [
      key,
      field instanceof z.ZodDefault ? (field.unwrap() as z.ZodTypeAny).optional() : field,
    ]),
  );
  return z.object(shape) as unknown as z.ZodObject<WithoutDefaults<S>>;
}

export const ZChangeStatusBody = z
  .object({ status_id: ZStatusId.optional() })
  .nullish()
  .transform((b) => b ?? {});

export const STATUS_OPTIONS = [
  { id: RECORD_STATUS.active, name: 'Activo' },
  { id: RECORD_STATUS.inactive, name: 'Inactivo' },
];
