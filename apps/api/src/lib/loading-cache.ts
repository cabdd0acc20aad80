/**
 * A bounded map whose entries are loaded once and dropped on invalidation.
 * A load that an invalidation overtook is used by its caller but not kept.
 */
export function createLoadingCache<K, V>(max: number, canCache: () => boolean) {
  const entries = new Map<K, Promise<V>>();
  let generation = 0;
  return {
    get(key: K, load: () => Promise<V>): Promise<V> {
      if (!canCache()) return load();
      const cached = entries.get(key);
      if (cached) {
        entries.delete(key);
        entries.set(key, cached);
        return cached;
      }
      const startedAt = generation;
      const value = load();
      entries.set(key, value);
      if (entries.size > max) entries.delete(entries.keys().next().value!);
      const forget = () => {
        if (entries.get(key) === value) entries.delete(key);
      };
      value.then(() => {
        if (generation !== startedAt) forget();
      }, forget);
      return value;
    },
    delete(key: K) {
      generation += 1;
      entries.delete(key);
    },
    clear() {
      generation += 1;
      entries.clear();
    },
  };
}
