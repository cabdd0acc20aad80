import { MAX_PAGE_SIZE, type TCatalogRecord } from '@portal/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client.ts';
import type { PageOf } from '@/lib/resource-api.ts';

type Permission = TCatalogRecord<'sections-permission'>;

/** Every section permission (all pages of the list), for the permission matrix. */
export const allSectionPermissionsQuery = () =>
  queryOptions({
    queryKey: ['resource', 'sections-permission', 'all'] as const,
    queryFn: async ({ signal }) => {
      const all: Permission[] = [];
      for (let page = 1; ; page++) {
        const body = await api.post<PageOf<Permission>>(
          '/sections-permission',
          { page, per_page: MAX_PAGE_SIZE, search: '' },
          { signal },
        );
        all.push(...body.data);
        if (page >= body.last_page) return all;
      }
    },
    staleTime: 0,
  });
