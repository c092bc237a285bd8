/**
 * "Did you mean …?" for commands, options and names: the closest candidate by optimal string
 * alignment distance (Levenshtein plus adjacent transpositions), if it is close enough to be a typo.
 */
export function closest(input: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = typoDistance(input.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  // A typo changes a few characters, never most of the word.
  const limit = Math.max(1, Math.min(3, Math.floor(input.length / 3)));
  return bestDistance <= limit ? best : undefined;
}

/** " (did you mean `x`?)" or "". */
export function didYouMean(input: string, candidates: Iterable<string>, render: (name: string) => string = (name) => name): string {
  const match = closest(input, candidates);
  return match === undefined ? '' : ` (did you mean \`${render(match)}\`?)`;
}

function typoDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d = new Uint16Array(rows * cols);
  for (let i = 0; i < rows; i += 1) d[i * cols] = i;
  for (let j = 0; j < cols; j += 1) d[j] = j;
  for (let i = 1; i < rows; i += 1) {
    for (let j = 1; j < cols; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(
        (d[(i - 1) * cols + j] as number) + 1,
        (d[i * cols + j - 1] as number) + 1,
        (d[(i - 1) * cols + j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, (d[(i - 2) * cols + j - 2] as number) + 1);
      d[i * cols + j] = value;
    }
  }
  return d[rows * cols - 1] as number;
}
