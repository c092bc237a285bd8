import { describe, expect, it } from 'vitest';
import { buildReport, type Finding, type Severity } from '../report.ts';
import { isSourceCheckVerdict, isVerdictLabel, SOURCE_CHECK_VERDICTS } from './schema.ts';
import { toSourceCheck, toSourceCheckDocument } from './source-check.ts';
import { STATUS_VERDICTS, verdictsOf, withVerdicts } from './verdict-model.ts';

const finding = (kind: string, status: string, severity: Severity, extra: Partial<Finding> = {}): Finding => ({
  file: 'doc.md',
  line: 3,
  column: 7,
  kind,
  text: '[x]',
  status,
  severity,
  rule: `${kind}/${status}`,
  message: `a ${kind} that is ${status}`,
  fix: null,
  ...extra,
});

describe('one verdict model (SPEC §9.1)', () => {
  it.each([
    ['rlm', 'fresh', 'ok', 'GROUNDED', 'verified', 'private'],
    ['rlm', 'stale', 'warning', 'PARTIALLY_GROUNDED', 'unknown', 'private'],
    ['rlm', 'unversioned', 'warning', 'PARTIALLY_GROUNDED', 'unknown', 'private'],
    ['rlm', 'missing', 'error', 'UNGROUNDED', 'contradicted', 'private'],
    ['rlm', 'invalid-range', 'error', 'UNGROUNDED', 'contradicted', 'private'],
    ['mention', 'found', 'ok', 'GROUNDED', 'verified', 'private'],
    ['ref', 'not-in-corpus', 'error', 'CONTRADICTED', 'contradicted', 'factual_citation'],
    ['doi', 'verified', 'ok', 'VERIFIED', 'verified', 'factual_citation'],
    ['doi', 'unverified', 'warning', 'INSUFFICIENT_EVIDENCE', 'unknown', 'factual_citation'],
    ['doi', 'placeholder', 'error', 'CONTRADICTED', 'contradicted', 'factual_citation'],
    ['arxiv', 'retracted', 'error', 'CONTRADICTED', 'contradicted', 'factual_citation'],
    ['author-year', 'year-mismatch', 'warning', 'PARTIALLY_VERIFIED', 'unknown', 'factual_citation'],
    ['quote', 'not-found', 'error', 'CONTRADICTED', 'contradicted', 'factual_citation'],
    ['quote', 'uncheckable', 'info', 'INSUFFICIENT_EVIDENCE', 'unknown', 'factual_citation'],
    ['grade', 'overclaim', 'error', 'PARTIALLY_VERIFIED', 'unknown', 'scientific'],
    ['statistic', 'unsourced', 'warning', 'INSUFFICIENT_EVIDENCE', 'unknown', 'scientific'],
    ['footnote', 'something-new', 'warning', 'PARTIALLY_VERIFIED', 'unknown', 'factual_citation'],
    ['statute', 'whatever', 'error', 'CONTRADICTED', 'contradicted', 'factual_citation'],
  ] as const)('%s %s (%s) → %s / %s', (kind, status, severity, sourceCheck, citationAuditor, claimType) => {
    expect(verdictsOf(finding(kind, status, severity))).toEqual({ sourceCheck, citationAuditor, claimType });
  });

  it('never calls a finding downgraded to info contradicted', () => {
    expect(verdictsOf(finding('ref', 'not-in-corpus', 'info')).sourceCheck).toBe('INSUFFICIENT_EVIDENCE');
  });

  it('maps every listed status onto the enums', () => {
    let checked = 0;
    for (const [kind, statuses] of Object.entries(STATUS_VERDICTS)) {
      for (const status of Object.keys(statuses)) {
        const verdicts = verdictsOf(finding(kind, status, 'warning'));
        expect(isSourceCheckVerdict(verdicts.sourceCheck)).toBe(true);
        expect(isVerdictLabel(verdicts.citationAuditor)).toBe(true);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(30);
  });

  it('adds a verdicts field and renames nothing', () => {
    const [out] = withVerdicts([finding('rlm', 'fresh', 'ok', { artifact: 'a.ts' })]);
    expect(out).toMatchObject({
      kind: 'rlm',
      status: 'fresh',
      artifact: 'a.ts',
      verdicts: { sourceCheck: 'GROUNDED', citationAuditor: 'verified' },
    });
  });
});

describe('source-check results (check --format source-check)', () => {
  it('emits the schema’s required fields with an enum verdict and no invented tool calls or quotes', () => {
    const result = toSourceCheck(finding('doi', 'placeholder', 'error', { message: 'DOI `10.1234/x` is a placeholder' }));
    expect(result).toMatchObject({
      claim_id: 'doc.md:3:7',
      claim_text: '[x]',
      claim_type: 'factual_citation',
      verdict: 'CONTRADICTED',
      headline: '❌ contradicted · DOI `10.1234/x` is a placeholder',
      tool_calls_made: [],
      criteria: [{ id: 'source_existence', passed: false, evidence_quote: null }],
      criteria_summary: { passed: 0, failed: 1, out_of_scope: 0, total_applied: 1 },
      source_published_at: 'unknown',
    });
    expect((SOURCE_CHECK_VERDICTS as readonly string[]).includes(result.verdict)).toBe(true);
    expect(result.caveats[0]).toBe('doi/placeholder (doi placeholder, error)');
  });

  it('omits the source date for private claims and adds the scientific fields', () => {
    const grounded = toSourceCheck(finding('rlm', 'fresh', 'ok'));
    expect(grounded.claim_type).toBe('private');
    expect(grounded.criteria[0]?.id).toBe('faithful_to_context');
    expect('source_published_at' in grounded).toBe(false);
    const scientific = toSourceCheck(finding('grade', 'overclaim', 'error'));
    expect(scientific.out_of_scope_pathologies).toEqual(['#3', '#7']);
    expect(scientific.negative_control_attempted?.performed).toBe(false);
  });

  it('clips the headline to 140 characters', () => {
    expect([...toSourceCheck(finding('url', 'dead', 'error', { message: 'x'.repeat(300) })).headline]).toHaveLength(140);
  });

  it('summarises a report in seed 001’s summary line', () => {
    const report = buildReport(
      [finding('rlm', 'fresh', 'ok'), finding('rlm', 'missing', 'error'), finding('doi', 'unverified', 'warning')],
      1,
      { skippedInCode: 0, suppressed: 0, notes: [] },
    );
    const document = toSourceCheckDocument(report);
    expect(document.claims).toHaveLength(3);
    expect(new Set(document.claims.map((claim) => claim.claim_id)).size).toBe(3);
    expect(document.summary).toBe(
      '[source-check: 3 claims (✅0, ⚠️0, ❌0, 🔵1, 🔒1, 🔓1); claim-types: factual_citation 1, private 2; oldest source: unknown; warnings: 1]',
    );
  });
});
