import { sql, type Kysely } from 'kysely';

/**
 * A database's schema as text, to compare two databases or one with a committed snapshot
 * (`src/db/schema-snapshot.<dialect>.txt`): tables with their columns, indexes, triggers with their
 * bodies, functions.
 */

/** SQL text as the database keeps it, without the indentation of the source it came from. */
const tidy = (text: string | null) =>
  (text ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => `    ${line}`)
    .join('\n');

export async function sqliteSchema(db: Kysely<unknown>): Promise<string> {
  const objects = (
    await sql<{ type: string; name: string; tbl_name: string; sql: string | null }>`
      select type, name, tbl_name, sql from sqlite_master order by type, name`.execute(db)
  ).rows;
  const out: string[] = [];
  for (const o of objects) {
    out.push(`${o.type} ${o.name}${o.type === 'table' ? '' : ` on ${o.tbl_name}`}`);
    if (o.type === 'table') {
      const columns = (
        await sql<{ name: string; type: string; notnull: number; dflt_value: string | null; pk: number }>`
          select name, type, "notnull", dflt_value, pk from pragma_table_xinfo(${o.name}) order by cid`.execute(db)
      ).rows;
      for (const c of columns) {
        out.push(
          `  ${c.name} ${c.type}${c.notnull ? ' not null' : ''}${c.dflt_value === null ? '' : ` default ${c.dflt_value}`}${c.pk ? ` pk${c.pk}` : ''}`,
        );
      }
    }
    out.push(tidy(o.sql));
  }
  return `${out.join('\n')}\n`;
}

export async function postgresSchema(db: Kysely<unknown>): Promise<string> {
  const rows = async <R>(query: ReturnType<typeof sql<R>>) => (await query.execute(db)).rows;
  const out: string[] = [];
  for (const e of await rows(sql<{ extname: string }>`select extname from pg_extension order by extname`)) {
    out.push(`extension ${e.extname}`);
  }
  const tables = await rows(sql<{ relname: string; relkind: string }>`
    select c.relname, c.relkind from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind in ('r', 'v', 'm', 'S') order by c.relkind, c.relname`);
  for (const t of tables) {
    out.push(`${{ r: 'table', v: 'view', m: 'materialized view', S: 'sequence' }[t.relkind]} ${t.relname}`);
    if (t.relkind === 'S') continue;
    const columns = await rows(sql<{ attname: string; type: string; attnotnull: boolean; def: string | null }>`
      select a.attname, format_type(a.atttypid, a.atttypmod) as type, a.attnotnull,
        pg_get_expr(d.adbin, d.adrelid) as def
      from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
      where a.attrelid = ${`public.${t.relname}`}::regclass and a.attnum > 0 and not a.attisdropped
      order by a.attnum`);
    for (const c of columns) {
      out.push(
        `  ${c.attname} ${c.type}${c.attnotnull ? ' not null' : ''}${c.def === null ? '' : ` default ${c.def}`}`,
      );
    }
    const constraints = await rows(sql<{ conname: string; def: string }>`
      select conname, pg_get_constraintdef(oid) as def from pg_constraint
      where conrelid = ${`public.${t.relname}`}::regclass order by conname`);
    for (const c of constraints) out.push(`  constraint ${c.conname} ${c.def}`);
    const options = await rows(sql<{ reloptions: string[] | null }>`
      select reloptions from pg_class where oid = ${`public.${t.relname}`}::regclass`);
    if (options[0]?.reloptions) out.push(`  with ${options[0].reloptions.join(', ')}`);
  }
  const indexes = await rows(sql<{ indexname: string; indexdef: string; reloptions: string[] | null }>`
    select i.indexname, i.indexdef, c.reloptions from pg_indexes i
    join pg_class c on c.relname = i.indexname and c.relnamespace = 'public'::regnamespace
    where i.schemaname = 'public' order by i.indexname`);
  for (const i of indexes) out.push(`index ${i.indexname}`, `    ${i.indexdef}`);
  const triggers = await rows(sql<{ tgname: string; relname: string; def: string; tgenabled: string }>`
    select t.tgname, c.relname, pg_get_triggerdef(t.oid) as def, t.tgenabled from pg_trigger t
    join pg_class c on c.oid = t.tgrelid
    where not t.tgisinternal and c.relnamespace = 'public'::regnamespace order by c.relname, t.tgname`);
  for (const t of triggers) {
    out.push(`trigger ${t.tgname} on ${t.relname}${t.tgenabled === 'O' ? '' : ` (enabled: ${t.tgenabled})`}`);
    out.push(`    ${t.def}`);
  }
  // The schema's own functions, not those an extension brought.
  const functions = await rows(sql<{ proname: string; def: string }>`
    select p.proname, pg_get_functiondef(p.oid) as def from pg_proc p
    where p.pronamespace = 'public'::regnamespace
      and not exists (select 1 from pg_depend d where d.classid = 'pg_proc'::regclass and d.objid = p.oid
                      and d.deptype = 'e')
    order by p.proname, pg_get_function_identity_arguments(p.oid)`);
  for (const f of functions) out.push(`function ${f.proname}`, tidy(f.def));
  return `${out.join('\n')}\n`;
}
