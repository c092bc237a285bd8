import { buildReport, type CheckOptions, judgeHistory, type Report, settleFindings, stalePins } from '@aiwg-cite/core';
import { createHistoryFacts } from './history-facts.ts';

/** Options of {@link markUnknownHashes}. */
export interface UnknownHashOptions {
  /** The check root (absolute). */
  readonly root: string;
  /** The options the report was built with, so verdict, strictness and overrides stay the same. */
  readonly options?: CheckOptions;
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * The history stage applied to a finished report, for callers outside the pipeline (`annotate`):
 * git's facts through {@link createHistoryFacts}, the verdicts of the core's `judgeHistory`.
 * A report with no stale citation is returned as it is.
 */
export async function markUnknownHashes(report: Report, input: UnknownHashOptions): Promise<Report> {
  const pins = stalePins(report.citations);
  if (pins.length === 0) return report;
  const answer = await createHistoryFacts({ root: input.root, ...(input.env === undefined ? {} : { env: input.env }) }).lookup(pins);
  const judged = judgeHistory(report.citations, answer);
  const changed = judged.findings.filter((finding, at) => finding !== report.citations[at]);
  if (changed.length === 0 && judged.notes.length === 0) return report;
  const overridden = settleFindings(changed, [], input.options?.severityOverrides).findings;
  const kept = judged.findings.filter((finding, at) => finding === report.citations[at]);
  const coverage = { ...report.coverage, notes: [...report.coverage.notes, ...judged.notes] };
  return buildReport([...kept, ...overridden], report.summary.files, coverage, input.options);
}
