import { RECORD_STATUS } from '@portal/contract';
import type { Kysely, Transaction } from 'kysely';
import { hashPassword } from '../lib/passwords.ts';
import { nowIso, type Database } from './database.ts';
import type { DB } from './schema.ts';
import { seedDemoTickets } from './seed-tickets.ts';
import { syncTicketIndex } from './ticket-derivations.ts';
import {
  DEMO_ADMIN_PASSWORD,
  DEMO_PASSWORD,
  adminSeed,
  businessCalendarSeeds,
  demoCatalogs,
  demoUserSeeds,
  referenceTypeSeeds,
  roleSeeds,
  routeSections,
  administratorSections,
  slaPolicySeeds,
  ticketStatusSeeds,
  type UserSeed,
} from './seed-data.ts';

export interface SeedOptions {
  demo: boolean;
  adminPassword: string | undefined;
}

export type SeedResult = 'seeded' | 'skipped';

/**
 * Seeds an empty database: the permission model, statuses and `admin` always;
 * the demo organisation (catalogues, users) when `demo` is set.
 */
export async function seedIfEmpty(database: Database, options: SeedOptions): Promise<SeedResult> {
  const { db } = database;
  const existing = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (existing) return 'skipped';
  const adminPassword = options.adminPassword ?? (options.demo ? DEMO_ADMIN_PASSWORD : undefined);
  if (!adminPassword) {
    throw new Error('ADMIN_PASSWORD is required to create the admin user when SEED_DEMO=0');
  }
  const users: [UserSeed, string][] = [[adminSeed, await hashPassword(adminPassword)]];
  if (options.demo) {
    const demoHash = await hashPassword(DEMO_PASSWORD);
    for (const seed of demoUserSeeds) users.push([seed, demoHash]);
  }
  await db.transaction().execute(async (trx) => {
    await seedPermissionModel(trx);
    await seedBusinessCalendars(trx);
    await seedReferenceTypes(trx);
    if (options.demo) await seedDemoCatalogs(trx);
    else await seedAreas(trx, [adminSeed.area]);
    await seedUsers(trx, users);
    if (options.demo) await seedDemoTickets(trx);
    await syncTicketIndex(trx, database.dialect);
  });
  return 'seeded';
}

const stamp = () => {
  const now = nowIso();
  return { created_at: now, updated_at: now, status_id: RECORD_STATUS.active };
};

async function seedPermissionModel(trx: Transaction<DB>) {
  await trx
    .insertInto('statuses')
    .values([
      { id: RECORD_STATUS.active, name: 'Activo' },
      { id: RECORD_STATUS.inactive, name: 'Inactivo' },
    ])
    .execute();

  const routeIds = new Map<string, number>();
  const sectionIds = new Map<string, number>();
  for (const [route, sections] of Object.entries(routeSections)) {
    const { id } = await trx
      .insertInto('routes')
      .values({ name: route, ...stamp() })
      .returning('id')
      .executeTakeFirstOrThrow();
    routeIds.set(route, id);
    for (const section of sections) {
      const row = await trx
        .insertInto('sections')
        .values({ name: section, route_id: id, ...stamp() })
        .returning('id')
        .executeTakeFirstOrThrow();
      sectionIds.set(section, row.id);
    }
  }

  for (const role of roleSeeds) {
    const { id: roleId } = await trx
      .insertInto('roles')
      .values({ name: role.name, is_supervisor: role.isSupervisor ? 1 : 0, ...stamp() })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const [route, flags] of Object.entries(role.grants)) {
      await trx
        .insertInto('routes_permission')
        .values({ route_id: routeIds.get(route)!, role_id: roleId, ...stamp() })
        .execute();
      for (const section of routeSections[route] ?? []) {
        if (administratorSections.includes(section) && !role.isAdministrator) continue;
        await trx
          .insertInto('sections_permission')
          .values({
            section_id: sectionIds.get(section)!,
            role_id: roleId,
            r: flags.includes('r') ? 1 : 0,
            w: flags.includes('w') ? 1 : 0,
            u: flags.includes('u') ? 1 : 0,
            d: flags.includes('d') ? 1 : 0,
            ...stamp(),
          })
          .execute();
      }
    }
  }

  await trx
    .insertInto('ticket_statuses')
    .values(ticketStatusSeeds.map((s) => ({ ...s, ...stamp() })))
    .execute();
}

async function seedAreas(trx: Kysely<DB>, names: readonly string[]) {
  await trx
    .insertInto('areas')
    .values(names.map((name) => ({ name, ...stamp() })))
    .execute();
}

async function seedDemoCatalogs(trx: Kysely<DB>) {
  await seedAreas(trx, demoCatalogs.areas);
  for (const table of ['categories', 'projects', 'difficulties', 'groups', 'priority_types'] as const) {
    await trx
      .insertInto(table)
      .values(demoCatalogs[table].map((name) => ({ name, ...stamp() })))
      .execute();
  }
  await seedSlaPolicies(trx);
}

/** Referencias; marked to extract the tickets seeded with them (the background re-extraction, once started). */
async function seedReferenceTypes(trx: Kysely<DB>) {
  await trx
    .insertInto('reference_types')
    .values(referenceTypeSeeds.map((t) => ({ ...t, ...stamp() })))
    .execute();
  await trx
    .insertInto('reference_reextractions')
    .columns(['type_id', 'after_id', 'done'])
    .expression((eb) => eb.selectFrom('reference_types').select(['id', eb.lit(0).as('after_id'), eb.lit(0).as('done')]))
    .execute();
}

async function seedBusinessCalendars(trx: Kysely<DB>) {
  await trx
    .insertInto('business_calendars')
    .values(
      businessCalendarSeeds.map((c) => ({
        name: c.name,
        time_zone: c.time_zone,
        week: JSON.stringify(c.week),
        holidays: JSON.stringify(c.holidays),
        ...stamp(),
      })),
    )
    .execute();
}

async function seedSlaPolicies(trx: Kysely<DB>) {
  const calendar = await trx
    .selectFrom('business_calendars')
    .select('id')
    .where('name', '=', businessCalendarSeeds[0]!.name)
    .executeTakeFirstOrThrow();
  const priorities = new Map(
    (await trx.selectFrom('priority_types').select(['id', 'name']).execute()).map((p) => [p.name, p.id]),
  );
  await trx
    .insertInto('sla_policies')
    .values(
      slaPolicySeeds.map(({ priority, ...policy }) => ({
        ...policy,
        priority_type_id: priorities.get(priority)!,
        area_id: null,
        calendar_id: calendar.id,
        ...stamp(),
      })),
    )
    .execute();
}

async function seedUsers(trx: Kysely<DB>, users: [UserSeed, string][]) {
  const areas = new Map((await trx.selectFrom('areas').select(['id', 'name']).execute()).map((a) => [a.name, a.id]));
  const ids = new Map<string, number>();
  for (const [seed, passwordHash] of users) {
    const { id } = await trx
      .insertInto('users')
      .values({
        name: seed.name,
        last_name: seed.last_name,
        second_last_name: seed.second_last_name,
        username: seed.username,
        email: seed.email,
        password_hash: passwordHash,
        role_id: seed.role,
        area_id: areas.get(seed.area) ?? null,
        supervisor_id: seed.supervisor ? (ids.get(seed.supervisor) ?? null) : null,
        branch: seed.branch,
        ...stamp(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.set(seed.username, id);
  }
}
