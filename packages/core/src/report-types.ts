/**
 * The report's types: the JSON contract of `check --format json` (README "JSON output"), fields
 * only ever added. This module declares types only and imports nothing, so the CLI package ships
 * its declaration beside the programmatic API's (dist/report-types.d.ts) and the two cannot drift.
 */
/** Severity of a finding; `ok` marks a citation that checked out. */
export type Severity = 'error' | 'warning' | 'info' | 'ok';

/** The fields every finding carries (the JSON contract of `check --format json`). */
export interface FindingCore {
  /** The citing document, a POSIX path relative to the root. */
  readonly file: string;
  /** 1-based line of the citation's first character. */
  readonly line: number;
  /** 1-based column in UTF-16 code units. */
  readonly column: number;
  /** What was cited: `rlm`, `mention`, `ref`, `doi`, … */
  readonly kind: string;
  /** The citation exactly as written. */
  readonly text: string;
  /** The lowercase status from the closed enum of its kind. */
  readonly status: string;
  readonly severity: Severity;
  /** A stable rule id such as `rlm/stale`. */
  readonly rule: string;
  readonly message: string;
  /** How to fix it, or `null` when nothing needs fixing. */
  readonly fix: string | null;
}

/** A finding: the core fields plus kind-specific ones (`artifact`, `hash`, `cause`, …). */
export interface Finding extends FindingCore {
  readonly [field: string]: unknown;
}

/** Counts of the RLM summary block. */
export interface RlmSummary {
  total: number;
  fresh: number;
  stale: number;
  unversioned: number;
  missing: number;
  malformed: number;
  invalidRange: number;
}

/** The `summary` object of a report. */
export interface Summary {
  files: number;
  citations: number;
  errors: number;
  warnings: number;
  infos: number;
  rlm: RlmSummary;
  /** Count per kind and status: `{ "rlm": { "fresh": 3, "stale": 1 } }`. */
  kinds: Record<string, Record<string, number>>;
}

/** What was looked at and what was skipped, so a silent skip never reads as a pass. */
export interface Coverage {
  /** Candidates inside code that were not checked (see `--include-code`). */
  skippedInCode: number;
  /** Findings silenced by `aiwg-cite-disable-next-line`. */
  suppressed: number;
  /** Other notes, one line each. */
  notes: string[];
}

/** A complete check result. */
export interface Report {
  readonly version: 1;
  readonly verdict: 'PASS' | 'FAIL';
  readonly summary: Summary;
  readonly citations: readonly Finding[];
  readonly coverage: Coverage;
}
