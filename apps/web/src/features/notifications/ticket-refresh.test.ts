import { describe, expect, it } from 'vitest';
import { createTicketRefresher } from './ticket-refresh.ts';

/** A refresh whose answer the test releases. */
function controlledRefresh() {
  const pending: (() => void)[] = [];
  let started = 0;
  return {
    refresh: () =>
      new Promise<void>((resolve) => {
        started += 1;
        pending.push(resolve);
      }),
    get started() {
      return started;
    },
    async answer() {
      pending.shift()?.();
      await new Promise((resolve) => setTimeout(resolve, 0));
    },
  };
}

describe('createTicketRefresher', () => {
  it('refreshes at once on the first change', () => {
    const r = controlledRefresh();
    createTicketRefresher(r.refresh).changed();
    expect(r.started).toBe(1);
  });

  it('runs one more refresh after the running one for every change that arrived meanwhile, never two at once', async () => {
    const r = controlledRefresh();
    const refresher = createTicketRefresher(r.refresh);
    refresher.changed();
    for (let i = 0; i < 20; i++) refresher.changed();
    expect(r.started).toBe(1);
    await r.answer();
    expect(r.started).toBe(2);
    await r.answer();
    expect(r.started).toBe(2);
    refresher.changed();
    expect(r.started).toBe(3);
  });

  it('keeps going after a failed refresh', async () => {
    let calls = 0;
    const refresher = createTicketRefresher(async () => {
      calls += 1;
      throw new Error('sin red');
    });
    refresher.changed();
    await new Promise((resolve) => setTimeout(resolve, 0));
    refresher.changed();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(calls).toBe(2);
  });
});
