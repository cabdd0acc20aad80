import type { Program } from 'estree';
import type { GetManualChunk, ManualChunkMeta, ModuleInfo } from 'rollup';

export interface ChunkGroup {
  /** Modules whose static imports the chunk holds: source paths from the project root, or `node_modules/…`. */
  roots: string[];
  /** Groups always loaded before this one: a module both need stays in theirs. */
  loadsAfter?: string[];
}

const ENTRY_CHUNK = 'index';
const SHARED_CHUNK = 'shared';

/**
 * Groups the code of the first screens into a few chunks instead of the dozens
 * Rollup makes by default (one per set of lazy screens sharing a module): on a
 * phone every request costs a round trip, and HTTP/1.1 runs six at a time.
 *
 * A group's chunk holds every module its roots import statically, except the
 * entry's and those another group needs too: those go to the group it loads
 * after, else to `shared` (what both /login and the ticket lists use), so no
 * first screen loads another's code. Other screens keep Rollup's default
 * chunks, importing from these what they share with them.
 */
export function firstScreenChunks(entry: string, groups: Record<string, ChunkGroup>): GetManualChunk {
  let chunkOf: Map<string, string> | undefined;
  return (id: string, meta: ManualChunkMeta) => {
    chunkOf ??= assignChunks(meta, entry, groups);
    return chunkOf.get(id);
  };
}

function assignChunks(meta: ManualChunkMeta, entry: string, groups: Record<string, ChunkGroup>) {
  const graph = new ModuleGraph(meta);
  const ids = [...meta.getModuleIds()];
  // As route-preloads.ts names modules: by the end of their path.
  const resolve = (module: string) => {
    const id = ids.find((i) => i.replaceAll('\\', '/').endsWith(`/${module}`));
    if (!id) throw new Error(`first-screen-chunks: no module ${module}`);
    return id;
  };
  const inEntry = graph.closure([resolve(entry)]);
  // Named too, or Rollup would move the entry's modules that a group imports into the group's chunk.
  const chunkOf = new Map([...inEntry].map((id) => [id, ENTRY_CHUNK]));
  const owners = new Map<string, Set<string>>();
  for (const [name, group] of Object.entries(groups)) {
    for (const id of graph.closure(group.roots.map(resolve))) {
      if (!inEntry.has(id)) owners.set(id, (owners.get(id) ?? new Set()).add(name));
    }
  }
  for (const [id, names] of owners) {
    const kept = [...names].filter((name) => !groups[name]!.loadsAfter?.some((before) => names.has(before)));
    chunkOf.set(id, kept.length === 1 ? kept[0]! : SHARED_CHUNK);
  }
  return chunkOf;
}

type Imports = Map<string, { id: string; names: Set<string> | 'all' }>;

/**
 * The modules a module needs, following the names it imports through
 * re-exporting index modules (`@mantine/core`, the icons, the contract): a
 * screen that imports `Button` needs Button's module, not every component the
 * index names. Anything not understood is followed whole.
 */
class ModuleGraph {
  private readonly imports = new Map<string, Imports>();

  constructor(private readonly meta: ManualChunkMeta) {}

  closure(roots: string[]): Set<string> {
    const seen = new Set<string>();
    const seenNames = new Set<string>();
    const stack = roots.map((id) => ({ id, names: 'all' as Set<string> | 'all' }));
    while (stack.length > 0) {
      const { id, names } = stack.pop()!;
      const info = this.meta.getModuleInfo(id);
      if (!info) continue;
      if (names !== 'all' && this.isReexportIndex(info)) {
        const fresh = new Set([...names].filter((name) => !seenNames.has(`${id}\0${name}`)));
        for (const name of fresh) seenNames.add(`${id}\0${name}`);
        if (fresh.size > 0) stack.push(...this.reexportTargets(info, fresh));
        continue;
      }
      if (seen.has(id)) continue;
      seen.add(id);
      for (const target of this.importsOf(info).values()) stack.push(target);
    }
    return seen;
  }

  /** What `info` imports, by module: the names it takes, or 'all' (a namespace, a side effect, a re-export). */
  private importsOf(info: ModuleInfo): Imports {
    let imports = this.imports.get(info.id);
    if (imports) return imports;
    imports = new Map();
    const program = info.ast as Program | null;
    const sources: string[] = [];
    const names = new Map<string, Set<string> | 'all'>();
    for (const node of program?.body ?? []) {
      if (
        node.type !== 'ImportDeclaration' &&
        node.type !== 'ExportAllDeclaration' &&
        !(node.type === 'ExportNamedDeclaration' && node.source)
      ) {
        continue;
      }
      const source = String(node.source!.value);
      if (!sources.includes(source)) sources.push(source);
      const taken = names.get(source) ?? new Set<string>();
      let next: Set<string> | 'all' = taken;
      if (node.type === 'ImportDeclaration' && node.specifiers.length > 0 && taken !== 'all') {
        for (const s of node.specifiers) {
          if (s.type !== 'ImportSpecifier') next = 'all';
          else if (next !== 'all')
            next.add(s.imported.type === 'Identifier' ? s.imported.name : String(s.imported.value));
        }
      } else {
        next = 'all';
      }
      names.set(source, next);
    }
    // Rollup lists a module's imports in the order their sources first appear.
    const isInOrder = sources.length === info.importedIds.length;
    info.importedIds.forEach((id, i) => {
      imports.set(id, { id, names: isInOrder ? names.get(sources[i]!)! : 'all' });
    });
    this.imports.set(info.id, imports);
    return imports;
  }

  /** A module of imports and one `export { … }` of them, nothing else (a package's index). */
  private isReexportIndex(info: ModuleInfo): boolean {
    const program = info.ast as Program | null;
    if (!program || info.id.startsWith('\0')) return false;
    return program.body.every(
      (node) =>
        (node.type === 'ImportDeclaration' && node.specifiers.length > 0) ||
        node.type === 'ExportAllDeclaration' ||
        (node.type === 'ExportNamedDeclaration' && node.declaration === null) ||
        (node.type === 'ExpressionStatement' && 'directive' in node),
    );
  }

  /** The modules behind `names` of a re-exporting index, with the names they export them as. */
  private reexportTargets(info: ModuleInfo, names: Set<string>): { id: string; names: Set<string> | 'all' }[] {
    const program = info.ast as Program;
    const byLocal = new Map<string, { source: string; name: string }>();
    const byExport = new Map<string, { source: string; name: string }>();
    const starSources: string[] = [];
    for (const node of program.body) {
      if (node.type === 'ImportDeclaration') {
        for (const s of node.specifiers) {
          const name =
            s.type === 'ImportSpecifier' ? nameOf(s.imported) : s.type === 'ImportDefaultSpecifier' ? 'default' : '*';
          byLocal.set(s.local.name, { source: String(node.source.value), name });
        }
      } else if (node.type === 'ExportAllDeclaration') {
        if (node.exported) byExport.set(nameOf(node.exported), { source: String(node.source.value), name: '*' });
        else starSources.push(String(node.source.value));
      } else if (node.type === 'ExportNamedDeclaration') {
        for (const s of node.specifiers) {
          const from = node.source
            ? { source: String(node.source.value), name: nameOf(s.local) }
            : byLocal.get(nameOf(s.local));
          if (from) byExport.set(nameOf(s.exported), from);
        }
      }
    }
    const idOf = this.sourceIds(info);
    const targets: { id: string; names: Set<string> | 'all' }[] = [];
    for (const name of names) {
      const from = byExport.get(name);
      const id = from && idOf.get(from.source);
      if (from && id) {
        targets.push({ id, names: from.name === '*' ? 'all' : new Set([from.name]) });
        continue;
      }
      // `export * from …`: the module that exports the name.
      const stars = starSources.map((s) => idOf.get(s)).filter((s): s is string => s !== undefined);
      const owner = stars.find((s) => this.meta.getModuleInfo(s)?.exports?.includes(name));
      if (owner) {
        targets.push({ id: owner, names: new Set([name]) });
        continue;
      }
      // Not understood: everything the index imports.
      return info.importedIds.map((id) => ({ id, names: 'all' }));
    }
    return targets;
  }

  private sourceIds(info: ModuleInfo): Map<string, string> {
    const program = info.ast as Program;
    const sources: string[] = [];
    for (const node of program.body) {
      if ('source' in node && node.source && !sources.includes(String(node.source.value))) {
        sources.push(String(node.source.value));
      }
    }
    return new Map(sources.length === info.importedIds.length ? sources.map((s, i) => [s, info.importedIds[i]!]) : []);
  }
}

const nameOf = (node: { type: string; name?: string; value?: unknown }) =>
  node.type === 'Identifier' ? node.name! : String(node.value);
