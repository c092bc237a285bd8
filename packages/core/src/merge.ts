import { AiwgCiteError } from './errors.ts';
import { shardMessages } from './messages.ts';
import { buildReport, type Coverage, compareFindings, type Finding, type Report, type VerdictOptions } from './report.ts';

/** One shard's report and the name it was read from (for messages). */
export interface NamedReport {
  readonly name: string;
  readonly report: Report;
}

/**
 * Findings that speak for the whole run rather than for one document: a full run raises each at
 * most once, anchored at the first finding that needed it, so every shard may raise its own copy.
 */
export const RUN_LEVEL_RULES: ReadonlySet<string> = new Set(['corpus/absent']);

/**
 * Merges the reports of the shards of one run (`check --shard i/n`, i = 1..n) into the report the
 * full run gives: the same findings in the same order, the same summary and the same verdict under
 * the same verdict options. A document's findings come from exactly one shard; a document seen in
 * two inputs means the inputs are not shards of one split, which is an error. Coverage counts add
 * up; notes are kept once each, in first-seen order.
 */
export function mergeReports(inputs: readonly NamedReport[], options: VerdictOptions = {}): Report {
  const owner = new Map<string, string>();
  const findings: Finding[] = [];
  const runLevel = new Map<string, Finding>();
  const coverage: Coverage = { skippedInCode: 0, suppressed: 0, notes: [] };
  const notes = new Set<string>();
  let files = 0;
  for (const { name, report } of inputs) {
    files += report.summary.files;
    coverage.skippedInCode += report.coverage.skippedInCode;
    coverage.suppressed += report.coverage.suppressed;
    for (const note of report.coverage.notes) notes.add(note);
    const seenHere = new Set<string>();
    for (const finding of report.citations) {
      if (RUN_LEVEL_RULES.has(finding.rule)) {
        const kept = runLevel.get(finding.rule);
        if (kept === undefined || compareFindings(finding, kept) < 0) runLevel.set(finding.rule, finding);
        continue;
      }
      if (!seenHere.has(finding.file)) {
        const earlier = owner.get(finding.file);
        if (earlier !== undefined) {
          throw new AiwgCiteError('USAGE', shardMessages.overlap(finding.file, earlier, name));
        }
        owner.set(finding.file, name);
        seenHere.add(finding.file);
      }
      findings.push(finding);
    }
  }
  coverage.notes.push(...notes);
  return buildReport([...findings, ...runLevel.values()], files, coverage, options);
}
