import {
  ADMIN_USER_FIELDS,
  PASSWORD_MSG,
  PROFILE_MSG,
  SECTIONS,
  ZPassword,
  type TChangePasswordResponse,
  type TLaboralInformation,
  type ZChangePasswordRequest,
  type ZUserProfileUpdate,
} from '@portal/contract';
import type { z } from 'zod';
import { forbidden, HttpError, notFound, type FieldErrors } from '../../lib/http-error.ts';
import type { AuditRepository } from '../audit/audit.repository.ts';
import { hashPassword, verifyPassword } from '../../lib/passwords.ts';
import type { TokenService } from '../auth/tokens.ts';
import type { CatalogService } from '../catalogs/catalog.service.ts';
import type { GroupsRepository } from '../groups/groups.repository.ts';
import type { PermissionsRepository } from '../permissions/permissions.repository.ts';
import type { AuthUserRow, UsersRepository } from '../users/users.repository.ts';
import { avatarUrl, imageExtension, MAX_AVATAR_BYTES, reencodeAvatar, type AvatarStore } from './avatars.ts';
import type { ProfileRepository } from './profile.repository.ts';

interface Deps {
  profile: ProfileRepository;
  users: UsersRepository;
  permissions: PermissionsRepository;
  catalogs: CatalogService;
  tokens: TokenService;
  audit: AuditRepository;
  avatars: AvatarStore;
  /** The groups the user belongs to, shown with the laboral information. */
  groups: Pick<GroupsRepository, 'groupsOf'>;
}

type Actor = Pick<AuthUserRow, 'id' | 'role_id' | 'username'>;
type ProfileUpdate = z.output<typeof ZUserProfileUpdate>;
type PasswordChange = z.output<typeof ZChangePasswordRequest>;

export interface PasswordChangeResult {
  statusCode: 200 | 422;
  body: TChangePasswordResponse;
}

const passwordFailure = (title: string, errors: FieldErrors): PasswordChangeResult => ({
  statusCode: 422,
  body: { status: false, title, message: Object.values(errors).flat().join('\n'), errors },
});

/**
 * A user reads and changes their own profile, password and avatar; changing
 * another user's needs the users section (the access rule of each route).
 */
export function createProfileService({ profile, users, permissions, catalogs, tokens, audit, avatars, groups }: Deps) {
  const mayManageUsers = (actor: Actor) => permissions.hasFlag(actor.role_id, SECTIONS.users, 'u');

  return {
    async laboralInformation(userId: number): Promise<Omit<TLaboralInformation, 'status'>> {
      const [row, memberships] = await Promise.all([profile.laboralInformation(userId), groups.groupsOf(userId)]);
      if (!row) throw notFound('El usuario no existe.');
      return {
        groups: memberships,
        role: { id: row.role_id, name: row.role_name },
        area: row.area_id === null ? null : { id: row.area_id, name: row.area_name ?? '' },
        supervisor: row.supervisor_id === null ? null : { id: row.supervisor_id, name: row.supervisor_name ?? '' },
        branch: row.branch,
      };
    },

    /** Personal fields for the user themselves; role, area, supervisor, branch and status only with the users section. */
    async update(actor: Actor, userId: number, input: ProfileUpdate, ip: string) {
      const values = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
      const touchesAdminFields = ADMIN_USER_FIELDS.some((f) => f in values);
      if (touchesAdminFields && !(await mayManageUsers(actor))) throw forbidden(PROFILE_MSG.adminFieldsForbidden);
      const before = await catalogs.show('users', userId);
      const record = await catalogs.update('users', userId, values, { userId: actor.id, username: actor.username, ip });
      if (record.status_id !== before.status_id) await users.endSessions(userId);
      return record;
    },

    /**
     * Checks the three rules and the current password (the caller's
     * own when an administrator changes another user's), stores the new hash
     * and ends every session of the user. A user changing their own password
     * gets a fresh token, so only their other sessions end.
     */
    async changePassword(
      actor: Actor,
      userId: number,
      input: PasswordChange,
      ip: string,
    ): Promise<PasswordChangeResult> {
      const target = await users.findById(userId);
      if (!target) throw notFound('El usuario no existe.');
      const isSelf = actor.id === userId;

      const missing: FieldErrors = {};
      for (const field of ['current_password', 'new_password', 'password_confirmation'] as const) {
        if (input[field] === '') missing[field] = ['Este campo es obligatorio.'];
      }
      if (Object.keys(missing).length > 0) return passwordFailure(PASSWORD_MSG.missingTitle, missing);

      const errors: FieldErrors = {};
      if (isSelf && input.new_password === input.current_password) {
        errors.new_password = [PASSWORD_MSG.sameAsCurrent];
      }
      if (input.new_password !== input.password_confirmation) {
        errors.password_confirmation = [PASSWORD_MSG.mismatch];
      }
      const rule = ZPassword.safeParse(input.new_password);
      if (!rule.success) (errors.new_password ??= []).push(...rule.error.issues.map((i) => i.message));
      if (Object.keys(errors).length > 0) return passwordFailure(PASSWORD_MSG.failedTitle, errors);

      const verifier = isSelf ? target : await users.findById(actor.id);
      if (!verifier || !(await verifyPassword(verifier.password_hash, input.current_password))) {
        await audit.record({
          event: 'password.change_refused',
          userId: actor.id,
          username: actor.username,
          ip,
          detail: { target: userId, reason: 'bad_current_password' },
        });
        return passwordFailure(PASSWORD_MSG.failedTitle, { current_password: [PASSWORD_MSG.wrongCurrent] });
      }

      const endedAt = Date.now();
      await profile.setPassword(userId, await hashPassword(input.new_password), endedAt);
      await audit.record({
        event: 'password.changed',
        userId: actor.id,
        username: actor.username,
        ip,
        detail: { target: userId },
      });
      const body: TChangePasswordResponse = {
        status: true,
        title: PASSWORD_MSG.successTitle,
        message: PASSWORD_MSG.success,
      };
      if (isSelf) {
        // The fresh token must be issued strictly after the instant the old sessions ended.
        while (Date.now() <= endedAt) await new Promise((resolve) => setTimeout(resolve, 1));
        body.data = { token: (await tokens.issue(userId)).token };
      }
      return { statusCode: 200, body };
    },

    async imageUrl(userId: number): Promise<string> {
      const row = await profile.findAvatar(userId);
      if (!row) throw notFound('El usuario no existe.');
      return avatarUrl(row.avatar_path);
    },

    async replaceAvatar(userId: number, bytes: Buffer): Promise<string> {
      const row = await profile.findAvatar(userId);
      if (!row) throw notFound('El usuario no existe.');
      if (bytes.length > MAX_AVATAR_BYTES) throw new HttpError(413, PROFILE_MSG.avatarTooLarge);
      if (!imageExtension(bytes)) throw new HttpError(415, PROFILE_MSG.avatarInvalid);
      // What is stored is what sharp decoded and wrote again, never the uploaded bytes.
      const image = await reencodeAvatar(bytes);
      if (!image) throw new HttpError(422, PROFILE_MSG.avatarUnreadable);
      const name = await avatars.save(image, 'webp');
      await profile.setAvatar(userId, name);
      await avatars.remove(row.avatar_path);
      return avatarUrl(name);
    },
  };
}
export type ProfileService = ReturnType<typeof createProfileService>;
