/**
 * Appends every item of `items` to `target` in a loop. `target.push(...items)` passes each item
 * as an argument, so a large array (about 125,000 findings in one file) overflows the stack.
 */
export function appendAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}

/** True when the ascending `offsets` hold one in `[start, end)`: one binary search. */
export function holdsBetween(offsets: readonly number[], start: number, end: number): boolean {
  let low = 0;
  let high = offsets.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((offsets[mid] as number) < start) low = mid + 1;
    else high = mid;
  }
  return low < offsets.length && (offsets[low] as number) < end;
}
