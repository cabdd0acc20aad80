import type {
  PermissionFlag,
  SectionName,
  TCheckPermissionResponse,
  TSectionPermission,
  TUserPermissionsResponse,
} from '@portal/contract';
import { queryOptions } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import { api } from './api-client.ts';
import { unlessJustAnswered } from './query-client.ts';
import type { Session } from './session.ts';

export const checkPermissionQuery = (session: Session, routeName: string) =>
  queryOptions({
    queryKey: ['check-permission', session.user.id, routeName],
    queryFn: ({ signal }) =>
      api.post<TCheckPermissionResponse>(
        '/check-permission',
        { user_id: session.user.id, role_id: session.user.role_id, route_name: routeName },
        { signal },
      ),
    retry: false,
    staleTime: 0,
    refetchOnMount: unlessJustAnswered,
  });

export const userPermissionsQuery = (session: Session) =>
  queryOptions({
    queryKey: ['user-permissions', session.user.id, session.user.role_id],
    queryFn: ({ signal }) =>
      api.post<TUserPermissionsResponse>('/user-permissions', { role_id: session.user.role_id }, { signal }),
    select: (data) => new Set(data.routes),
    staleTime: 60_000,
  });

export interface SectionAccess {
  sections: TSectionPermission[];
  /** Whether the role holds the flag on the section (1 or '1' count). */
  can(section: SectionName, flag: PermissionFlag): boolean;
  /** The screen may render (r on any of its sections). */
  canRead: boolean;
}

export function sectionAccess(sections: TSectionPermission[]): SectionAccess {
  const can = (section: SectionName, flag: PermissionFlag) =>
    sections.some((s) => s.name === section && Number(s[flag]) === 1);
  return { sections, can, canRead: sections.some((s) => Number(s.r) === 1) };
}

const noAccess = sectionAccess([]);
export const SectionAccessContext = createContext<SectionAccess>(noAccess);

/** The section flags of the current screen, from its /check-permission answer. */
export function useSectionAccess(): SectionAccess {
  return useContext(SectionAccessContext);
}

/** r, w, u, d of one section, as booleans for the screen's buttons. */
export function useSectionFlags(section: SectionName) {
  const { can } = useSectionAccess();
  const canRead = can(section, 'r');
  const canCreate = can(section, 'w');
  const canUpdate = can(section, 'u');
  const canChangeStatus = can(section, 'd');
  return { canRead, canCreate, canUpdate, canChangeStatus, hasActions: canUpdate || canChangeStatus };
}
