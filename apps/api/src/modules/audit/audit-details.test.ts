import { describe, expect, it } from 'vitest';
import { describeAuditDetail } from './audit-details.ts';

describe('describeAuditDetail', () => {
  it('tells how many anonymous attempts came, between which times on the reader’s clock, and the first request', () => {
    const detail = {
      count: 10,
      first_at: '2026-11-27T04:59:01.250Z',
      last_at: '2026-11-27T04:59:02.900Z',
      sample: { method: 'POST', url: '/api/check-permission' },
    };
    expect(describeAuditDetail(detail)).toBe(
      '10 intentos entre 04:59:01 y 04:59:02 · Primera solicitud: POST /api/check-permission',
    );
    expect(describeAuditDetail(detail, { timeZone: 'America/Mexico_City' })).toBe(
      '10 intentos entre 22:59:01 y 22:59:02 · Primera solicitud: POST /api/check-permission',
    );
  });

  it('says one attempt at one time, and dates the end of a count that crossed midnight', () => {
    expect(describeAuditDetail({ count: 1, first_at: '2026-11-27T04:59:01Z', last_at: '2026-11-27T04:59:01Z' })).toBe(
      '1 intento a las 04:59:01',
    );
    expect(describeAuditDetail({ count: 3, first_at: '2026-11-26T23:59:58Z', last_at: '2026-11-27T00:00:01Z' })).toBe(
      '3 intentos entre 23:59:58 y 27/11/2026 00:00:01',
    );
  });

  it('names the request, the refusal reason, the permission and the users in Spanish', () => {
    const names = new Map([[7, 'Diego Hernández']]);
    expect(
      describeAuditDetail(
        { method: 'PUT', url: '/api/areas/update/3', required: [{ section: 'ar_main', flag: 'u' }] },
        { names },
      ),
    ).toBe('Solicitud: PUT /api/areas/update/3 · Permiso requerido: ar_main (editar)');
    expect(describeAuditDetail({ reason: 'bad_password' }, { anonymousUsername: 'ana' })).toBe(
      'Usuario escrito: ana · Motivo: contraseña incorrecta',
    );
    expect(describeAuditDetail({ ticket_id: 12, assignee_id: 7, previous_assignee_id: 9 }, { names })).toBe(
      'Ticket #12 · Asignado a: Diego Hernández · Antes: usuario #9',
    );
    expect(describeAuditDetail({ record: '#4 Ventas', changes: { name: ['Venta', 'Ventas'], r: [0, 1] } })).toBe(
      'Registro: #4 Ventas · Cambios: Nombre: Venta → Ventas; Leer: no → sí',
    );
  });

  it('writes keys it does not know as clave: valor, never as JSON', () => {
    const text = describeAuditDetail({ origen: 'cli', lote: { id: 3, etiquetas: ['a', 'b'] }, ok: true });
    expect(text).toBe('origen: cli · lote: id: 3, etiquetas: a, b · ok: sí');
    expect(describeAuditDetail({ sample: { puerto: 22, extra: { a: 1 } } })).toBe('Ejemplo: puerto: 22, extra: (a: 1)');
    expect(text).not.toMatch(/[{}"]/);
  });

  it('is empty without details', () => {
    expect(describeAuditDetail(null)).toBe('');
  });
});
