/**
 * Malformed requests generated from the OpenAPI document: every operation
 * gets wrong types, huge and control-character strings, out-of-range ids, bad
 * content types and truncated bodies. Every case is invalid by construction
 * (or a read), so none may change the database, and none may answer 5xx.
 * Deterministic: the random part comes from a seeded generator.
 */

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  items?: JsonSchema;
  enum?: unknown[];
};

interface Parameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema?: JsonSchema;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
}

export interface FuzzCase {
  operation: string;
  label: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

/** mulberry32: small, fast, deterministic. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const OUT_OF_RANGE_IDS = [
  '2147483648',
  '-1',
  '1e30',
  'abc',
  '0',
  '1.5',
  '99999999999',
  '%00',
  '%F0%9F%9A%9A',
  '%27%20or%201%3D1',
];

const QUERY_VALUES = [
  '2147483648',
  '-1',
  '1e30',
  'abc',
  '1.5',
  '%00',
  'a%00b',
  '%1B%5B31m',
  '%E2%80%AE',
  '%C3%28',
  'x'.repeat(3000),
  '%27%3B%20drop%20table%20users%3B--',
];

const CONTROL_STRINGS = [
  '\u0000',
  'a\u0000b',
  '\u001b[31mrojo',
  '\u0007\u0008\u007f',
  'a\u0085b',
  '\uD800',
  '\u202Eevil',
];

/** Values wrong for a field of the given JSON-schema type (or for any field). */
function badValues(schema: JsonSchema | undefined): unknown[] {
  const generic: unknown[] = [{ $ne: 1 }, [1, 2], true, null, {}];
  const types = new Set<string>();
  const collect = (s: JsonSchema | undefined) => {
    if (!s) return;
    for (const t of [s.type ?? []].flat()) types.add(t);
    for (const sub of [...(s.anyOf ?? []), ...(s.oneOf ?? [])]) collect(sub);
  };
  collect(schema);
  const values = [...generic];
  if (types.has('string')) {
    values.push(12345, 'x'.repeat(5000), 'x'.repeat(300_000), ...CONTROL_STRINGS, "' or 1=1 --", 'ñandú 🚚');
  }
  if (types.has('number') || types.has('integer')) {
    values.push(2147483648, -1, 1e30, -2147483649, 1.5, 0, 'abc', '2147483648', '99999999999', '1e3', ' 1');
  }
  if (types.has('array')) {
    values.push(
      [2147483648],
      ['abc'],
      [null],
      [-1],
      Array.from({ length: 1000 }, () => 1),
      [],
      [[1]],
    );
  }
  if (types.has('boolean')) values.push('verdadero', 2);
  return values;
}

/**
 * Random junk, never valid for any field: strings always carry a control
 * character, numbers lie outside 1..2147483647, arrays hold such numbers.
 */
function randomJunk(random: () => number): unknown {
  const pick = Math.floor(random() * 6);
  const length = Math.floor(random() * (random() < 0.1 ? 2000 : 40));
  const control = CONTROL_STRINGS[Math.floor(random() * CONTROL_STRINGS.length)]!;
  const outOfRange = () =>
    (random() < 0.5 ? -1 : 1) * (2 ** 31 + Math.floor(random() * 10 ** Math.floor(random() * 20)));
  switch (pick) {
    case 0: {
      const text = Array.from({ length }, () => String.fromCharCode(Math.floor(random() * 0x3000))).join('');
      const at = Math.floor(random() * (text.length + 1));
      return `${text.slice(0, at)}${control}${text.slice(at)}`;
    }
    case 1:
      return `${control}${Array.from({ length }, () => String.fromCharCode(Math.floor(random() * 0x20))).join('')}`;
    case 2:
      return outOfRange();
    case 3:
      return Array.from({ length: 1 + Math.min(length, 50) }, outOfRange);
    case 4:
      return { nested: { deeper: Array.from({ length: 3 }, () => random().toString(36)) } };
    default:
      return (1 + random()) * 1e300 * (random() < 0.5 ? -1 : 1);
  }
}

/** Arrays nested `depth` deep: never an object, so invalid for every body schema. */
function deeplyNested(depth: number): string {
  return `${'['.repeat(depth)}1${']'.repeat(depth)}`;
}

const json = { 'content-type': 'application/json' };

/** Bodies that fail in parsing, before any handler: safe on every operation. */
function unparsableBodies(): { label: string; headers: Record<string, string>; payload: string | Buffer }[] {
  const boundary = 'fuzz-boundary';
  const multipartStart = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\u0089PNG`;
  return [
    { label: 'xml body', headers: { 'content-type': 'application/xml' }, payload: '<a>1</a>' },
    { label: 'form-urlencoded body', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'a=1' },
    { label: 'truncated json', headers: json, payload: '{"name": "Roto",' },
    { label: 'json with trailing garbage', headers: json, payload: '{"a":1}}' },
    { label: 'prototype poisoning', headers: json, payload: '{"__proto__":{"isAdmin":true}}' },
    { label: 'invalid utf-8', headers: json, payload: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe]) },
    { label: 'multipart without boundary', headers: { 'content-type': 'multipart/form-data' }, payload: 'xx' },
    {
      label: 'truncated multipart',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: multipartStart,
    },
    {
      label: 'multipart with a garbage boundary',
      headers: { 'content-type': 'multipart/form-data; boundary="' },
      payload: '--\r\n',
    },
    {
      label: 'octet-stream body',
      headers: { 'content-type': 'application/octet-stream' },
      payload: Buffer.alloc(64, 0),
    },
  ];
}

function sampleQueryValue(schema: JsonSchema | undefined): string {
  const text = JSON.stringify(schema ?? {});
  return /number|integer/.test(text) ? '1' : 'Prueba';
}

function bodySchemaOf(op: Operation): JsonSchema | undefined {
  return op.requestBody?.content?.['application/json']?.schema;
}

/** Every malformed request for every operation of the document. */
export function generateFuzzCases(doc: OpenApiDocument, seed = 20240610): FuzzCase[] {
  const random = seededRandom(seed);
  const cases: FuzzCase[] = [];

  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      const verb = method.toUpperCase();
      const operation = `${verb} ${path}`;
      const params = op.parameters ?? [];
      const pathParams = params.filter((p) => p.in === 'path');
      const queryParams = params.filter((p) => p.in === 'query');
      const fillPath = (overrides: Record<string, string> = {}) =>
        path.replace(/\{(\w+)\}/g, (_m, name: string) => overrides[name] ?? '1');
      const add = (label: string, url: string, headers: Record<string, string> = {}, payload?: string | Buffer) =>
        cases.push({ operation, label, method: verb, url, headers, ...(payload === undefined ? {} : { payload }) });
      // Reads take valid values for the other query parameters, so a bad one reaches the database query.
      const baseQuery = () =>
        Object.fromEntries(queryParams.filter((p) => p.required).map((p) => [p.name, sampleQueryValue(p.schema)]));
      const withQuery = (url: string, query: Record<string, string>) => {
        const entries = Object.entries(query);
        return entries.length === 0 ? url : `${url}?${entries.map(([k, v]) => `${k}=${v}`).join('&')}`;
      };
      const validUrl = withQuery(fillPath(), baseQuery());

      // 1. Out-of-range and malformed path parameters.
      for (const param of pathParams) {
        for (const value of OUT_OF_RANGE_IDS) add(`path ${param.name}=${value}`, fillPath({ [param.name]: value }));
        add(`path ${param.name} huge`, fillPath({ [param.name]: '9'.repeat(400) }));
      }

      // 2. Malformed query parameters (one at a time, the others valid).
      for (const param of queryParams) {
        for (const value of QUERY_VALUES) {
          add(
            `query ${param.name}=${value.slice(0, 20)}`,
            withQuery(fillPath(), { ...baseQuery(), [param.name]: value }),
          );
        }
        add(
          `query ${param.name} repeated`,
          `${withQuery(fillPath(), baseQuery())}&${param.name}=1&${param.name}=2147483648`,
        );
      }

      // 3. Bodies that cannot be parsed, on every operation.
      for (const body of unparsableBodies()) add(body.label, validUrl, body.headers, body.payload);

      // 4. Schema-level mistakes, only where the operation takes a JSON body.
      const bodySchema = bodySchemaOf(op);
      if (bodySchema) {
        for (const [label, payload] of [
          ['array body', '[1,2,3]'],
          ['string body', '"texto"'],
          ['number body', '123'],
          ['boolean body', 'true'],
          ['deeply nested body', deeplyNested(3000)],
          ['text/plain body', 'hola'],
        ] as const) {
          add(label, validUrl, label === 'text/plain body' ? { 'content-type': 'text/plain' } : json, payload);
        }
        const properties = bodySchema.properties ?? {};
        for (const [name, schema] of Object.entries(properties)) {
          // A field of any type accepts anything: nothing malformed to send.
          if (!schema.type && !schema.anyOf && !schema.oneOf) continue;
          for (const value of badValues(schema)) {
            add(
              `body ${name}=${JSON.stringify(value)?.slice(0, 30)}`,
              validUrl,
              json,
              JSON.stringify({ [name]: value }),
            );
          }
          for (let i = 0; i < 4; i += 1) {
            const value = randomJunk(random);
            add(`body ${name} random #${i}`, validUrl, json, JSON.stringify({ [name]: value }));
          }
        }
      }
    }
  }
  return cases;
}
