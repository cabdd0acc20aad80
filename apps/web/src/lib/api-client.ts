import { csrfToken } from './csrf.ts';
import { getToken } from './session.ts';

export type FieldErrors = Record<string, string[]>;
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export const API_BASE = '/api';
export const SESSION_EXPIRED_MESSAGE = 'Sesión expirada. Redirigiendo...';
export const NETWORK_ERROR_MESSAGE = 'No se pudo conectar con el servidor';

/** A failed call, with the Spanish message a screen can show as it is. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly details: {
      errors?: FieldErrors;
      exception?: string;
      /** The call never reached the server. */
      isNetworkError?: boolean;
      /** The session was cleared because of this answer (401, HTML instead of JSON...). */
      isSessionLost?: boolean;
    } = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get errors(): FieldErrors | undefined {
    return this.details.errors;
  }
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;

/** The session already ended because of this failure: the guards show /login, so a screen says nothing more. */
export const isSessionLost = (error: unknown) => isApiError(error) && error.details.isSessionLost === true;

/** Server field errors (lists joined by a new line), or the message. */
export function errorText(error: unknown, fallback: string, separator = '\n'): string {
  if (!(error instanceof ApiError)) return fallback;
  const lines = Object.values(error.errors ?? {}).flat();
  return lines.length > 0 ? lines.join(separator) : error.message || fallback;
}

let sessionLostHandler: (message: string) => void = () => {};

/** What happens when an answer means the session is gone: set once by the app. */
export function onSessionLost(handler: (message: string) => void): void {
  sessionLostHandler = handler;
}

export interface RequestOptions {
  /** JSON, or a FormData sent as multipart (file uploads). */
  body?: unknown;
  /** Answer with the body as a Blob (file downloads); failures follow the same rules as JSON calls. */
  asBlob?: boolean;
  signal?: AbortSignal;
  /** Calls made without a session (login, recovery): a 401 there is an answer, not a lost session. */
  isPublic?: boolean;
}

interface ErrorBody {
  status?: unknown;
  message?: unknown;
  errors?: unknown;
  exception?: unknown;
}

const unsafeMethods = new Set<HttpMethod>(['PUT', 'PATCH', 'DELETE']);

function sessionLost(status: number): ApiError {
  sessionLostHandler(SESSION_EXPIRED_MESSAGE);
  return new ApiError(SESSION_EXPIRED_MESSAGE, status, { isSessionLost: true });
}

const messageOf = (body: ErrorBody | null): string | undefined =>
  typeof body?.message === 'string' && body.message !== '' ? body.message : undefined;

const detailsOf = (body: ErrorBody | null) => ({
  errors: body?.errors && typeof body.errors === 'object' ? (body.errors as FieldErrors) : undefined,
  exception: typeof body?.exception === 'string' ? body.exception : undefined,
});

/**
 * The one way the web app talks to the API: bearer token, JSON bodies, the
 * CSRF header on PUT/PATCH/DELETE, and every failure rule
 * turned into an `ApiError`.
 */
export async function apiRequest<T>(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<T> {
  const { response, token } = await send(method, path, options, 'application/json');
  if (options.asBlob && response.ok) return (await response.blob()) as T;
  return readAnswer<T>(response, method, token, options.isPublic ?? false);
}

/** Headers of the call, fetch, and a network failure turned into an `ApiError`. */
async function send(method: HttpMethod, path: string, options: RequestOptions, accept: string) {
  const { body, signal, isPublic = false } = options;
  const isForm = typeof FormData !== 'undefined' && body instanceof FormData;
  const headers: Record<string, string> = { Accept: accept };
  const token = isPublic ? null : getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined && !isForm) headers['Content-Type'] = 'application/json';
  if (unsafeMethods.has(method)) {
    const csrf = await csrfToken();
    if (csrf) headers['X-CSRF-TOKEN'] = csrf;
  }

  try {
    const response = await fetch(`${API_BASE}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
      signal,
      credentials: 'same-origin',
    });
    return { response, token };
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(NETWORK_ERROR_MESSAGE, 500, { isNetworkError: true });
  }
}

/** A JSON answer, or the `ApiError` its failure means. */
async function readAnswer<T>(response: Response, method: HttpMethod, token: string | null, isPublic: boolean) {
  const { status, statusText } = response;
  const text = await response.text().catch(() => '');
  const contentType = response.headers.get('content-type') ?? '';
  const isHtml = contentType.includes('text/html') || /^\s*</.test(text);

  // An HTML page where JSON was expected is a login page or a proxy error page: the session is gone.
  if (!isPublic && (isHtml || (status === 401 && token))) throw sessionLost(status);

  let parsed: ErrorBody | null = null;
  let isParsed = true;
  if (text.trim() !== '') {
    try {
      parsed = JSON.parse(text) as ErrorBody;
    } catch {
      isParsed = false;
    }
  }
  if (!isParsed || isHtml) {
    if (method === 'PUT' || method === 'PATCH') throw sessionLost(status);
    if (method === 'GET') throw new ApiError(`Error ${status}: ${statusText}`, status);
    throw new ApiError(`Error de respuesta no válida del servidor (${status})`, status);
  }

  if (!response.ok) {
    const message = method === 'GET' ? `Error ${status}: ${statusText}` : (messageOf(parsed) ?? `Error ${status}`);
    throw new ApiError(message, status, detailsOf(parsed));
  }
  if (parsed?.status === false) {
    throw new ApiError(messageOf(parsed) ?? `Error ${status}`, status, detailsOf(parsed));
  }
  return parsed as T;
}

export interface DownloadOptions {
  signal?: AbortSignal;
  /** Called as the bytes arrive, with how many have come so far. */
  onProgress?: (bytes: number) => void;
}

/**
 * A file the API streams (a CSV export) from a POST: its bytes and the name
 * the server gives it. A refusal answers JSON and fails as `apiRequest` does.
 */
export async function apiDownload(
  path: string,
  body: unknown,
  { signal, onProgress }: DownloadOptions = {},
): Promise<{ blob: Blob; fileName: string | null }> {
  const { response, token } = await send('POST', path, { body, signal }, 'text/csv, application/json');
  const contentType = response.headers.get('content-type') ?? '';
  if (!response.ok || contentType.includes('json') || contentType.includes('text/html') || !response.body) {
    await readAnswer(response, 'POST', token, false);
    throw new ApiError(`Error de respuesta no válida del servidor (${response.status})`, response.status);
  }
  const chunks: Uint8Array[] = [];
  let received = 0;
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      received += value.byteLength;
      onProgress?.(received);
    }
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(NETWORK_ERROR_MESSAGE, 500, { isNetworkError: true });
  }
  const fileName = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? null;
  return { blob: new Blob(chunks as BlobPart[], { type: contentType }), fileName };
}

/**
 * A POST whose answer streams one JSON object per line (NDJSON: a long task's progress): each
 * object goes to `onEvent` as it arrives. A refusal answers JSON and fails as `apiRequest` does.
 */
export async function apiEventStream<E>(
  path: string,
  body: unknown,
  onEvent: (event: E) => void,
  { signal }: { signal?: AbortSignal } = {},
): Promise<void> {
  const { response, token } = await send('POST', path, { body, signal }, 'application/x-ndjson, application/json');
  const contentType = response.headers.get('content-type') ?? '';
  if (!response.ok || !contentType.includes('ndjson') || !response.body) {
    await readAnswer(response, 'POST', token, false);
    throw new ApiError(`Error de respuesta no válida del servidor (${response.status})`, response.status);
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let pending = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      pending += value;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (line.trim() !== '') onEvent(JSON.parse(line) as E);
    }
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(NETWORK_ERROR_MESSAGE, 500, { isNetworkError: true });
  }
  if (pending.trim() !== '') onEvent(JSON.parse(pending) as E);
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'body'>) => apiRequest<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) =>
    apiRequest<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) =>
    apiRequest<T>('PUT', path, { ...options, body }),
  patch: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) =>
    apiRequest<T>('PATCH', path, { ...options, body }),
  delete: <T>(path: string, options?: Omit<RequestOptions, 'body'>) => apiRequest<T>('DELETE', path, options),
};
