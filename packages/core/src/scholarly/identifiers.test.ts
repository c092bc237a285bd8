import { describe, expect, it } from 'vitest';
import { arxivProblem, findArxivIds, findDois, isPlaceholderDoi, trimDoi } from './identifiers.ts';
import { normaliseQuoteText, quoteOccursIn } from './normalise-quote.ts';

const NOW = { year: 2026, month: 11 };

describe('DOIs', () => {
  it('trims trailing punctuation and unbalanced parentheses (SPEC §5.1)', () => {
    expect(trimDoi('10.1016/S0140-6736(97)11096-0).')).toBe('10.1016/S0140-6736(97)11096-0');
    expect(trimDoi('10.1145/3676932.3676933,')).toBe('10.1145/3676932.3676933');
  });

  it('finds bare, doi: and doi.org forms with exact offsets', () => {
    const text = 'See (DOI 10.1016/S0140-6736(97)11096-0). Also doi:10.1145/3676932.3676933 and https://doi.org/10.5555/ABC%2F1.';
    const dois = findDois(text);
    expect(dois.map((doi) => doi.raw)).toEqual(['10.1016/S0140-6736(97)11096-0', '10.1145/3676932.3676933', '10.5555/ABC/1']);
    const first = dois[0];
    expect(first && text.slice(first.start, first.end)).toBe('10.1016/S0140-6736(97)11096-0');
    expect(dois.every((doi) => doi.problem === null)).toBe(true);
    expect(dois[2]?.key).toBe('10.5555/abc/1');
  });

  it('reports a marked DOI that cannot be valid, and ignores numbers that only look like one', () => {
    expect(findDois('doi:10.12/abc')[0]?.problem).toMatch(/registrant code/);
    expect(findDois('It is 10.5 times faster; version 10.15/2020 shipped.')).toEqual([]);
  });

  it('recognises placeholders', () => {
    expect(isPlaceholderDoi('10.1234/example.2023')).toBe(true);
    expect(isPlaceholderDoi('10.1145/xxxxx')).toBe(true);
    expect(isPlaceholderDoi('10.1145/3576915.3000000', ['10.1145/3576915.3000000'])).toBe(true);
    expect(isPlaceholderDoi('10.48550/arXiv.1706.03762')).toBe(false);
  });

  it('leaves arXiv DOIs to the arXiv finder', () => {
    expect(findDois('doi:10.48550/arXiv.1706.03762')).toEqual([]);
    expect(findArxivIds('doi:10.48550/arXiv.1706.03762', NOW).map((id) => id.raw)).toEqual(['1706.03762']);
  });
});

describe('arXiv ids', () => {
  it('accepts new and old style ids with versions', () => {
    expect(arxivProblem('1706.03762', NOW)).toBeNull();
    expect(arxivProblem('2005.14165v4', NOW)).toBeNull();
    expect(arxivProblem('0704.0001', NOW)).toBeNull();
    expect(arxivProblem('hep-th/9901001', NOW)).toBeNull();
    expect(arxivProblem('math.GT/0309136', NOW)).toBeNull();
  });

  it('rejects bad months, digit counts, future and out-of-era ids', () => {
    expect(arxivProblem('1713.01234', NOW)).toMatch(/month/);
    expect(arxivProblem('2301.1234', NOW)).toMatch(/5 digits/);
    expect(arxivProblem('1412.12345', NOW)).toMatch(/4 digits/);
    expect(arxivProblem('2612.00001', NOW)).toMatch(/future/);
    expect(arxivProblem('hep-th/0901001', NOW)).toMatch(/March 2007/);
    expect(arxivProblem('2509.99999', NOW)).toBeNull();
  });

  it('finds prefixed ids and drops a sentence-final period', () => {
    const found = findArxivIds('Vaswani et al. (arXiv:1706.03762). See https://arxiv.org/pdf/2005.14165v4.pdf and arXiv:2509.99999.', NOW);
    expect(found.map((id) => id.raw)).toEqual(['1706.03762', '2005.14165v4', '2509.99999']);
  });
});

describe('quote normalisation', () => {
  it('straightens quotes and dashes, joins hyphenation and collapses whitespace', () => {
    expect(normaliseQuoteText('“Attention” is all\n  you need — ﬁne-\ntuned')).toBe('"Attention" is all you need - finetuned');
  });

  it('matches ordered segments around an ellipsis and is case-sensitive', () => {
    const source = normaliseQuoteText('We propose a new simple network architecture, the Transformer, based solely on attention.');
    expect(quoteOccursIn('a new simple network architecture … based solely on attention', source)).toBe(true);
    expect(quoteOccursIn('based solely on attention … a new simple network', source)).toBe(false);
    expect(quoteOccursIn('A new simple network architecture', source)).toBe(false);
  });
});
