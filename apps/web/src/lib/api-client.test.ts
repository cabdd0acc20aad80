import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  api,
  apiDownload,
  ApiError,
  errorText,
  NETWORK_ERROR_MESSAGE,
  onSessionLost,
  SESSION_EXPIRED_MESSAGE,
} from './api-client.ts';
import { clearSession, getSession, startSession } from './session.ts';

const user = {
  id: 7,
  name: 'Ana',
  last_name: 'Pérez',
  second_last_name: null,
  username: 'ana',
  email: 'ana@portal.local',
  role_id: 1,
  role: { id: 1, name: 'Administrador', is_supervisor: 1 },
  area_id: null,
};

function respond(status: number, body: string, contentType = 'application/json; charset=utf-8', statusText = '') {
  const fetchMock = vi.fn(
    async () => new Response(body, { status, statusText, headers: { 'content-type': contentType } }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

async function failure(call: Promise<unknown>): Promise<ApiError> {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('api client failure rules', () => {
  const lost = vi.fn();

  beforeEach(() => {
    lost.mockReset();
    onSessionLost((message) => {
      lost(message);
      clearSession();
    });
    startSession('header.payload.signature', user);
    document.head.innerHTML = '<meta name="csrf-token" content="nonce.sig" />';
  });

  afterEach(() => {
    vi.unstubAllGlobals();
    clearSession();
  });

  it('sends the bearer token, JSON and, on PUT/PATCH only, the CSRF header from the meta tag', async () => {
    const fetchMock = respond(200, '{"status":true,"message":"ok","data":{}}');
    await api.put('/areas/update/1', { name: 'Norte' });
    await api.post('/areas', { page: 1 });
    const [putUrl, put] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    const [, post] = fetchMock.mock.calls[1] as unknown as [string, RequestInit];
    expect(putUrl).toBe('/api/areas/update/1');
    expect(put.headers).toMatchObject({
      Authorization: 'Bearer header.payload.signature',
      'Content-Type': 'application/json',
      'X-CSRF-TOKEN': 'nonce.sig',
    });
    expect(put.body).toBe('{"name":"Norte"}');
    expect(post.headers).not.toHaveProperty('X-CSRF-TOKEN');
  });

  it('treats a 401 on a signed-in call as a lost session and clears it', async () => {
    respond(401, '{"status":false,"message":"Sesión expirada."}');
    const error = await failure(api.post('/areas', {}));
    expect(error.message).toBe(SESSION_EXPIRED_MESSAGE);
    expect(error.details.isSessionLost).toBe(true);
    expect(lost).toHaveBeenCalledWith('Sesión expirada. Redirigiendo...');
    expect(getSession()).toBeNull();
    expect(window.localStorage.getItem('token')).toBeNull();
  });

  it('keeps a 401 of a public call (bad credentials) as an answer', async () => {
    respond(401, '{"status":false,"message":"Usuario o contraseña incorrectos."}');
    const error = await failure(api.post('/login', { username: 'x', password: 'y' }, { isPublic: true }));
    expect(error.message).toBe('Usuario o contraseña incorrectos.');
    expect(lost).not.toHaveBeenCalled();
    expect(getSession()).not.toBeNull();
  });

  it('treats an HTML page where JSON was expected as a lost session', async () => {
    respond(200, '<!doctype html><html><body>login</body></html>', 'text/html');
    const error = await failure(api.get('/statuses'));
    expect(error.details.isSessionLost).toBe(true);
    expect(lost).toHaveBeenCalledOnce();
  });

  it("words a failed GET as 'Error {status}: {statusText}'", async () => {
    respond(
      503,
      '{"status":false,"message":"La base de datos no responde."}',
      'application/json',
      'Service Unavailable',
    );
    const error = await failure(api.get('/readyz'));
    expect(error.message).toBe('Error 503: Service Unavailable');
    expect(error.status).toBe(503);
  });

  it('uses the server message of a failed POST, else Error {status}', async () => {
    respond(403, '{"status":false,"message":"No tienes permiso para realizar esta acción."}');
    expect((await failure(api.post('/areas/create', {}))).message).toBe('No tienes permiso para realizar esta acción.');
    respond(500, '{"status":false}');
    expect((await failure(api.post('/areas/create', {}))).message).toBe('Error 500');
  });

  it('keeps validation errors and joins them for alerts', async () => {
    respond(
      422,
      '{"status":false,"message":"Error de validación","errors":{"name":["Ya existe."],"email":["Inválido."]}}',
    );
    const error = await failure(api.post('/users/create', {}));
    expect(error.message).toBe('Error de validación');
    expect(error.errors).toEqual({ name: ['Ya existe.'], email: ['Inválido.'] });
    expect(errorText(error, 'x')).toBe('Ya existe.\nInválido.');
    expect(errorText(error, 'x', ' ')).toBe('Ya existe. Inválido.');
  });

  it('reports an unparseable POST answer, and an unparseable PUT/PATCH answer as a lost session', async () => {
    respond(502, 'Bad gateway', 'text/plain');
    expect((await failure(api.post('/areas', {}))).message).toBe('Error de respuesta no válida del servidor (502)');
    expect(lost).not.toHaveBeenCalled();
    respond(200, 'not json', 'text/plain');
    expect((await failure(api.patch('/areas/1/change-status', {}))).details.isSessionLost).toBe(true);
  });

  it('fails an answer whose status is false even with HTTP 200', async () => {
    respond(200, '{"status":false,"message":"No se pudo."}');
    expect((await failure(api.post('/notifications/view', {}))).message).toBe('No se pudo.');
  });

  it("reports a network failure as 'No se pudo conectar con el servidor' with code 500", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    const error = await failure(api.post('/areas', {}));
    expect(error.message).toBe(NETWORK_ERROR_MESSAGE);
    expect(error.status).toBe(500);
    expect(error.details.isNetworkError).toBe(true);
    expect(lost).not.toHaveBeenCalled();
  });

  it('downloads a streamed file with its name and progress, and fails on a refusal as any call does', async () => {
    const fetchMock = vi.fn(
      async () =>
        new Response('\uFEFFa,b\r\n1,2\r\n', {
          status: 200,
          headers: {
            'content-type': 'text/csv; charset=utf-8',
            'content-disposition': 'attachment; filename="auditoria-2025-01-02.csv"',
          },
        }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const progress: number[] = [];
    const { blob, fileName } = await apiDownload(
      '/audit-log/export',
      { search: '' },
      { onProgress: (n) => progress.push(n) },
    );
    expect(fileName).toBe('auditoria-2025-01-02.csv');
    const text = await new Promise((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result);
      reader.readAsText(blob);
    });
    // The reader drops the byte order mark it decodes; the blob keeps its 3 bytes.
    expect(text).toBe('a,b\r\n1,2\r\n');
    expect(blob.size).toBe(3 + 10);
    expect(progress.at(-1)).toBe(blob.size);
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.method).toBe('POST');
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer header.payload.signature');

    respond(403, '{"status":false,"message":"No tienes permiso para realizar esta acción."}');
    const refused = await failure(apiDownload('/audit-log/export', {}));
    expect(refused).toMatchObject({ status: 403, message: 'No tienes permiso para realizar esta acción.' });

    respond(401, '{"status":false,"message":"Sesión expirada."}');
    expect((await failure(apiDownload('/audit-log/export', {}))).message).toBe(SESSION_EXPIRED_MESSAGE);
    expect(lost).toHaveBeenCalledWith(SESSION_EXPIRED_MESSAGE);
  });
});
