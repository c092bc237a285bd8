import { describe, expect, it } from 'vitest';
import { editDistance } from './edit-distance.ts';
import { titleSimilarity } from './refs/normalize.ts';
import { nearestName } from './rules.ts';

describe('the one edit distance', () => {
  it('is Levenshtein over strings and word arrays', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('abc', '')).toBe(3);
    expect(editDistance(['a', 'b', 'c'], ['a', 'x', 'c', 'd'])).toBe(2);
  });

  it('counts a swap of neighbours as one edit only when asked (optimal string alignment)', () => {
    expect(editDistance('chekc', 'check')).toBe(2);
    expect(editDistance('chekc', 'check', { transpositions: true })).toBe(1);
    expect(editDistance('ca', 'abc', { transpositions: true })).toBe(3);
  });

  it('serves the rule-id did-you-mean and title similarity', () => {
    expect(nearestName('statistics/unsourced', ['statistic/unsourced', 'quote/unsourced'])).toBe('statistic/unsourced');
    expect(titleSimilarity('A study of things', 'A study of thing')).toBeGreaterThan(0.9);
  });
});
