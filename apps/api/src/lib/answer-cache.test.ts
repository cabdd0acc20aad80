import { describe, expect, it } from 'vitest';
import { createAnswerCache, asksFresh } from './answer-cache.ts';

/** An announcer of invalidations, as the notification bus is one. */
function invalidations() {
  const listeners: ((invalidation: { kind: string }) => void)[] = [];
  return {
    isCaching: true,
    canCache() {
      return this.isCaching;
    },
    onInvalidate(listener: (invalidation: { kind: string }) => void) {
      listeners.push(listener);
    },
    emit(kind: string) {
      for (const listener of listeners) listener({ kind });
    },
  };
}

/** A load that counts its calls and answers `{"n":<call>}`. */
function counter() {
  let calls = 0;
  return {
    load: async () => JSON.stringify({ n: ++calls }),
    get calls() {
      return calls;
    },
  };
}

describe('kept answers', () => {
  it('answers a key from memory, as the same bytes, until an invalidation other than a revoked token', async () => {
    const bus = invalidations();
    const answers = createAnswerCache(bus, { max: 10 });
    const source = counter();
    const first = await answers.get(['areas', { page: 1 }], source.load);
    expect(await answers.get(['areas', { page: 1 }], source.load)).toBe(first);
    expect(String(first)).toBe('{"n":1}');

    bus.emit('token');
    expect(await answers.get(['areas', { page: 1 }], source.load)).toBe(first);
    bus.emit('catalogs');
    expect(String(await answers.get(['areas', { page: 1 }], source.load))).toBe('{"n":2}');
    expect(source.calls).toBe(2);
  });

  it('keeps one answer per key, the most recently used up to its bound', async () => {
    const answers = createAnswerCache(invalidations(), { max: 2 });
    const source = counter();
    await answers.get(['a'], source.load);
    await answers.get(['b'], source.load);
    await answers.get(['a'], source.load);
    await answers.get(['c'], source.load); // drops b, the least recently used
    expect(source.calls).toBe(3);
    await answers.get(['a'], source.load);
    expect(source.calls).toBe(3);
    await answers.get(['b'], source.load);
    expect(source.calls).toBe(4);
  });

  it('keeps nothing while changes could go unannounced, and loads again when asked fresh or cleared', async () => {
    const bus = invalidations();
    const answers = createAnswerCache(bus, { max: 10 });
    const source = counter();
    bus.isCaching = false;
    await answers.get(['a'], source.load);
    await answers.get(['a'], source.load);
    expect(source.calls).toBe(2);

    bus.isCaching = true;
    await answers.get(['a'], source.load);
    expect(String(await answers.get(['a'], source.load, { fresh: true }))).toBe('{"n":4}');
    expect(String(await answers.get(['a'], source.load))).toBe('{"n":4}');
    answers.clear();
    expect(String(await answers.get(['a'], source.load))).toBe('{"n":5}');
  });

  it('does not keep an answer whose load an invalidation overtook', async () => {
    const bus = invalidations();
    const answers = createAnswerCache(bus, { max: 10 });
    let release!: () => void;
    const loaded = answers.get(['a'], () => new Promise<string>((resolve) => (release = () => resolve('"old"'))));
    bus.emit('users');
    release();
    expect(String(await loaded)).toBe('"old"');
    expect(String(await answers.get(['a'], async () => '"new"'))).toBe('"new"');
  });

  it('reads Cache-Control: no-cache among other directives', () => {
    expect(asksFresh({ 'cache-control': 'no-cache' })).toBe(true);
    expect(asksFresh({ 'cache-control': 'max-age=0, No-Cache' })).toBe(true);
    expect(asksFresh({ 'cache-control': 'no-store' })).toBe(false);
    expect(asksFresh({})).toBe(false);
  });
});
