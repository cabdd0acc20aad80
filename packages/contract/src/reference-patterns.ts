/**
 * Logistics references (Embarque EMB-004512, Pedido, Guía, Placa…): the patterns of the
 * Referencias catalogue and how a ticket's text yields its references.
 *
 * A pattern runs on every ticket write, so it must answer in time linear in the text
 * whatever the text holds. JavaScript's engine backtracks; instead of an external engine the
 * patterns keep to a restricted syntax under which backtracking stays bounded:
 *
 * - literals, `.`, classes (`[A-Z]`, `\d`, `\w`, `\s`), groups `( )` / `(?: )`, `|`, `^`, `$`, `\b`;
 * - no backreferences, lookarounds, named groups or Unicode escapes;
 * - a repeated group (`*`, `+`, `{n,m}` with m > 1) may hold no repetition and no alternative
 *   (`(a+)+`, `(a|aa)*` are the classic blow-ups);
 * - at most one unbounded repetition (`*`, `+`, `{n,}`) in the whole pattern (two in a row,
 *   `\d*\d*`, already make the work grow with the square of the text), and none above 100.
 */

export const REFERENCE_MSG = {
  patternInvalid: 'El patrón no es una expresión regular válida.',
  patternUnsupported:
    'El patrón usa una construcción no admitida: solo letras, dígitos, clases como [A-Z] o \\d, grupos ( ), alternativas | y repeticiones como {6} o +; sin referencias hacia atrás ni búsquedas alrededor.',
  patternUnsafe:
    'El patrón no es seguro: no puede repetir un grupo que ya contiene repeticiones o alternativas (como (a+)+), tener más de una repetición sin límite (+, * o {n,}) ni repetir más de 100 veces.',
  patternEmpty: 'El patrón no puede coincidir con un texto vacío.',
  exampleMismatch: 'El ejemplo no coincide con el patrón.',
  typeNotFound: 'El tipo de referencia no existe.',
  bulkDone: (ok: number, failed: number) =>
    failed === 0
      ? `Se actualizaron ${ok} tickets.`
      : `Se actualizaron ${ok} tickets; ${failed} no se pudieron actualizar.`,
  bulkNothing: 'No hay tickets abiertos con esta referencia.',
  /** `Posible duplicado: #812 y #1044 (mismo embarque EMB-004512)`. */
  possibleDuplicate: (ids: number[], typeName: string, value: string) =>
    `Posible duplicado: ${joinSpanish(ids.map((id) => `#${id}`))} (${sameAs(typeName)} ${value})`,
} as const;

/** `mismo embarque`, `misma guía`: a type named with a final `a` is taken as feminine. */
function sameAs(typeName: string): string {
  const name = typeName.toLowerCase();
  return `${name.endsWith('a') ? 'misma' : 'mismo'} ${name}`;
}

/** `a`, `a y b`, `a, b y c`. */
function joinSpanish(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} y ${items.at(-1)}`;
}

/** The most a repetition may count, and the most references one ticket yields. */
const MAX_REPEAT = 100;
export const MAX_REFERENCES_PER_TICKET = 50;

type PatternProblem = 'invalid' | 'unsupported' | 'unsafe';

class Problem extends Error {
  constructor(readonly kind: PatternProblem) {
    super(kind);
  }
}

interface Shape {
  /** Holds a repetition or an alternative somewhere inside. */
  isComplex: boolean;
}

/** Checks the restricted syntax by recursive descent; throws a Problem. */
function checkSyntax(pattern: string): void {
  let at = 0;
  let unbounded = 0;
  const peek = () => pattern[at];

  const alternatives = (): Shape => {
    let shape = sequence();
    let hasAlternative = false;
    while (peek() === '|') {
      at += 1;
      hasAlternative = true;
      shape = { isComplex: sequence().isComplex || shape.isComplex };
    }
    return { isComplex: shape.isComplex || hasAlternative };
  };

  const sequence = (): Shape => {
    let isComplex = false;
    while (at < pattern.length && peek() !== '|' && peek() !== ')') {
      const atom = item();
      isComplex ||= atom.isComplex;
    }
    return { isComplex };
  };

  const escape = (inClass: boolean) => {
    at += 1;
    const c = pattern[at];
    if (c === undefined) throw new Problem('invalid');
    at += 1;
    if (/[dDwWsS]/.test(c)) return;
    if (!inClass && /[bB]/.test(c)) return;
    if (/[A-Za-z0-9]/.test(c)) throw new Problem('unsupported');
  };

  const charClass = () => {
    at += 1;
    if (peek() === '^') at += 1;
    let count = 0;
    while (at < pattern.length && (peek() !== ']' || count === 0)) {
      if (peek() === '\\') escape(true);
      else if (peek() === '[') throw new Problem('unsupported');
      else at += 1;
      count += 1;
    }
    if (peek() !== ']') throw new Problem('invalid');
    at += 1;
  };

  /** A quantifier at `at`, if any: its largest count (Infinity: unbounded). */
  const quantifier = (): number | null => {
    const c = peek();
    let max: number;
    if (c === '*' || c === '+') {
      at += 1;
      max = Infinity;
    } else if (c === '?') {
      at += 1;
      max = 1;
    } else if (c === '{') {
      const m = /^\{(\d{1,4})(,(\d{0,4}))?\}/.exec(pattern.slice(at));
      if (!m) throw new Problem('invalid');
      at += m[0].length;
      const low = Number(m[1]);
      max = m[2] === undefined ? low : m[3] === '' ? Infinity : Number(m[3]);
      if (max < low) throw new Problem('invalid');
      if (low > MAX_REPEAT || (max !== Infinity && max > MAX_REPEAT)) throw new Problem('unsafe');
    } else return null;
    if (peek() === '?') at += 1; // lazy: the same bounds
    if (max === Infinity) unbounded += 1;
    return max;
  };

  const item = (): Shape => {
    const c = peek()!;
    let inner: Shape = { isComplex: false };
    let isQuantifiable = true;
    if (c === '(') {
      at += 1;
      if (peek() === '?') {
        if (pattern[at + 1] !== ':') throw new Problem('unsupported');
        at += 2;
      }
      inner = alternatives();
      if (peek() !== ')') throw new Problem('invalid');
      at += 1;
    } else if (c === '[') charClass();
    else if (c === '\\') {
      const isBoundary = /[bB]/.test(pattern[at + 1] ?? '');
      escape(false);
      isQuantifiable = !isBoundary;
    } else if (c === '^' || c === '$') {
      at += 1;
      isQuantifiable = false;
    } else if ('*+?{'.includes(c)) throw new Problem('invalid');
    else at += 1;
    const max = quantifier();
    if (max === null) return inner;
    if (!isQuantifiable) throw new Problem('invalid');
    if (inner.isComplex && max > 1) throw new Problem('unsafe');
    return { isComplex: true };
  };

  const shape = alternatives();
  void shape;
  if (at < pattern.length) throw new Problem('invalid');
  if (unbounded > 1) throw new Problem('unsafe');
}

/** The Spanish reason a pattern is refused, or null when it is valid and safe. */
export function referencePatternError(pattern: string): string | null {
  try {
    checkSyntax(pattern);
    new RegExp(pattern);
  } catch (error) {
    if (error instanceof Problem) {
      return error.kind === 'unsafe'
        ? REFERENCE_MSG.patternUnsafe
        : error.kind === 'unsupported'
          ? REFERENCE_MSG.patternUnsupported
          : REFERENCE_MSG.patternInvalid;
    }
    return REFERENCE_MSG.patternInvalid;
  }
  if (new RegExp(`^(?:${pattern})$`).test('')) return REFERENCE_MSG.patternEmpty;
  return null;
}

/** A reference as stored and compared: upper case, without spaces. */
export const normaliseReference = (value: string) => value.toUpperCase().replace(/\s+/g, '');

/** Letters and digits: a reference must not start or end inside a longer word or number. */
const WORD_CHAR = 'A-Za-z0-9\\u00C0-\\u024F';

export interface CompiledReferenceType {
  id: number;
  name: string;
  /** Finds the references in a text (global, case-insensitive, whole words). */
  find: RegExp;
  /** Whether a whole text is one reference of this type. */
  whole: RegExp;
}

/** A checked pattern compiled for extraction and for telling a searched reference. */
export function compileReferenceType(type: { id: number; name: string; pattern: string }): CompiledReferenceType {
  return {
    id: type.id,
    name: type.name,
    find: new RegExp(`(?<![${WORD_CHAR}])(?:${type.pattern})(?![${WORD_CHAR}])`, 'gi'),
    whole: new RegExp(`^(?:${type.pattern})$`, 'i'),
  };
}

/** Whether an example (normalised) is one whole reference of the pattern. */
export const patternMatchesExample = (pattern: string, example: string) =>
  compileReferenceType({ id: 0, name: '', pattern }).whole.test(example.trim()) ||
  compileReferenceType({ id: 0, name: '', pattern }).whole.test(normaliseReference(example));

export interface FoundReference {
  type_id: number;
  value: string;
}

/** The distinct references of each type in the texts, normalised (at most MAX_REFERENCES_PER_TICKET). */
export function extractReferences(types: readonly CompiledReferenceType[], texts: readonly string[]): FoundReference[] {
  const found = new Map<string, FoundReference>();
  for (const type of types) {
    for (const text of texts) {
      if (!text) continue;
      type.find.lastIndex = 0;
      for (const match of text.matchAll(type.find)) {
        const value = normaliseReference(match[0]);
        if (value === '') continue;
        found.set(`${type.id}\u0000${value}`, { type_id: type.id, value });
        if (found.size >= MAX_REFERENCES_PER_TICKET) return [...found.values()];
      }
    }
  }
  return [...found.values()];
}

/** The references a searched text is, whole (one per type it matches), normalised. */
export function searchedReferences(types: readonly CompiledReferenceType[], text: string): FoundReference[] {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed.length > 100) return [];
  return types.filter((t) => t.whole.test(trimmed)).map((t) => ({ type_id: t.id, value: normaliseReference(trimmed) }));
}
