/**
 * Appends every item of `items` to `target` in a loop. `target.push(...items)` passes each item
 * as an argument, so a large array (about 125,000 findings in one file) overflows the stack.
 */
export function appendAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}

/**
 * How many of the ascending `sorted` values are strictly below `limit`: one binary search (strings
 * in UTF-16 code unit order, as `Array.prototype.sort` leaves them).
 */
export function countBelow<T extends number | string>(sorted: readonly T[], limit: T): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((sorted[mid] as T) < limit) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Whether an ascending list holds a value ({@link countBelow}). */
export function sortedHas<T extends number | string>(sorted: readonly T[], value: T): boolean {
  return sorted[countBelow(sorted, value)] === value;
}

/** Whether a value is an array of strings (a guard for JSON read back). */
export function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** True when the ascending `offsets` hold one in `[start, end)`. */
export function holdsBetween(offsets: readonly number[], start: number, end: number): boolean {
  const at = countBelow(offsets, start);
  return at < offsets.length && (offsets[at] as number) < end;
}

/** Whether two lists hold the same items in the same order (compared with `===`). */
export function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let at = 0; at < a.length; at += 1) if (a[at] !== b[at]) return false;
  return true;
}
