import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { grantScreen } from './grant-screen.ts';
import { runStatements } from './run-statements.ts';

/**
 * Logistics references (Referencias, /reference-types, section ref_main):
 *
 * - `reference_types`: a name, a pattern (a restricted regular expression, checked before it is
 *   written) and an example it matches; `reextract_*` follow the background re-extraction of the
 *   tickets after a change of pattern (`reextract_after_id`: the last ticket id done, null when
 *   none is running). A database already seeded gets Embarque, Pedido, Guía and Placa, each
 *   marked to extract the tickets already written (the first background re-extraction does it).
 * - `ticket_references`: each ticket's references, normalised (upper case, no spaces), written in
 *   the ticket write's transaction; read by reference (`(type_id, value)`) and by ticket (the key).
 * - On PostgreSQL a write of the types is announced as `catalogs` (every process forgets its
 *   compiled patterns and the list answers).
 * - On a database already seeded, the screen's route, section and permissions: Administrador
 *   everything, Supervisor reads (a fresh database gets them from the seed, seed-data.ts).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const pg = dialect === 'postgres';
  const [serial, timestamp, now] = pg
    ? ['serial primary key', 'timestamptz', 'now()']
    : ['integer primary key autoincrement', 'text', `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`];
  const seeds: [string, string, string][] = [
    ['Embarque', 'EMB-\\d{6}', 'EMB-004512'],
    ['Pedido', 'PED-\\d{6}', 'PED-000123'],
    ['Guía', '\\d{10,12}', '1234567890'],
    ['Placa', '[A-Z]{3}-\\d{3}-[A-Z]', 'ABC-123-D'],
  ];
  const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;
  await runStatements(db, [
    `create table reference_types (
      id ${serial},
      name varchar(100) not null unique,
      pattern varchar(200) not null,
      example varchar(100) not null,
      status_id integer not null default 1 references statuses (id),
      reextract_after_id integer,
      reextract_done integer,
      reextract_total integer,
      created_at ${timestamp} not null,
      updated_at ${timestamp} not null
    )`,
    // Only a database already seeded (a fresh one gets them from the seed, after the migrations).
    `insert into reference_types (name, pattern, example, reextract_after_id, reextract_done, created_at, updated_at)
      select s.name, s.pattern, s.example, 0, 0, ${now}, ${now} from (
        ${seeds.map(([name, pattern, example]) => `select ${quote(name)} as name, ${quote(pattern)} as pattern, ${quote(example)} as example`).join(' union all ')}
      ) s where exists (select 1 from statuses where id = 1)`,
    `create table ticket_references (
      ticket_id integer not null references tickets (id) on delete cascade,
      type_id integer not null references reference_types (id) on delete cascade,
      value varchar(100) not null,
      primary key (ticket_id, type_id, value)
    )`,
    'create index ticket_references_value_idx on ticket_references (type_id, value, ticket_id)',
    ...(pg
      ? [
          `create trigger reference_types_invalidate after insert or update or delete on reference_types
            for each statement execute function portal_invalidate_statement('catalogs')`,
        ]
      : []),
  ]);
  await grantScreen(db, {
    route: 'reference-types',
    section: 'ref_main',
    grants: [
      { roleId: 1, flags: { r: 1, w: 1, u: 1, d: 1 } },
      { roleId: 2, flags: { r: 1, w: 0, u: 0, d: 0 } },
    ],
  });
}
