import type {
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

type Listener = (table: string) => void;

/** The tables an insert, update or delete writes to (its target, not the tables it reads). */
export function writtenTables(node: RootOperationNode): string[] {
  const target =
    node.kind === 'UpdateQueryNode'
      ? node.table
      : node.kind === 'InsertQueryNode'
        ? node.into
        : node.kind === 'DeleteQueryNode'
          ? node.from
          : undefined;
  const names: string[] = [];
  const visit = (n: OperationNode | undefined) => {
    if (!n) return;
    const rec = n as unknown as Record<string, unknown> & OperationNode;
    if (rec.kind === 'TableNode') {
      const table = rec.table as { identifier: { name: string } };
      names.push(table.identifier.name);
    } else if (rec.kind === 'AliasNode') {
      visit(rec.node as OperationNode);
    } else if (rec.kind === 'FromNode') {
      for (const f of rec.froms as OperationNode[]) visit(f);
    }
  };
  visit(target);
  return names;
}

/**
 * Tells listeners, in this process, after each write that reached the database
 * through Kysely, which table it wrote to. In-memory caches (sessions, grants)
 * use it to forget what a write may have changed; other processes learn of the
 * same writes through the database (see notifications.bus.ts).
 */
export function createWriteWatch() {
  const listeners = new Set<Listener>();
  const pending = new WeakMap<object, string[]>();
  const plugin: KyselyPlugin = {
    transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
      if (listeners.size > 0) {
        const tables = writtenTables(node);
        if (tables.length > 0) pending.set(queryId, tables);
      }
      return node;
    },
    async transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
      const tables = pending.get(queryId);
      if (tables) {
        pending.delete(queryId);
        for (const table of tables) for (const listener of listeners) listener(table);
      }
      return result;
    },
  };
  return {
    plugin,
    /** Calls `listener` with the table name after every insert, update or delete. */
    onWrite(listener: Listener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
export type WriteWatch = ReturnType<typeof createWriteWatch>;
