import type { PermissionFlag, SectionName } from '@portal/contract';

/**
 * The types of the access plugin, on its own side: the rule a route declares,
 * the caller it loads, and the few services it calls. Domain modules and the
 * composition root satisfy them structurally, so neither imports the other
 * through the plugin (no import cycle, and the plugin knows no module).
 *
 * Who may call a route. Every /api route declares one; the plugin is the
 * single place that enforces it.
 * - `public`: anyone.
 * - `authenticated`: any signed-in, active user.
 * - a section and flag: the role must hold that flag (r list/read, w create,
 *   u update, d change-status); `unlessSelf` names a route param that, when it
 *   is the caller's own id, grants access without the section.
 * - `anyOf`: any one of several section flags.
 */
export type Access =
  | 'public'
  | 'authenticated'
  | { section: SectionName; flag: PermissionFlag; unlessSelf?: string }
  | { anyOf: { section: SectionName; flag: PermissionFlag }[] };

/** The claims of a verified access token. */
export interface AccessClaims {
  sub: string;
  jti: string;
  /** Issued-at and expiry, in unix seconds. */
  iat: number;
  exp: number;
}

/** The signed-in caller: an active user joined with their active role. */
export interface AccessUser {
  id: number;
  name: string;
  last_name: string;
  second_last_name: string | null;
  username: string;
  email: string;
  role_id: number;
  area_id: number | null;
  status_id: number;
  password_hash: string;
  sessions_valid_after: number;
  role_name: string;
  is_supervisor: number;
  role_status_id: number;
}

/** What the plugin calls: token verification, the session-in-force rule, grants, the audit log, CSRF. */
export interface AccessServices {
  tokens: { verify(token: string): Promise<AccessClaims> };
  sessions: {
    activeUser(session: { userId: number; jti: string; iat: number; exp: number }): Promise<AccessUser | undefined>;
  };
  permissions: { hasFlag(roleId: number, section: string, flag: PermissionFlag): Promise<boolean> };
  audit: {
    record(event: {
      event: string;
      userId?: number | null;
      username?: string | null;
      ip?: string | null;
      detail?: Record<string, unknown>;
    }): Promise<void>;
    /** A refusal that names no user: counted per event and address, written in batches. */
    recordAnonymous(event: string, ip: string | null, sample?: Record<string, unknown>): void;
  };
  csrf: { verify(token: string | undefined): boolean };
}
