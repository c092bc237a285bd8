/**
 * Appends every item of `items` to `target` in a loop. `target.push(...items)` passes each item
 * as an argument, so a large array (about 125,000 findings in one file) overflows the stack.
 */
export function appendAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}
