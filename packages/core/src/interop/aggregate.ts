import { appendAll } from '../arrays.ts';
/**
 * Aggregation of verifier verdicts by authority (SPEC §8.2, seed 002) and the verbatim-quote
 * guarantee (SPEC §9.1, seed 001): a verifier's quote must occur in the source text, or its
 * definitive verdict is downgraded to `unknown` with the reason. Nothing here invents a verdict.
 */
import { normaliseQuoteText, quoteOccursIn } from '../scholarly/normalise-quote.ts';
import { mapChunkSpan } from './chunk.ts';
import { interopMessages } from './messages.ts';
import type { AggregatedVerdict, Claim, Evidence, SourceCheckVerdict, Verdict, VerdictBundle } from './schema.ts';

/** How a top tier of only `unknown` verdicts is treated. */
export type AggregatePolicy = 'authority' | 'prefer-definitive';

/** Options of {@link aggregateBundles}. */
export interface AggregateOptions {
  /**
   * `authority` (upstream's rule): the highest authority decides, even when it says `unknown`.
   * `prefer-definitive`: an all-`unknown` top tier falls through to the highest tier with a
   * definitive label. @default 'authority'
   */
  readonly policy?: AggregatePolicy;
  /** The verbatim-quote check; without it quotes are not checked. */
  readonly quotes?: QuoteCheck;
}

/** The verbatim-quote guarantee's inputs. */
export interface QuoteCheck {
  /**
   * The fetched or cached text of an evidence item's source, or `null` when none is available.
   * `evidence.source_text`, when present, is used before this is asked.
   */
  readonly sourceText: (evidence: Evidence) => string | null;
  /** Downgrade a quote whose source text is unavailable. @default true */
  readonly requireSourceText?: boolean;
  /** Downgrade a definitive verdict that carries no quote at all (source-check's rule). @default false */
  readonly requireQuotes?: boolean;
}

/** What the quote check did to one candidate. */
export type QuoteOutcome = 'matched' | 'no-quote' | 'unchecked' | 'downgraded' | 'not-definitive';

/** Dedupe window of upstream: same text, starts within 20 code points. */
const DUPLICATE_WINDOW = 20;

/**
 * Applies the verbatim-quote guarantee to one candidate. A `verified` or `contradicted` verdict
 * whose quote does not occur in the normalised source text (SPEC §5.3) becomes `unknown`, with
 * `downgraded: {from, reason}` and the reason at the head of the rationale.
 */
export function enforceQuotes(candidate: Verdict, check: QuoteCheck): { verdict: Verdict; outcome: QuoteOutcome } {
  if (candidate.label === 'unknown') return { verdict: candidate, outcome: 'not-definitive' };
  const quoted = candidate.evidence.filter((item) => typeof item.quote === 'string' && item.quote.trim() !== '');
  if (quoted.length === 0) {
    if (check.requireQuotes === true) return { verdict: downgrade(candidate, interopMessages.noQuote()), outcome: 'downgraded' };
    return { verdict: candidate, outcome: 'no-quote' };
  }
  let unchecked = false;
  for (const item of quoted) {
    const text = typeof item.source_text === 'string' ? item.source_text : check.sourceText(item);
    if (text === null) {
      if (check.requireSourceText === false) {
        unchecked = true;
        continue;
      }
      return { verdict: downgrade(candidate, interopMessages.noSourceText(item.url)), outcome: 'downgraded' };
    }
    if (!quoteOccursIn(item.quote as string, normaliseQuoteText(text))) {
      return { verdict: downgrade(candidate, interopMessages.quoteNotFound(item.quote as string, item.url)), outcome: 'downgraded' };
    }
  }
  return { verdict: candidate, outcome: unchecked ? 'unchecked' : 'matched' };
}

function downgrade(candidate: Verdict, reason: string): Verdict {
  const isPrivate =
    candidate.source_check_verdict === 'GROUNDED' ||
    candidate.source_check_verdict === 'UNGROUNDED' ||
    candidate.source_check_verdict === 'PARTIALLY_GROUNDED';
  const sourceCheck: SourceCheckVerdict = isPrivate ? 'PARTIALLY_GROUNDED' : 'INSUFFICIENT_EVIDENCE';
  return {
    ...candidate,
    label: 'unknown',
    source_check_verdict: sourceCheck,
    rationale: interopMessages.downgradedRationale(candidate.label, reason, candidate.rationale),
    downgraded: { from: candidate.label, reason },
  };
}

/**
 * Combines the candidates of one claim (SPEC §8.2): no candidates → `unknown` by `none`; otherwise
 * only the candidates at the maximum authority count (exact equality); if their labels differ the
 * result is `unknown` by `conflict` with the merged evidence, else the first passes through.
 */
export function aggregateCandidates(claim: Claim, candidates: readonly Verdict[], policy: AggregatePolicy = 'authority'): Verdict {
  if (candidates.length === 0) {
    return { claim, label: 'unknown', verifier_name: 'none', authority: 0, rationale: interopMessages.noCandidates(), evidence: [] };
  }
  const tiers = [...new Set(candidates.map((candidate) => candidate.authority))].sort((a, b) => b - a);
  const top = tiers[0] as number;
  const topTier = candidates.filter((candidate) => candidate.authority === top);
  if (policy === 'prefer-definitive' && topTier.every((candidate) => candidate.label === 'unknown')) {
    for (const authority of tiers.slice(1)) {
      const tier = candidates.filter((candidate) => candidate.authority === authority);
      if (tier.some((candidate) => candidate.label !== 'unknown')) {
        const decided = decideTier(claim, tier);
        return { ...decided, settled_over: topTier.map((candidate) => ({ verifier_name: candidate.verifier_name, authority: top })) };
      }
    }
  }
  return decideTier(claim, topTier);
}

function decideTier(claim: Claim, tier: readonly Verdict[]): Verdict {
  const first = tier[0] as Verdict;
  if (tier.every((candidate) => candidate.label === first.label)) return first;
  const evidence: Evidence[] = [];
  const seen = new Set<string>();
  for (const candidate of tier) {
    for (const item of candidate.evidence) {
      const key = JSON.stringify([item.url, item.title ?? null, item.quote ?? null]);
      if (seen.has(key)) continue;
      seen.add(key);
      evidence.push(item);
    }
  }
  return {
    claim,
    label: 'unknown',
    verifier_name: 'conflict',
    authority: first.authority,
    rationale: interopMessages.conflict(
      first.authority,
      tier.map((candidate) => ({ verifier: candidate.verifier_name, label: candidate.label })),
    ),
    evidence,
  };
}

/** The result of {@link aggregateBundles}, with what the quote check did. */
export interface AggregateResult {
  readonly aggregated: readonly AggregatedVerdict[];
  readonly quoteOutcomes: Readonly<Record<QuoteOutcome, number>>;
}

/**
 * Aggregates bundles like upstream's `aggregate`: claim spans are mapped from chunk to document
 * offsets (with the gap fix of SPEC §8.1), duplicate claims (same text, starts within 20 code
 * points) pool their candidates, and the result is sorted by span then text.
 */
export function aggregateBundles(bundles: readonly VerdictBundle[], options: AggregateOptions = {}): AggregateResult {
  const outcomes: Record<QuoteOutcome, number> = { matched: 0, 'no-quote': 0, unchecked: 0, downgraded: 0, 'not-definitive': 0 };
  const groups: { claim: Claim; candidates: Verdict[] }[] = [];
  for (const bundle of bundles) {
    const claim: Claim = { ...bundle.claim, sentence_span: mapChunkSpan(bundle.chunk.segments, bundle.claim.sentence_span) };
    const candidates = bundle.candidates.map((candidate) => {
      const mapped: Verdict = {
        ...candidate,
        claim: { ...candidate.claim, sentence_span: mapChunkSpan(bundle.chunk.segments, candidate.claim.sentence_span) },
      };
      if (options.quotes === undefined) return mapped;
      const checked = enforceQuotes(mapped, options.quotes);
      outcomes[checked.outcome] += 1;
      return checked.verdict;
    });
    const duplicate = groups.find(
      (group) =>
        group.claim.text === claim.text && Math.abs(group.claim.sentence_span.start - claim.sentence_span.start) <= DUPLICATE_WINDOW,
    );
    if (duplicate === undefined) groups.push({ claim, candidates });
    else appendAll(duplicate.candidates, candidates);
  }
  groups.sort(
    (a, b) =>
      a.claim.sentence_span.start - b.claim.sentence_span.start ||
      a.claim.sentence_span.end - b.claim.sentence_span.end ||
      (a.claim.text < b.claim.text ? -1 : a.claim.text > b.claim.text ? 1 : 0),
  );
  return {
    aggregated: groups.map((group) => ({
      claim: group.claim,
      verdict: aggregateCandidates(group.claim, group.candidates, options.policy),
    })),
    quoteOutcomes: outcomes,
  };
}
