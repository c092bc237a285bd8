/**
 * aiwg-cite's findings as source-check verifier results (SPEC §9.1, seed 001's JSON schema), one
 * per citation, for `check --format source-check`. The checks are offline and deterministic, so
 * `tool_calls_made` is empty and no quote is claimed: the caveats say so rather than invent any.
 */
import type { Finding, Report } from '../report.ts';
import { interopMessages } from './messages.ts';
import type { SourceCheckClaimType, SourceCheckVerdict } from './schema.ts';
import { VERDICT_ICONS, VERDICT_WORDS, verdictsOf } from './verdict-model.ts';

/** source-check's criterion ids that an offline check can apply. */
export type CriterionId = 'source_existence' | 'verbatim_match' | 'external_consistency' | 'faithful_to_context';

/** One source-check result. */
export interface SourceCheckResult {
  readonly claim_id: string;
  readonly claim_text: string;
  readonly claim_type: SourceCheckClaimType;
  readonly verdict: SourceCheckVerdict;
  readonly headline: string;
  readonly tool_calls_made: readonly never[];
  readonly criteria: readonly {
    readonly id: CriterionId;
    readonly passed: boolean;
    readonly evidence_quote: null;
    readonly evidence_url: null;
    readonly context_window: null;
    readonly confidence: number;
  }[];
  readonly criteria_summary: {
    readonly passed: number;
    readonly failed: number;
    readonly out_of_scope: number;
    readonly total_applied: number;
  };
  readonly out_of_scope_pathologies?: readonly string[];
  readonly retraction_status?: null;
  readonly negative_control_attempted?: { readonly performed: false; readonly queries: readonly never[]; readonly findings: string };
  readonly source_published_at?: 'unknown';
  readonly caveats: readonly string[];
}

/** The document `check --format source-check` prints. */
export interface SourceCheckDocument {
  readonly claims: readonly SourceCheckResult[];
  /** Seed 001's summary line: `[source-check: N claims (✅V, ⚠️P, ❌C, 🔵U, 🔒G, 🔓UG); …]`. */
  readonly summary: string;
}

function criterionOf(kind: string, claimType: SourceCheckClaimType): CriterionId {
  if (claimType === 'private') return 'faithful_to_context';
  if (kind === 'quote') return 'verbatim_match';
  if (kind === 'grade') return 'external_consistency';
  return 'source_existence';
}

const HEADLINE_MAX = 140;

/** One finding as a source-check result. */
export function toSourceCheck(finding: Finding): SourceCheckResult {
  const { sourceCheck, claimType } = verdictsOf(finding);
  const passed = sourceCheck === 'VERIFIED' || sourceCheck === 'GROUNDED';
  const headlineText = `${VERDICT_ICONS[sourceCheck]} ${VERDICT_WORDS[sourceCheck]} · ${finding.message.replace(/\s+/g, ' ')}`;
  const headline = [...headlineText].length <= HEADLINE_MAX ? headlineText : `${[...headlineText].slice(0, HEADLINE_MAX - 1).join('')}…`;
  const result: SourceCheckResult = {
    claim_id: `${finding.file}:${finding.line}:${finding.column}`,
    claim_text: finding.text,
    claim_type: claimType,
    verdict: sourceCheck,
    headline,
    tool_calls_made: [],
    criteria: [
      { id: criterionOf(finding.kind, claimType), passed, evidence_quote: null, evidence_url: null, context_window: null, confidence: 1 },
    ],
    criteria_summary: { passed: passed ? 1 : 0, failed: passed ? 0 : 1, out_of_scope: 0, total_applied: 1 },
    ...(claimType === 'scientific'
      ? {
          out_of_scope_pathologies: ['#3', '#7'],
          retraction_status: null,
          negative_control_attempted: { performed: false, queries: [], findings: interopMessages.findingCaveat() },
        }
      : {}),
    ...(claimType === 'private' ? {} : { source_published_at: 'unknown' as const }),
    caveats: [`${finding.rule} (${finding.kind} ${finding.status}, ${finding.severity})`, interopMessages.findingCaveat()],
  };
  return result;
}

/** Every citation of a report as source-check results, with the summary line. */
export function toSourceCheckDocument(report: Report): SourceCheckDocument {
  // Two findings can share a position (a DOI inside a URL, a run-level note): keep claim ids unique.
  const seen = new Map<string, number>();
  const claims = report.citations.map((finding) => {
    const result = toSourceCheck(finding);
    const count = (seen.get(result.claim_id) ?? 0) + 1;
    seen.set(result.claim_id, count);
    return count === 1 ? result : { ...result, claim_id: `${result.claim_id}#${count}` };
  });
  const count = (verdict: SourceCheckVerdict): number => claims.filter((claim) => claim.verdict === verdict).length;
  const types = new Map<string, number>();
  for (const claim of claims) types.set(claim.claim_type, (types.get(claim.claim_type) ?? 0) + 1);
  const typeList = [...types.entries()].map(([type, n]) => `${type} ${n}`).join(', ') || 'none';
  const summary =
    `[source-check: ${claims.length} claims (✅${count('VERIFIED')}, ⚠️${count('PARTIALLY_VERIFIED') + count('PARTIALLY_GROUNDED')}, ` +
    `❌${count('CONTRADICTED')}, 🔵${count('INSUFFICIENT_EVIDENCE')}, 🔒${count('GROUNDED')}, 🔓${count('UNGROUNDED')}); ` +
    `claim-types: ${typeList}; oldest source: unknown; warnings: ${report.summary.warnings === 0 ? 'none' : report.summary.warnings}]`;
  return { claims, summary };
}
