import { RECORD_STATUS } from '@portal/contract';
import type { Kysely } from 'kysely';
import { recordCreatedEvents } from './migrations/0007-ticket-events-and-sorting.ts';
import type { DB } from './schema.ts';

/** What goes wrong in a logistics operation; names and descriptions follow the ticket form's rules. */
export const ticketTemplates: [name: string, description: string][] = [
  ['Lector de códigos sin respuesta', 'El lector del andén no registra las etiquetas de las tarimas entrantes'],
  ['Montacargas con falla hidráulica', 'El montacargas pierde presión al levantar tarimas de más de 800 kg'],
  ['Retraso en ruta de reparto', 'La unidad salió dos horas tarde por falta de documentos de embarque'],
  ['Inventario no cuadra', 'El conteo cíclico muestra diferencias en la ubicación de producto terminado'],
  ['Cámara de refrigeración fuera de rango', 'La temperatura subió a 9 grados durante la noche y se requiere revisión'],
  ['Alta de proveedor de transporte', 'Registrar al nuevo transportista y sus tarifas en el sistema de embarques'],
  ['Portal de clientes lento', 'Los clientes reportan que el rastreo de pedidos tarda más de un minuto'],
  ['Impresora de etiquetas atascada', 'La impresora térmica del área de surtido atasca cada tercera etiqueta'],
  ['Pedimento rechazado en aduana', 'El pedimento de importación fue rechazado por una fracción arancelaria'],
  ['Solicitud de nuevo usuario', 'Dar acceso al sistema de almacén a dos operadores del turno nocturno'],
  ['GPS de unidad sin señal', 'La unidad 14 dejó de reportar posición desde la caseta de cobro'],
  ['Mantenimiento preventivo de flota', 'Programar cambio de aceite y revisión de frenos para cinco tractocamiones'],
  ['Reclamación por mercancía dañada', 'El cliente recibió cajas aplastadas en la entrega del martes'],
  ['Error en factura de flete', 'La factura del flete cobra dos veces el concepto de maniobras'],
  ['Puerta de andén no cierra', 'La cortina del andén 5 no baja por completo y deja pasar polvo'],
  ['Capacitación en sistema de patio', 'Capacitar al personal de vigilancia en el registro de entradas de unidades'],
  ['Sobrecupo en almacén norte', 'Las ubicaciones de piso están llenas y se requiere reacomodo de tarimas'],
  ['Cambio de ruta por obra vial', 'El cierre de la autopista obliga a rediseñar la ruta del Bajío'],
  ['Conciliación de guías pendientes', 'Faltan por conciliar 37 guías del mes anterior con la paquetería'],
  ['Falla de red en oficina de patio', 'Los equipos de la caseta de patio pierden conexión varias veces al día'],
  ['Etiquetado incorrecto de lote', 'Un lote de producto se etiquetó con la fecha de caducidad equivocada'],
  ['Revisión de tarifas de última milla', 'Comparar las tarifas actuales con las de tres nuevos proveedores locales'],
  ['Unidad refrigerada sin mantenimiento', 'El termo de la caja 22 no tiene registro de servicio en seis meses'],
  ['Pedido urgente sin surtir', 'Un pedido prioritario lleva dos días sin pasar a surtido'],
  ['Mejora en tablero de indicadores', 'Agregar al tablero el indicador de entregas a tiempo por ruta'],
  ['Documentación de cruce fronterizo', 'Falta la carta porte de tres embarques programados para el jueves'],
  ['Báscula de embarque descalibrada', 'La báscula marca 15 kg de más en comparación con la báscula certificada'],
  ['Queja de cliente por horario', 'El cliente solicita entregas antes de las 8 de la mañana por su recibo'],
  ['Respaldo de base de datos fallido', 'El respaldo nocturno del sistema de almacén terminó con error'],
  ['Señalización de pasillos', 'Renovar la señalización de los pasillos de tránsito de montacargas'],
];

export const places = ['Monterrey', 'Guadalajara', 'Querétaro', 'Nuevo Laredo', 'Toluca', 'Puebla'];

const activityNames = [
  'Revisión inicial en sitio',
  'Se contactó al proveedor',
  'Diagnóstico completado',
  'Se solicitaron refacciones',
  'Prueba de funcionamiento realizada',
  'Se actualizó la documentación',
  'Seguimiento con el cliente',
  'Se escaló a segundo nivel',
  'Validación con el supervisor',
  'Cierre confirmado con el solicitante',
];

const DAY = 24 * 60 * 60 * 1000;

/** A small deterministic generator, so every demo database holds the same tickets. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

async function idsOf(trx: Kysely<DB>, table: 'areas' | 'projects' | 'categories' | 'priority_types' | 'difficulties') {
  return (await trx.selectFrom(table).select(['id', 'name']).orderBy('id').execute()).map((r) => r.id);
}

/**
 * About 60 tickets across statuses, priorities, areas and users, with
 * activities, so every screen shows real work on first start.
 */
export async function seedDemoTickets(trx: Kysely<DB>, now = Date.now()): Promise<void> {
  const next = random(20_240_611);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;

  const users = new Map(
    (await trx.selectFrom('users').select(['id', 'username']).execute()).map((u) => [u.username, u.id]),
  );
  const statuses = await trx.selectFrom('ticket_statuses').select(['id', 'name', 'stage']).orderBy('id').execute();
  const [areas, projects, categories, priorities, difficulties] = await Promise.all([
    idsOf(trx, 'areas'),
    idsOf(trx, 'projects'),
    idsOf(trx, 'categories'),
    idsOf(trx, 'priority_types'),
    idsOf(trx, 'difficulties'),
  ]);
  const user = (name: string) => users.get(name)!;
  const creators = ['admin', 'supervisor', 'supervisor', 'agente', 'lmartinez', 'admin'].map(user);
  // The demo agent gets the largest share, so their screens are full on first sign-in.
  const assignees = [
    'agente',
    'agente',
    'agente',
    'lmartinez',
    'lmartinez',
    'jcastillo',
    'jcastillo',
    'mflores',
    'mflores',
    'supervisor',
    null,
    null,
  ].map((u) => (u ? user(u) : null));

  const count = 60;
  for (let i = 0; i < count; i++) {
    const [name, description] = ticketTemplates[i % ticketTemplates.length]!;
    const place = places[Math.floor(i / ticketTemplates.length + i) % places.length]!;
    const assignee = assignees[i % assignees.length]!;
    // Unassigned tickets are still open; older tickets are more often closed.
    const age = (count - i) / count;
    const status =
      assignee === null
        ? statuses.find((s) => s.stage === 'open')!
        : next() < age * 0.6
          ? pick(statuses.filter((s) => s.stage === 'closed'))
          : next() < 0.55
            ? pick(statuses.filter((s) => s.stage === 'started'))
            : statuses.find((s) => s.stage === 'open')!;
    const createdAt = now - Math.round((count - i) * 2 * DAY - next() * DAY);
    const { id } = await trx
      .insertInto('tickets')
      .values({
        name: i < ticketTemplates.length ? name : `${name} ${place}`,
        description: `${description} en ${place}`,
        area_id: pick(areas),
        project_id: pick(projects),
        category_id: pick(categories),
        priority_type_id: pick(priorities),
        difficulty_id: pick(difficulties),
        status_id: status.id,
        stage: status.stage,
        created_by: creators[i % creators.length]!,
        user_assigned_id: assignee,
        created_at: new Date(createdAt).toISOString(),
        updated_at: new Date(createdAt + DAY).toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();

    if (assignee === null || status.stage === 'open') continue;
    const activities = 1 + Math.floor(next() * 4);
    for (let a = 0; a < activities; a++) {
      const at = new Date(createdAt + (a + 1) * 3 * 60 * 60 * 1000).toISOString();
      await trx
        .insertInto('activities')
        .values({
          name: activityNames[(i + a * 3) % activityNames.length]!,
          ticket_id: id,
          user_id: assignee,
          // Now and then an activity was registered by mistake and deleted.
          status_id: next() < 0.12 ? RECORD_STATUS.inactive : RECORD_STATUS.active,
          created_at: at,
          updated_at: at,
        })
        .execute();
    }
  }
  // Each demo ticket's timeline starts with its creation, as the migration gives existing tickets.
  await recordCreatedEvents(trx as unknown as Kysely<unknown>);
}
