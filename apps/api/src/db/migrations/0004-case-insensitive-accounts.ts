import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

const USERNAME_MAX = 50;
const EMAIL_MAX = 120;

interface UserRow {
  id: number;
  username: string;
  email: string;
}

interface Rename {
  id: number;
  field: 'username' | 'email';
  from: string;
  to: string;
  /** The earlier account that keeps the value. */
  keptBy: number | null;
}

/** `name_7`, shortened so it fits the column. */
function suffixedUsername(username: string, id: number, attempt: number): string {
  const suffix = attempt === 0 ? `_${id}` : `_${id}_${attempt}`;
  return `${username.slice(0, USERNAME_MAX - suffix.length)}${suffix}`;
}

/** `local.dup7@domain`, shortened so it fits the column. */
function suffixedEmail(email: string, id: number, attempt: number): string {
  const suffix = attempt === 0 ? `.dup${id}` : `.dup${id}_${attempt}`;
  const at = email.lastIndexOf('@');
  const [local, domain] = at > 0 ? [email.slice(0, at), email.slice(at)] : [email, ''];
  return `${local.slice(0, Math.max(1, EMAIL_MAX - domain.length - suffix.length))}${suffix}${domain}`;
}

/**
 * Decides the new values: e-mails trimmed and lower-cased; of two accounts
 * whose username or e-mail differ only by case, the older one keeps it and the
 * later one gets a suffix.
 */
export function planCaseInsensitiveAccounts(users: UserRow[]): Rename[] {
  const renames: Rename[] = [];
  const owners = { username: new Map<string, number>(), email: new Map<string, number>() };
  const wanted = (u: UserRow) => ({ username: u.username.trim(), email: u.email.trim().toLowerCase() });
  // Every value some account will hold as it is, so a suffixed value never lands on another one.
  const reserved = {
    username: new Set(users.map((u) => wanted(u).username.toLowerCase())),
    email: new Set(users.map((u) => wanted(u).email)),
  };
  const suffixed = { username: suffixedUsername, email: suffixedEmail };

  for (const user of [...users].sort((a, b) => a.id - b.id)) {
    const next = wanted(user);
    for (const field of ['username', 'email'] as const) {
      const key = next[field].toLowerCase();
      const keptBy = owners[field].get(key);
      let value = next[field];
      if (keptBy !== undefined) {
        for (let attempt = 0; ; attempt += 1) {
          value = suffixed[field](next[field], user.id, attempt);
          if (!reserved[field].has(value.toLowerCase())) break;
        }
        reserved[field].add(value.toLowerCase());
      }
      owners[field].set(value.toLowerCase(), user.id);
      if (value !== user[field]) {
        renames.push({ id: user.id, field, from: user[field], to: value, keptBy: keptBy ?? null });
      }
    }
  }
  return renames;
}

/**
 * E-mails and usernames become unique without regard to case: existing clashes
 * are reported (server log and audit_log) and resolved, e-mails are stored
 * trimmed and lower-cased, and `lower(…)` unique indexes keep it so on both databases.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  // The migration runs before the typed schema applies to it.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const k = db as Kysely<any>;
  const users = (await k.selectFrom('users').select(['id', 'username', 'email']).execute()) as UserRow[];
  const renames = planCaseInsensitiveAccounts(users);

  if (renames.length > 0) {
    // Two steps, so no intermediate state breaks the existing unique constraints.
    const ids = [...new Set(renames.map((r) => r.id))];
    for (const id of ids) {
      const fields = Object.fromEntries(
        renames.filter((r) => r.id === id).map((r) => [r.field, `__migrating_${r.field}_${id}`]),
      );
      await k.updateTable('users').set(fields).where('id', '=', id).execute();
    }
    const now = new Date().toISOString();
    for (const rename of renames) {
      await k
        .updateTable('users')
        .set({ [rename.field]: rename.to })
        .where('id', '=', rename.id)
        .execute();
      if (rename.keptBy === null) continue;
      const report = {
        field: rename.field,
        user_id: rename.id,
        from: rename.from,
        to: rename.to,
        kept_by: rename.keptBy,
      };
      console.warn(
        JSON.stringify({ level: 'warn', msg: 'migration 0004: duplicate account value renamed', ...report }),
      );
      await k
        .insertInto('audit_log')
        .values({
          event: 'migration.duplicate_renamed',
          user_id: rename.id,
          username: null,
          ip: null,
          detail: JSON.stringify(report),
          created_at: now,
        })
        .execute();
    }
  }

  await sql`create unique index users_username_lower_unique on users (lower(username))`.execute(db);
  await sql`create unique index users_email_lower_unique on users (lower(email))`.execute(db);
}
