/**
 * The one edit distance of the project: title similarity in the scholarly checks and every
 * "did you mean …?" (rule ids, config keys, commands, options).
 */

/** Options of {@link editDistance}. */
export interface EditDistanceOptions {
  /** Count two swapped neighbours as one edit (optimal string alignment). @default false */
  readonly transpositions?: boolean;
}

/**
 * Levenshtein distance between two sequences (strings or word arrays), O(n·m) time, O(m) memory;
 * with `transpositions`, the optimal string alignment distance (`teh` → `the` is one edit).
 */
export function editDistance<T>(a: ArrayLike<T>, b: ArrayLike<T>, options: EditDistanceOptions = {}): number {
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
      if (options.transpositions === true && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, (before[j - 2] as number) + 1);
      }
      current.push(value);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length] as number;
}
