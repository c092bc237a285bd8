/**
 * Runs `work` over `items` with at most `limit` calls in flight, in order of start. Resolves when
 * every call has finished; the first rejection rejects the whole run.
 */
export async function forEachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}
