import { describe, expect, it } from 'vitest';
import { aggregateBundles, aggregateCandidates, enforceQuotes, type QuoteCheck } from './aggregate.ts';
import type { Claim, Verdict, VerdictLabel } from './schema.ts';
import { validateAggregateInput, validateAggregateOutput } from './schema.ts';

const claim: Claim = {
  text: 'The claim under review.',
  sentence_span: { start: 10, end: 31 },
  claim_type: 'factual',
  suggested_verifier: 'general-web',
};

function verdict(label: VerdictLabel, verifier_name: string, authority: number, evidence: Verdict['evidence'] = []): Verdict {
  return { claim, label, verifier_name, authority, rationale: `${verifier_name} says ${label}.`, evidence };
}

describe('aggregation by authority (SPEC §8.2)', () => {
  it('gives unknown by none at authority 0 when there are no candidates', () => {
    const out = aggregateCandidates(claim, []);
    expect([out.label, out.verifier_name, out.authority, out.evidence]).toEqual(['unknown', 'none', 0, []]);
  });

  it('passes a single verdict through unchanged', () => {
    const only = verdict('verified', 'general-web', 0.5);
    expect(aggregateCandidates(claim, [only])).toBe(only);
  });

  it.each([
    ['higher authority wins', [verdict('verified', 'web', 0.5), verdict('contradicted', 'law', 1)], 'contradicted', 'law'],
    ['a 0.9 unknown beats a 0.5 contradicted', [verdict('contradicted', 'web', 0.5), verdict('unknown', 'law', 0.9)], 'unknown', 'law'],
    ['agreement at the top passes the first through', [verdict('verified', 'a', 1), verdict('verified', 'b', 1)], 'verified', 'a'],
    ['disagreement at the top is a conflict', [verdict('verified', 'a', 1), verdict('contradicted', 'b', 1)], 'unknown', 'conflict'],
    [
      'verified against unknown at the top is a conflict',
      [verdict('verified', 'a', 0.7), verdict('unknown', 'b', 0.7)],
      'unknown',
      'conflict',
    ],
    ['authority ties need exact equality', [verdict('verified', 'a', 0.7), verdict('contradicted', 'b', 0.70001)], 'contradicted', 'b'],
    [
      'lower tiers never count, even unanimous',
      [verdict('unknown', 'a', 0.9), verdict('verified', 'b', 0.5), verdict('verified', 'c', 0.5)],
      'unknown',
      'a',
    ],
  ] as const)('%s', (_name, candidates, label, verifier) => {
    const out = aggregateCandidates(claim, candidates);
    expect(out.label).toBe(label);
    expect(out.verifier_name).toBe(verifier);
  });

  it('merges the evidence of a conflict and keeps the top authority', () => {
    const out = aggregateCandidates(claim, [
      verdict('verified', 'a', 1, [{ url: 'https://a.test/' }, { url: 'https://shared.test/' }]),
      verdict('contradicted', 'b', 1, [{ url: 'https://shared.test/' }, { url: 'https://b.test/' }]),
      verdict('verified', 'low', 0.2, [{ url: 'https://low.test/' }]),
    ]);
    expect(out.authority).toBe(1);
    expect(out.evidence.map((item) => item.url)).toEqual(['https://a.test/', 'https://shared.test/', 'https://b.test/']);
    expect(out.rationale).toBe('Verifiers at authority 1 disagree: a says verified; b says contradicted.');
  });

  it('prefer-definitive (off by default) lets the highest definitive tier settle an all-unknown top', () => {
    const candidates = [verdict('unknown', 'top', 0.9), verdict('contradicted', 'mid', 0.6), verdict('verified', 'low', 0.3)];
    expect(aggregateCandidates(claim, candidates).verifier_name).toBe('top');
    const settled = aggregateCandidates(claim, candidates, 'prefer-definitive');
    expect([settled.label, settled.verifier_name]).toEqual(['contradicted', 'mid']);
    expect(settled.settled_over).toEqual([{ verifier_name: 'top', authority: 0.9 }]);
    // A definitive top is never overridden, and a conflicting lower tier stays a conflict.
    expect(
      aggregateCandidates(claim, [verdict('verified', 'top', 0.9), verdict('contradicted', 'mid', 0.6)], 'prefer-definitive').label,
    ).toBe('verified');
    const split = aggregateCandidates(
      claim,
      [verdict('unknown', 'top', 0.9), verdict('verified', 'x', 0.5), verdict('contradicted', 'y', 0.5)],
      'prefer-definitive',
    );
    expect(split.verifier_name).toBe('conflict');
    // With nothing definitive below, the top unknown stands.
    expect(
      aggregateCandidates(claim, [verdict('unknown', 'top', 0.9), verdict('unknown', 'low', 0.1)], 'prefer-definitive').verifier_name,
    ).toBe('top');
  });
});

describe('the verbatim-quote guarantee', () => {
  const source =
    'Following the judgment, it has become clear that several elements of the 1998 paper are incorrect. Therefore we fully retract this paper from the published record.';
  const check: QuoteCheck = { sourceText: (evidence) => (evidence.url === 'https://lancet.test/' ? source : null) };

  it('keeps a verdict whose quote occurs in the normalised source text', () => {
    const candidate = verdict('contradicted', 'crossref', 1, [{ url: 'https://lancet.test/', quote: '“we fully retract\nthis paper”' }]);
    expect(enforceQuotes(candidate, { sourceText: () => 'the authors said "we fully retract this paper" today' }).outcome).toBe('matched');
    const result = enforceQuotes(
      verdict('contradicted', 'crossref', 1, [{ url: 'https://lancet.test/', quote: 'fully retract this paper' }]),
      check,
    );
    expect(result.outcome).toBe('matched');
    expect(result.verdict.label).toBe('contradicted');
  });

  it('downgrades a fabricated quote to unknown, with the reason', () => {
    const candidate = verdict('verified', 'web', 0.9, [{ url: 'https://lancet.test/', quote: 'the findings were replicated in 2004' }]);
    const { verdict: out, outcome } = enforceQuotes(candidate, check);
    expect(outcome).toBe('downgraded');
    expect(out.label).toBe('unknown');
    expect(out.source_check_verdict).toBe('INSUFFICIENT_EVIDENCE');
    expect(out.downgraded).toEqual({
      from: 'verified',
      reason: 'the quote "the findings were replicated in 2004" does not occur in the text of `https://lancet.test/`',
    });
    expect(out.rationale).toMatch(/^Downgraded from verified to unknown: the quote .* Verifier's rationale: web says verified\.$/);
  });

  it('downgrades a quote with no source text unless told to leave it unchecked', () => {
    const candidate = verdict('verified', 'web', 0.9, [{ url: 'https://elsewhere.test/', quote: 'anything' }]);
    expect(enforceQuotes(candidate, check).outcome).toBe('downgraded');
    expect(enforceQuotes(candidate, { ...check, requireSourceText: false }).outcome).toBe('unchecked');
    // Inline source_text is used first.
    const inline = verdict('verified', 'web', 0.9, [
      { url: 'https://elsewhere.test/', quote: 'anything', source_text: 'not anything at all' },
    ]);
    expect(enforceQuotes(inline, check).outcome).toBe('matched');
  });

  it('leaves unknown verdicts alone and requires a quote only when asked', () => {
    expect(enforceQuotes(verdict('unknown', 'web', 0.9, [{ url: 'https://x.test/', quote: 'nope' }]), check).outcome).toBe(
      'not-definitive',
    );
    expect(enforceQuotes(verdict('verified', 'web', 0.9), check).outcome).toBe('no-quote');
    const required = enforceQuotes(verdict('verified', 'web', 0.9), { ...check, requireQuotes: true });
    expect([required.outcome, required.verdict.label]).toEqual(['downgraded', 'unknown']);
  });

  it('keeps a private claim private when downgrading', () => {
    const grounded: Verdict = {
      ...verdict('verified', 'ctx', 1, [{ url: 'context://q3', quote: 'profit 12k', source_text: 'profit 10k' }]),
      source_check_verdict: 'GROUNDED',
    };
    expect(enforceQuotes(grounded, check).verdict.source_check_verdict).toBe('PARTIALLY_GROUNDED');
  });

  it('runs before aggregation, so a downgraded top verdict no longer decides', () => {
    const chunk = { index: 0, text: 'x', segments: [{ chunk_start: 0, chunk_end: 40, document_start: 100, document_end: 140 }] };
    const bundle = {
      chunk,
      claim,
      candidates: [verdict('verified', 'web', 0.9, [{ url: 'https://lancet.test/', quote: 'invented words' }])],
    };
    const { aggregated, quoteOutcomes } = aggregateBundles([bundle], { quotes: check });
    expect(aggregated[0]?.verdict.label).toBe('unknown');
    expect(aggregated[0]?.claim.sentence_span).toEqual({ start: 110, end: 131 });
    expect(quoteOutcomes.downgraded).toBe(1);
  });
});

describe('bundles: spans, duplicates, order', () => {
  const chunkA = { index: 0, text: '', segments: [{ chunk_start: 0, chunk_end: 50, document_start: 0, document_end: 50 }] };
  const chunkB = { index: 1, text: '', segments: [{ chunk_start: 0, chunk_end: 50, document_start: 30, document_end: 80 }] };
  const at = (start: number, text = claim.text): Claim => ({ ...claim, text, sentence_span: { start, end: start + 5 } });

  it('pools duplicate claims (same text, document starts within 20) and sorts by span', () => {
    const later = at(40, 'Later claim.');
    const result = aggregateBundles([
      { chunk: chunkA, claim: later, candidates: [{ ...verdict('verified', 'a', 0.5), claim: later }] },
      { chunk: chunkA, claim: at(35), candidates: [{ ...verdict('verified', 'a', 0.5), claim: at(35) }] },
      // Chunk B's 10 is document 40: a duplicate of the claim at 35.
      { chunk: chunkB, claim: at(10), candidates: [{ ...verdict('contradicted', 'b', 0.5), claim: at(10) }] },
    ]);
    expect(result.aggregated.map((item) => [item.claim.text, item.claim.sentence_span.start, item.verdict.verifier_name])).toEqual([
      [claim.text, 35, 'conflict'],
      ['Later claim.', 40, 'a'],
    ]);
  });
});

describe('input validation', () => {
  const bundle = (candidates: unknown[]) => ({
    chunk: { index: 0, text: 'T', segments: [{ chunk_start: 0, chunk_end: 1, document_start: 0, document_end: 1 }] },
    claim,
    candidates,
  });
  const good = { ...verdict('verified', 'web', 0.5), evidence: [{ url: 'https://x.test/' }] };

  it('accepts the seed-002 schema', () => {
    const result = validateAggregateInput({ verdicts: [bundle([good])] });
    expect(result.ok && result.value.bundles[0]?.candidates.length).toBe(1);
  });

  it('drops and lists invalid candidates, never repairs them', () => {
    const result = validateAggregateInput({
      verdicts: [
        bundle([
          good,
          'garbage',
          { ...good, authority: 1.5 },
          { ...good, evidence: [{ url: '' }] },
          { ...good, verifier_name: '' },
          { ...good, claim: { ...claim, text: 'Another claim.' } },
          { ...good, source_check_verdict: 'CONTRADICTED' },
        ]),
      ],
    });
    if (!result.ok) throw new Error(result.problem);
    expect(result.value.bundles[0]?.candidates).toHaveLength(1);
    expect(result.value.dropped.map((item) => [item.bundle, item.candidate])).toEqual([
      [0, 1],
      [0, 2],
      [0, 3],
      [0, 4],
      [0, 5],
      [0, 6],
    ]);
    expect(result.value.dropped[1]?.reason).toBe('verdicts[0].candidates[2].authority must be a number in [0, 1]');
  });

  it.each([
    [
      { verdicts: [bundle([{ ...good, label: 'likely-true' }])] },
      'verdicts[0].candidates[0].label `likely-true` is not one of verified, contradicted, unknown',
    ],
    [{ verdicts: [bundle([good]), bundle([{ ...good, label: 'VERIFIED' }])] }, 'verdicts[1].candidates[0].label `VERIFIED`'],
    [{ verdicts: [bundle([{ ...good, source_check_verdict: 'MISLEADING' }])] }, 'source_check_verdict `MISLEADING` is not one of VERIFIED'],
    [{ verdicts: [{ ...bundle([]), claim: { ...claim, claim_type: 'opinion' } }] }, 'verdicts[0].claim.claim_type `opinion` is not one of'],
    [
      { verdicts: [{ ...bundle([]), claim: { ...claim, sentence_span: { start: 5, end: 2 } } }] },
      'verdicts[0].claim.sentence_span.end (2) is before .start (5)',
    ],
    [{ verdicts: [{ ...bundle([]), chunk: { index: -1, text: '' } }] }, 'verdicts[0].chunk.index must be a whole number'],
    [{ verdict: [] }, 'the input has no "verdicts" array'],
    [[], 'the input must be a JSON object'],
  ])('rejects %j', (input, problem) => {
    const result = validateAggregateInput(input);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.problem).toContain(problem);
  });

  it('validates aggregate output for annotate, off-enum labels included', () => {
    expect(validateAggregateOutput({ aggregated: [{ claim, verdict: good }] }).ok).toBe(true);
    const bad = validateAggregateOutput({ aggregated: [{ claim, verdict: { ...good, label: 'partially-true' } }] });
    expect(bad.ok ? '' : bad.problem).toBe('aggregated[0].verdict.label `partially-true` is not one of verified, contradicted, unknown');
    expect(validateAggregateOutput({ verdicts: [] }).ok).toBe(false);
  });
});
