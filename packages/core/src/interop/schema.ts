/**
 * The claim-pipeline schemas of citation-auditor (SPEC §8.2, seed 002) and the source-check
 * verdict enum (SPEC §9.1, seed 001), with strict validators. Validators return a result and
 * never throw: the CLI turns a rejection into one line naming the file and the problem.
 */
import type { ChunkSegment } from './chunk.ts';

/** citation-auditor's claim types. */
export const CLAIM_TYPES = ['factual', 'citation', 'quantitative', 'temporal', 'other'] as const;
/** A citation-auditor claim type. */
export type ClaimType = (typeof CLAIM_TYPES)[number];

/** citation-auditor's verdict labels; nothing else is accepted. */
export const VERDICT_LABELS = ['verified', 'contradicted', 'unknown'] as const;
/** A citation-auditor label. */
export type VerdictLabel = (typeof VERDICT_LABELS)[number];

/** source-check's verdicts for external claims. */
export const SOURCE_CHECK_FACTUAL = ['VERIFIED', 'CONTRADICTED', 'PARTIALLY_VERIFIED', 'INSUFFICIENT_EVIDENCE'] as const;
/** source-check's verdicts for claims about private, user-supplied context. */
export const SOURCE_CHECK_PRIVATE = ['GROUNDED', 'UNGROUNDED', 'PARTIALLY_GROUNDED'] as const;
/** Every source-check verdict. */
export const SOURCE_CHECK_VERDICTS = [...SOURCE_CHECK_FACTUAL, ...SOURCE_CHECK_PRIVATE] as const;
/** A source-check verdict. */
export type SourceCheckVerdict = (typeof SOURCE_CHECK_VERDICTS)[number];

/** source-check's claim types. */
export const SOURCE_CHECK_CLAIM_TYPES = ['factual_citation', 'time_sensitive', 'subjective', 'future', 'private', 'scientific'] as const;
/** A source-check claim type. */
export type SourceCheckClaimType = (typeof SOURCE_CHECK_CLAIM_TYPES)[number];

/** A half-open span in code points. */
export interface SentenceSpan {
  readonly start: number;
  readonly end: number;
}

/** A claim extracted from a chunk; its span is chunk-relative until `aggregate` maps it. */
export interface Claim {
  readonly text: string;
  readonly sentence_span: SentenceSpan;
  readonly claim_type: ClaimType;
  readonly suggested_verifier: string | null;
}

/**
 * One evidence item. `quote` and `source` are aiwg-cite additions for the verbatim-quote
 * guarantee: `quote` is the verifier's verbatim quote, `source` names the file (under
 * `aggregate --sources DIR`) holding the fetched or cached text of `url`, and `source_text` may
 * carry that text inline.
 */
export interface Evidence {
  readonly url: string;
  readonly title?: string | null;
  readonly snippet?: string | null;
  readonly extracted_text?: string | null;
  readonly quote?: string | null;
  readonly source?: string | null;
  readonly source_text?: string | null;
}

/** A verifier's verdict on a claim (citation-auditor's `Verdict`), plus optional aiwg-cite fields. */
export interface Verdict {
  readonly claim: Claim;
  readonly label: VerdictLabel;
  readonly verifier_name: string;
  /** In [0, 1]; equals the verifier's declared authority. */
  readonly authority: number;
  readonly rationale: string;
  readonly evidence: readonly Evidence[];
  /** A finer source-check verdict, consistent with `label` (aiwg-cite extension). */
  readonly source_check_verdict?: SourceCheckVerdict;
  /** Set when the verbatim-quote guarantee downgraded this verdict. */
  readonly downgraded?: { readonly from: VerdictLabel; readonly reason: string };
  readonly [extra: string]: unknown;
}

/** A chunk as it travels inside a verdict bundle. */
export interface ChunkPayload {
  readonly index: number;
  readonly text: string;
  readonly segments: readonly ChunkSegment[];
}

/** One bundle of `aggregate`'s input: every verifier candidate for one (chunk, claim). */
export interface VerdictBundle {
  readonly chunk: ChunkPayload;
  readonly claim: Claim;
  readonly candidates: readonly Verdict[];
}

/** A candidate that failed validation and was dropped, never repaired. */
export interface DroppedCandidate {
  readonly bundle: number;
  readonly candidate: number;
  readonly reason: string;
}

/** Validated `aggregate` input. */
export interface AggregateInput {
  readonly bundles: readonly VerdictBundle[];
  readonly dropped: readonly DroppedCandidate[];
}

/** `aggregate`'s output item. */
export interface AggregatedVerdict {
  readonly claim: Claim;
  readonly verdict: Verdict;
}

/** A validator's result. */
export type Validated<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: string };

type Json = unknown;

const isObject = (value: Json): value is Record<string, Json> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value: Json): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;
const fail = (problem: string): { ok: false; problem: string } => ({ ok: false, problem });

/** True for exactly `verified`, `contradicted` or `unknown`. */
export function isVerdictLabel(value: unknown): value is VerdictLabel {
  return typeof value === 'string' && (VERDICT_LABELS as readonly string[]).includes(value);
}

/** True for exactly one of the seven source-check verdicts. */
export function isSourceCheckVerdict(value: unknown): value is SourceCheckVerdict {
  return typeof value === 'string' && (SOURCE_CHECK_VERDICTS as readonly string[]).includes(value);
}

/** Validates a sentence span: whole numbers, `end >= start`. */
export function validateSpan(value: Json, where: string): Validated<SentenceSpan> {
  if (!isObject(value)) return fail(`${where} must be an object {start, end}`);
  if (!isCount(value.start) || !isCount(value.end)) return fail(`${where}.start and .end must be whole numbers >= 0`);
  if (value.end < value.start) return fail(`${where}.end (${value.end}) is before .start (${value.start})`);
  return { ok: true, value: { start: value.start, end: value.end } };
}

/** Validates a claim; its text is trimmed, as upstream does. */
export function validateClaim(value: Json, where: string): Validated<Claim> {
  if (!isObject(value)) return fail(`${where} must be an object`);
  if (typeof value.text !== 'string' || value.text.trim() === '') return fail(`${where}.text must be a non-empty string`);
  const span = validateSpan(value.sentence_span, `${where}.sentence_span`);
  if (!span.ok) return span;
  if (typeof value.claim_type !== 'string' || !(CLAIM_TYPES as readonly string[]).includes(value.claim_type)) {
    return fail(`${where}.claim_type \`${String(value.claim_type)}\` is not one of ${CLAIM_TYPES.join(', ')}`);
  }
  const suggested = value.suggested_verifier;
  if (suggested !== undefined && suggested !== null && typeof suggested !== 'string') {
    return fail(`${where}.suggested_verifier must be a string or null`);
  }
  return {
    ok: true,
    value: {
      text: value.text.trim(),
      sentence_span: span.value,
      claim_type: value.claim_type as ClaimType,
      suggested_verifier: typeof suggested === 'string' ? suggested.trim() : null,
    },
  };
}

/** Validates a chunk payload and its segment table. */
export function validateChunk(value: Json, where: string): Validated<ChunkPayload> {
  if (!isObject(value)) return fail(`${where} must be an object`);
  if (!isCount(value.index)) return fail(`${where}.index must be a whole number >= 0`);
  if (typeof value.text !== 'string') return fail(`${where}.text must be a string`);
  const rawSegments = value.segments ?? [];
  if (!Array.isArray(rawSegments)) return fail(`${where}.segments must be an array`);
  const segments: ChunkSegment[] = [];
  for (const [at, segment] of rawSegments.entries()) {
    const path = `${where}.segments[${at}]`;
    if (!isObject(segment)) return fail(`${path} must be an object`);
    for (const key of ['chunk_start', 'chunk_end', 'document_start', 'document_end'] as const) {
      if (!isCount(segment[key])) return fail(`${path}.${key} must be a whole number >= 0`);
    }
    segments.push({
      chunk_start: segment.chunk_start as number,
      chunk_end: segment.chunk_end as number,
      document_start: segment.document_start as number,
      document_end: segment.document_end as number,
    });
  }
  return { ok: true, value: { index: value.index, text: value.text, segments } };
}

/** Validates one evidence item: a non-empty `url`, optional strings. */
export function validateEvidence(value: Json, where: string): Validated<Evidence> {
  if (!isObject(value)) return fail(`${where} must be an object`);
  if (typeof value.url !== 'string' || value.url.trim() === '') return fail(`${where}.url must be a non-empty string`);
  const out: Record<string, string | null> = { url: value.url };
  for (const key of ['title', 'snippet', 'extracted_text', 'quote', 'source', 'source_text'] as const) {
    const field = value[key];
    if (field === undefined) continue;
    if (field !== null && typeof field !== 'string') return fail(`${where}.${key} must be a string or null`);
    out[key] = field;
  }
  return { ok: true, value: out as unknown as Evidence };
}

/**
 * Validates a verifier candidate. An off-enum label is not a broken candidate but a broken
 * contract, so it is reported apart (`offEnum`) and rejects the whole input.
 */
export function validateVerdict(value: Json, where: string): Validated<Verdict> & { offEnum?: boolean } {
  if (!isObject(value)) return fail(`${where} is not an object`);
  if (value.label === undefined) return fail(`${where}.label is missing`);
  if (!isVerdictLabel(value.label)) {
    return { ...fail(`${where}.label \`${String(value.label)}\` is not one of ${VERDICT_LABELS.join(', ')}`), offEnum: true };
  }
  if (value.source_check_verdict !== undefined && !isSourceCheckVerdict(value.source_check_verdict)) {
    return {
      ...fail(`${where}.source_check_verdict \`${String(value.source_check_verdict)}\` is not one of ${SOURCE_CHECK_VERDICTS.join(', ')}`),
      offEnum: true,
    };
  }
  const claim = validateClaim(value.claim, `${where}.claim`);
  if (!claim.ok) return claim;
  if (typeof value.verifier_name !== 'string' || value.verifier_name.trim() === '')
    return fail(`${where}.verifier_name must be a non-empty string`);
  if (typeof value.authority !== 'number' || !Number.isFinite(value.authority) || value.authority < 0 || value.authority > 1) {
    return fail(`${where}.authority must be a number in [0, 1]`);
  }
  if (typeof value.rationale !== 'string') return fail(`${where}.rationale must be a string`);
  const rawEvidence = value.evidence ?? [];
  if (!Array.isArray(rawEvidence)) return fail(`${where}.evidence must be an array`);
  const evidence: Evidence[] = [];
  for (const [at, item] of rawEvidence.entries()) {
    const checked = validateEvidence(item, `${where}.evidence[${at}]`);
    if (!checked.ok) return checked;
    evidence.push(checked.value);
  }
  const sourceCheck = value.source_check_verdict as SourceCheckVerdict | undefined;
  if (sourceCheck !== undefined && labelOfSourceCheck(sourceCheck) !== value.label) {
    return fail(`${where}.source_check_verdict \`${sourceCheck}\` disagrees with label \`${value.label}\``);
  }
  return {
    ok: true,
    value: {
      ...value,
      claim: claim.value,
      label: value.label,
      verifier_name: value.verifier_name,
      authority: value.authority,
      rationale: value.rationale,
      evidence,
    },
  };
}

/** The citation-auditor label of a source-check verdict. */
export function labelOfSourceCheck(verdict: SourceCheckVerdict): VerdictLabel {
  if (verdict === 'VERIFIED' || verdict === 'GROUNDED') return 'verified';
  if (verdict === 'CONTRADICTED' || verdict === 'UNGROUNDED') return 'contradicted';
  return 'unknown';
}

/**
 * Validates `aggregate`'s input `{verdicts: [bundle]}`. A broken bundle or an off-enum label
 * rejects the input; a broken candidate is dropped and listed, never repaired or invented.
 */
export function validateAggregateInput(value: Json): Validated<AggregateInput> {
  if (!isObject(value)) return fail('the input must be a JSON object {"verdicts": [...]}');
  if (!Array.isArray(value.verdicts)) return fail('the input has no "verdicts" array');
  const bundles: VerdictBundle[] = [];
  const dropped: DroppedCandidate[] = [];
  for (const [index, raw] of value.verdicts.entries()) {
    const where = `verdicts[${index}]`;
    if (!isObject(raw)) return fail(`${where} must be an object {chunk, claim, candidates}`);
    const chunk = validateChunk(raw.chunk, `${where}.chunk`);
    if (!chunk.ok) return chunk;
    const claim = validateClaim(raw.claim, `${where}.claim`);
    if (!claim.ok) return claim;
    const rawCandidates = raw.candidates ?? [];
    if (!Array.isArray(rawCandidates)) return fail(`${where}.candidates must be an array`);
    const candidates: Verdict[] = [];
    for (const [at, candidate] of rawCandidates.entries()) {
      const checked = validateVerdict(candidate, `${where}.candidates[${at}]`);
      if (checked.offEnum === true && !checked.ok) return checked;
      if (!checked.ok) {
        dropped.push({ bundle: index, candidate: at, reason: checked.problem });
      } else if (checked.value.claim.text !== claim.value.text) {
        dropped.push({ bundle: index, candidate: at, reason: `${where}.candidates[${at}].claim.text differs from the bundle's claim` });
      } else {
        candidates.push(checked.value);
      }
    }
    bundles.push({ chunk: chunk.value, claim: claim.value, candidates });
  }
  return { ok: true, value: { bundles, dropped } };
}

/** Validates `aggregate`'s output `{aggregated: [{claim, verdict}]}` (the input of `annotate --verdicts`). */
export function validateAggregateOutput(value: Json): Validated<AggregatedVerdict[]> {
  if (!isObject(value)) return fail('the verdicts file must be a JSON object {"aggregated": [...]}');
  if (!Array.isArray(value.aggregated)) return fail('the verdicts file has no "aggregated" array (run `aiwg-cite aggregate` first)');
  const out: AggregatedVerdict[] = [];
  for (const [index, raw] of value.aggregated.entries()) {
    const where = `aggregated[${index}]`;
    if (!isObject(raw)) return fail(`${where} must be an object {claim, verdict}`);
    const claim = validateClaim(raw.claim, `${where}.claim`);
    if (!claim.ok) return claim;
    const verdict = validateVerdict(raw.verdict, `${where}.verdict`);
    if (!verdict.ok) return verdict;
    out.push({ claim: claim.value, verdict: verdict.value });
  }
  return { ok: true, value: out };
}
