import { createHash } from 'node:crypto';
import type { CompiledQuery, Kysely, QueryResult } from 'kysely';
import type pg from 'pg';
import type { DB } from './schema.ts';

/** The start of a statement's text that asks for it to be prepared (`executePrepared`). */
const MARK = '/* prepared */ ';

/** A query builder or a `sql` template, not yet compiled. */
interface Compilable<R> {
  compile(executor: Kysely<DB>): CompiledQuery<R>;
}

/**
 * Runs a statement run often with the same text (each ticket creation's: the creation itself,
 * a group's lock and members, a notification; each SLA sweep round's lock and moves) as a
 * prepared statement on PostgreSQL: each pool connection parses it once and, after a few runs,
 * keeps one plan for it, where an unnamed statement is parsed and planned on every run. Only for statements whose best plan does not depend on the values
 * they are given (a list's does: its filters decide which index to read). SQLite keeps every
 * statement prepared already (database.ts `withStatementCache`), and reads the mark as a comment.
 */
export function executePrepared<R>(executor: Kysely<DB>, query: Compilable<R>): Promise<QueryResult<R>> {
  const compiled = query.compile(executor);
  return executor.executeQuery({ ...compiled, sql: MARK + compiled.sql });
}

/** Statement names by text: a digest per text, computed once. */
const names = new Map<string, string>();
const NAMES_KEPT = 1000;

function nameOf(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `p_${createHash('sha1').update(text).digest('hex')}`;
    if (names.size >= NAMES_KEPT) names.delete(names.keys().next().value!);
    names.set(text, name);
  }
  return name;
}

/** PostgreSQL's error when a prepared statement's result columns changed under it (a migration). */
const RESULT_TYPE_CHANGED = '0A000';

/**
 * Makes a pool client send each marked statement as a named prepared statement, named by its
 * text. After a migration that changes the columns a prepared statement answers, PostgreSQL
 * refuses to run it, and the connection prepares the text again under a new name (the old one
 * cannot always be dropped: the failed run may have aborted the transaction it was in). A run
 * outside a transaction changed nothing, so it is made again at once under the new name: the
 * caller never sees the refusal. Inside a transaction the run fails, with the transaction it
 * aborted, and the next one uses the new name.
 */
export function prepareMarkedStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => Promise<pg.QueryResult>;
  /** Names given up on this connection, by text: the next name to use. */
  const renamed = new Map<string, string>();
  const run = async (text: string, values: unknown[] | undefined) => {
    const name = renamed.get(text) ?? nameOf(text);
    // The connection's state before this run: 'I' is outside any transaction.
    const isAlone = client.getTransactionStatus() === 'I';
    try {
      return await query({ name, text, values });
    } catch (error) {
      if ((error as { code?: string }).code !== RESULT_TYPE_CHANGED) throw error;
      const next = `${name}_`.slice(-63);
      renamed.set(text, next);
      if (!isAlone) throw error;
      return query({ name: next, text, values });
    }
  };
  client.query = ((...args: unknown[]) => {
    const [text, values] = args;
    if (typeof text === 'string' && text.startsWith(MARK)) return run(text, values as unknown[] | undefined);
    return query(...args);
  }) as typeof client.query;
}
