import { editDistance } from '@aiwg-cite/core';
import { cliMessages } from './messages.ts';

/**
 * "Did you mean …?" for commands, options and names: the closest candidate by optimal string
 * alignment distance (Levenshtein plus adjacent transpositions), if it is close enough to be a typo.
 */
export function closest(input: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = editDistance(input.toLowerCase(), candidate.toLowerCase(), { transpositions: true });
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
  return match === undefined ? '' : cliMessages.didYouMean(render(match));
}
