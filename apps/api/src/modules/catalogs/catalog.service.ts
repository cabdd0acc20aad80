import { MSG, RECORD_STATUS, type CatalogResourceName, type TListQuery } from '@portal/contract';
import type { Database } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/database.ts';
import { notFound, validationFailed, type FieldErrors } from '../../lib/http-error.ts';
import { createAnswerCache, type AnswerCounts } from '../../lib/answer-cache.ts';
import type { NotificationBus } from '../notifications/notifications.bus.ts';
import { catalogDefinitions, type CatalogDefinition } from './catalog.definitions.ts';
import { createCatalogRepository, type CatalogRepository } from './catalog.repository.ts';

type Values = Record<string, unknown>;

/** Who made a write (the audit log records it). */
export interface CatalogActor {
  userId: number;
  username: string;
  ip: string;
}

/** A record written through the catalogue: what it was, what it became, from which input, by whom. */
export interface CatalogWrite {
  resource: CatalogResourceName;
  action: 'created' | 'updated' | 'status_changed';
  before: Values | null;
  after: Values;
  input: Values;
  actor: CatalogActor | undefined;
}

/** How many list answers a process keeps (the most recently used). */
const MAX_LIST_ANSWERS = 500;

/**
 * The catalogues' records and lists. The lists are read far more often than
 * written (every form's options page, every back-office screen), so their
 * answers are kept in memory (lib/answer-cache.ts): every table a list
 * shows, its own and the ones it names, is announced by the bus when written
 * (migrations 0006, 0011 and 0015 on PostgreSQL).
 */
export function createCatalogService(
  database: Database,
  {
    bus,
    onPermissionsChange,
    onWrite,
    answerCounts,
  }: {
    bus?: Pick<NotificationBus, 'onInvalidate' | 'canCache'>;
    onPermissionsChange?: () => void;
    onWrite?: (write: CatalogWrite) => Promise<void>;
    answerCounts?: AnswerCounts;
  } = {},
) {
  const listAnswers = bus && createAnswerCache(bus, { max: MAX_LIST_ANSWERS, counts: answerCounts });
  /** Roles, routes, sections and both permission tables decide who may do what. */
  const written = (def: CatalogDefinition) => {
    if (def.affectsPermissions) onPermissionsChange?.();
  };
  const repositories = new Map<CatalogResourceName, { def: CatalogDefinition; repo: CatalogRepository }>(
    catalogDefinitions.map((def) => [def.resource, { def, repo: createCatalogRepository(database, def) }]),
  );
  const get = (resource: CatalogResourceName) => {
    const entry = repositories.get(resource);
    if (!entry) throw new Error(`Unknown catalog resource ${resource}`);
    return entry;
  };

  /**
   * Referenced ids must exist; unique groups must stay unique once `values`
   * are applied over `current` (the record being updated), so an update that
   * gives only one field of a group is still checked against the whole group.
   */
  async function checkWrite(
    def: CatalogDefinition,
    repo: CatalogRepository,
    values: Values,
    current?: { id: number; record: Values },
  ) {
    const errors: FieldErrors = {};
    for (const ref of def.references) {
      const id = values[ref.column];
      if (typeof id === 'number' && !(await repo.exists(ref.table, id, { isActiveOnly: ref.mustBeActive })))
        errors[ref.column] = [MSG.invalidReference];
    }
    const merged = current
      ? { ...Object.fromEntries(def.unique.flat().map((f) => [f, current.record[f]])), ...values }
      : values;
    if (def.check) {
      // A pattern refused by its schema never reaches here; the example is checked against the pattern kept.
      const record = { ...(current?.record ?? {}), ...values };
      for (const [field, messages] of Object.entries(def.check(record))) errors[field] = messages;
    }
    for (const group of await repo.findConflicts(merged, current?.id)) {
      for (const field of group) errors[field] = [MSG.duplicate];
    }
    if (Object.keys(errors).length > 0) throw validationFailed(errors);
  }

  async function write<T>(def: CatalogDefinition, action: () => Promise<T>): Promise<T> {
    try {
      const result = await action();
      written(def);
      return result;
    } catch (error) {
      // Another request took the value between our check and the write.
      if (isUniqueViolation(error))
        throw validationFailed(Object.fromEntries(def.unique.flat().map((f) => [f, [MSG.duplicate]])));
      throw error;
    }
  }

  /** The record as written, after telling `onWrite`. */
  async function reread(change: Omit<CatalogWrite, 'after'>, id: number) {
    const after = (await get(change.resource).repo.findById(id))!;
    await onWrite?.({ ...change, after });
    return after;
  }

  return {
    /** A page of the list as its answer's bytes (the JSON of `toJson`), from memory while nothing changed it (unless `fresh`). */
    async listAnswer(
      resource: CatalogResourceName,
      query: TListQuery,
      toJson: (page: unknown) => string,
      { fresh = false } = {},
    ) {
      const { def, repo } = get(resource);
      const load = async () => toJson(await repo.list(query));
      // Values kept beside the records change without a catalogue write: such a list is always read.
      return listAnswers && !def.readBeside
        ? listAnswers.get([resource, query], load, { fresh })
        : Buffer.from(await load());
    },

    async show(resource: CatalogResourceName, id: number) {
      const record = await get(resource).repo.findById(id);
      if (!record) throw notFound();
      return record;
    },

    async create(resource: CatalogResourceName, input: Values, actor?: CatalogActor) {
      const { def, repo } = get(resource);
      await checkWrite(def, repo, input);
      const values = def.prepare ? await def.prepare(input) : input;
      const id = await write(def, () => repo.insert(values));
      return reread({ resource, action: 'created', before: null, input, actor }, id);
    },

    async update(resource: CatalogResourceName, id: number, input: Values, actor?: CatalogActor) {
      const { def, repo } = get(resource);
      const current = await repo.findById(id);
      if (!current) throw notFound();
      // Only the fields given change: absent (undefined) ones keep their value.
      const allowed = Object.fromEntries(
        Object.entries(input).filter(([k, v]) => v !== undefined && !def.immutableOnUpdate?.includes(k)),
      );
      await checkWrite(def, repo, allowed, { id, record: current });
      const values = def.prepare ? await def.prepare(allowed) : allowed;
      await write(def, () => repo.update(id, values));
      return reread({ resource, action: 'updated', before: current, input: allowed, actor }, id);
    },

    /** Sets the given status, or toggles between Activo and Inactivo. */
    async changeStatus(resource: CatalogResourceName, id: number, statusId?: number, actor?: CatalogActor) {
      const { def, repo } = get(resource);
      const current = await repo.findById(id);
      if (!current) throw notFound();
      const next =
        statusId ?? (current.status_id === RECORD_STATUS.active ? RECORD_STATUS.inactive : RECORD_STATUS.active);
      await write(def, () => repo.update(id, { status_id: next, ...def.onStatusChange?.() }));
      return reread({ resource, action: 'status_changed', before: current, input: { status_id: next }, actor }, id);
    },

    /** Moves a record of an ordered catalogue to `position` (1 first). */
    async move(resource: CatalogResourceName, id: number, position: number, actor?: CatalogActor) {
      const { def, repo } = get(resource);
      const current = await repo.findById(id);
      if (!current) throw notFound();
      await write(def, () => repo.move(id, position));
      return reread({ resource, action: 'updated', before: current, input: { position }, actor }, id);
    },

    options: (resource: CatalogResourceName, filter: { isPrivilegedOnly?: boolean } = {}) =>
      get(resource).repo.activeOptions({
        isPrivilegedOnly: !!filter.isPrivilegedOnly && !!get(resource).def.hasPrivilegedOptions,
      }),
  };
}
export type CatalogService = ReturnType<typeof createCatalogService>;
