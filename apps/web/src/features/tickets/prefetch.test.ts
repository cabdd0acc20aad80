import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { pageSizeKey, writeStorage } from '@/lib/storage.ts';
import { ticketListQuery } from './api/tickets-api.ts';
import { prefetchTicketList } from './prefetch.ts';
import { currentListPageSizes, pageSizeListName } from './ticket-list-url.ts';

/** The list request the early prefetch makes (its query key), without sending anything. */
function prefetchedListKey(search: string) {
  const client = new QueryClient();
  const prefetch = vi.spyOn(client, 'prefetchQuery').mockResolvedValue(undefined);
  prefetchTicketList(client, 'mine', new URLSearchParams(search));
  return prefetch.mock.calls[0]![0].queryKey;
}

const request = (per_page: number, page = 1) =>
  ticketListQuery('mine', { page, per_page, search: '', filters: {}, sort: { by: 'id', dir: 'desc' } }).queryKey;

describe('the ticket list prefetch', () => {
  it('asks for the page the screen shows first, at its default size', () => {
    expect(prefetchedListKey('page=2')).toEqual(request(currentListPageSizes.defaultSize, 2));
  });

  it('asks for the page size the user chose for that list, if the screen still offers it', () => {
    const chosen = currentListPageSizes.sizes.at(-1)!;
    writeStorage(pageSizeKey(pageSizeListName('mine')), String(chosen));
    expect(prefetchedListKey('')).toEqual(request(chosen));
    writeStorage(pageSizeKey(pageSizeListName('mine')), '999');
    expect(prefetchedListKey('')).toEqual(request(currentListPageSizes.defaultSize));
  });
});
