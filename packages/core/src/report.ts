import type { Coverage, Finding, FindingCore, Report, RlmSummary } from './report-types.ts';

export type { Coverage, Finding, FindingCore, Report, RlmSummary, Severity, Summary } from './report-types.ts';

/** Options that decide PASS or FAIL. */
export interface VerdictOptions {
  /** Every warning becomes an error. @default false */
  readonly strict?: boolean;
  /** Fail when there are more warnings than this. @default Infinity */
  readonly maxWarnings?: number;
}

/** Turns warnings into errors under `--strict` (SPEC §1.2). */
export function escalate(findings: readonly Finding[], strict: boolean): Finding[] {
  if (!strict) return [...findings];
  return findings.map((finding) => (finding.severity === 'warning' ? { ...finding, severity: 'error' } : finding));
}

/**
 * Citations that checked out (severity `ok`), counted instead of kept, by `kind`, `status` and
 * `rule` (the key {@link okKey} makes). A pretty report lists none of them, and at a million
 * citations keeping them costs most of a run's memory and time; the summary still counts them.
 */
export type OkCounts = Map<string, number>;

/**
 * The keys made so far, by kind, status and rule. A run counts up to millions of citations under a
 * handful of keys: the same string each time is found in three small maps faster than a new one
 * is made and hashed (0.2× the time, over 900,000 citations). Kept to {@link OK_KEYS_KEPT} keys, so
 * that checkers with statuses of their own cannot make it grow without end.
 */
const okKeys = new Map<string, Map<string, Map<string, string>>>();
const OK_KEYS_KEPT = 4096;
let okKeysMade = 0;

/** The {@link OkCounts} key of a finding. */
export function okKey(finding: Pick<Finding, 'kind' | 'status' | 'rule'>): string {
  const { kind, status, rule } = finding;
  const known = okKeys.get(kind)?.get(status)?.get(rule);
  if (known !== undefined) return known;
  const key = `${kind}\u0000${status}\u0000${rule}`;
  if (okKeysMade < OK_KEYS_KEPT) {
    okKeysMade += 1;
    const byStatus = okKeys.get(kind) ?? new Map<string, Map<string, string>>();
    const byRule = byStatus.get(status) ?? new Map<string, string>();
    byRule.set(rule, key);
    byStatus.set(status, byRule);
    okKeys.set(kind, byStatus);
  }
  return key;
}

/** The kind, status and rule an {@link okKey} stands for. */
export function fromOkKey(key: string): { readonly kind: string; readonly status: string; readonly rule: string } {
  const [kind = '', status = '', rule = ''] = key.split('\u0000');
  return { kind, status, rule };
}

/** Counts one finding that checked out. */
export function countOk(counts: OkCounts, finding: Pick<Finding, 'kind' | 'status' | 'rule'>): void {
  const key = okKey(finding);
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/** Adds one set of counts to another. */
export function addOkCounts(into: OkCounts, counts: ReadonlyMap<string, number>): void {
  for (const [key, count] of counts) into.set(key, (into.get(key) ?? 0) + count);
}

/**
 * The citations of one document that checked out, counted and kept as their JSON text: at 50,000
 * citations, making, sorting and serialising an object for each of those costs a JSON report
 * more than the check (issue 13). Column by column, in report order ({@link compareInFile}; at
 * one place, in the order the checks gave them): each one's line, column, kind and counted key
 * ({@link okKey}, which decides its `verdicts`), and where its text ends in `json`, which holds
 * every text joined by commas: each one's text as `check --format json` writes it
 * (`JSON.stringify` of the finding, then its `verdicts`), so that a report copies a run of them as
 * one slice. `json` is text, or its bytes when they are all ASCII (as the result cache read them:
 * a report writes them out undecoded; `ends` count bytes then, which are its UTF-16 code units).
 */
export interface OkJson {
  readonly lines: readonly number[];
  readonly columns: readonly number[];
  readonly kinds: readonly string[];
  readonly keys: readonly string[];
  readonly json: string | Uint8Array;
  readonly ends: readonly number[];
}

/** Orders two findings of one file as {@link compareFindings} does: by position, then kind. */
export function compareInFile(a: Pick<FindingCore, 'line' | 'column' | 'kind'>, b: Pick<FindingCore, 'line' | 'column' | 'kind'>): number {
  return a.line - b.line || a.column - b.column || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0);
}

/** {@link compareInFile} of a document's text `at` and a finding. */
function compareText(texts: OkJson, at: number, finding: FindingCore): number {
  const kind = texts.kinds[at] as string;
  return (
    (texts.lines[at] as number) - finding.line ||
    (texts.columns[at] as number) - finding.column ||
    (kind < finding.kind ? -1 : kind > finding.kind ? 1 : 0)
  );
}

/**
 * Whether a document's `ok` findings can be kept as {@link OkJson}: none stands where another of
 * its findings stands (same line, column and kind), so that a writer placing the texts among the
 * other findings gives the order of a report that kept them all; and none carries its own
 * `verdicts` (the JSON report writes those).
 */
export function okJsonHolds(findings: readonly Pick<Finding, 'line' | 'column' | 'kind' | 'severity'>[]): boolean {
  const others = new Set<string>();
  for (const finding of findings) if (finding.severity !== 'ok') others.add(`${finding.line}:${finding.column}:${finding.kind}`);
  for (const finding of findings) {
    if (finding.severity !== 'ok') continue;
    if (Object.hasOwn(finding, 'verdicts') || others.has(`${finding.line}:${finding.column}:${finding.kind}`)) return false;
  }
  return true;
}

/**
 * Walks sorted citations and the documents' texts ({@link OkJson}, by file) together, in report
 * order ({@link compareFindings}), handing on each run of texts between two citations as the
 * document's texts and the indexes of the first and past the last. A text and a citation at the
 * same place: the text first. The pipeline keeps texts only where no other finding of the same
 * document stands at the same place, so such a citation came from a later stage (the corpus
 * checks), which a sort of every finding puts after it.
 */
export function inReportOrder(
  citations: readonly Finding[],
  texts: ReadonlyMap<string, OkJson>,
  onFinding: (finding: Finding) => void,
  onTexts: (texts: OkJson, from: number, to: number) => void,
): void {
  const files = [...texts.keys()].sort();
  let next = 0;
  let file = '';
  let current: OkJson | undefined;
  let at = 0;
  const textsBefore = (finding: Finding | null): void => {
    for (;;) {
      if (current === undefined || at === current.ends.length) {
        const following = files[next];
        if (following === undefined || (finding !== null && finding.file < following)) return;
        file = following;
        current = texts.get(following);
        at = 0;
        next += 1;
        continue;
      }
      if (finding !== null && finding.file < file) return;
      let to = current.ends.length;
      if (finding !== null && finding.file === file) {
        to = at;
        while (to < current.ends.length && compareText(current, to, finding) <= 0) to += 1;
      }
      if (to === at) return;
      onTexts(current, at, to);
      at = to;
    }
  };
  for (const finding of citations) {
    textsBefore(finding);
    onFinding(finding);
  }
  textsBefore(null);
}

/**
 * Builds the summary and verdict of a set of findings; `ok` counts citations that checked out and
 * were not kept (they join the summary, never `citations`). `okJson`, the texts of those counted
 * citations when a JSON report lists them, places them in the summary's `kinds` where a report
 * that kept them would.
 */
export function buildReport(
  findings: readonly Finding[],
  files: number,
  coverage: Coverage,
  options: VerdictOptions = {},
  ok: ReadonlyMap<string, number> = new Map(),
  okJson: ReadonlyMap<string, OkJson> = new Map(),
): Report {
  const citations = escalate(findings, options.strict === true).sort(compareFindings);
  const rlm: RlmSummary = { total: 0, fresh: 0, stale: 0, unversioned: 0, missing: 0, malformed: 0, invalidRange: 0 };
  const kinds: Record<string, Record<string, number>> = {};
  let errors = 0;
  let warnings = 0;
  let infos = 0;
  const count = (kind: string, status: string, by: number): void => {
    const byStatus = kinds[kind] ?? {};
    byStatus[status] = (byStatus[status] ?? 0) + by;
    kinds[kind] = byStatus;
  };
  const countFinding = (finding: Finding): void => {
    if (finding.severity === 'error') errors += 1;
    else if (finding.severity === 'warning') warnings += 1;
    else if (finding.severity === 'info') infos += 1;
    count(finding.kind, finding.status, 1);
    if (finding.kind === 'rlm') countRlm(rlm, finding.status, 1);
  };
  // Kinds and statuses come into `kinds` in report order, texts' (counted in `ok`) among the others.
  for (const first of firstPlaces(citations, okJson, ok)) count(first.kind, first.status, 0);
  for (const finding of citations) countFinding(finding);
  let counted = 0;
  for (const [key, by] of ok) {
    const { kind, status } = fromOkKey(key);
    count(kind, status, by);
    if (kind === 'rlm') countRlm(rlm, status, by);
    counted += by;
  }
  const failed = errors > 0 || warnings > (options.maxWarnings ?? Number.POSITIVE_INFINITY);
  return {
    version: 1,
    verdict: failed ? 'FAIL' : 'PASS',
    summary: { files, citations: citations.length + counted, errors, warnings, infos, rlm, kinds },
    citations,
    coverage,
  };
}

interface FirstPlace {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly kind: string;
  readonly status: string;
  readonly text: boolean;
}

/**
 * Where each kind and status first stands in report order, when some citations are kept as text
 * (none otherwise: the citations give that order themselves), ordered by it as
 * {@link inReportOrder} walks them. Each file's texts are in report order, so a key's first text
 * is in the first file (by name) that has one: the walk stops once every counted key is placed.
 */
function firstPlaces(citations: readonly Finding[], okJson: ReadonlyMap<string, OkJson>, ok: ReadonlyMap<string, number>): FirstPlace[] {
  if (okJson.size === 0) return [];
  const firsts = new Map<string, FirstPlace>();
  for (const finding of citations) {
    const key = `${finding.kind}\u0000${finding.status}`;
    if (!firsts.has(key)) {
      const { file, line, column, kind, status } = finding;
      firsts.set(key, { file, line, column, kind, status, text: false });
    }
  }
  const placed = new Set<string>();
  for (const file of [...okJson.keys()].sort()) {
    const texts = okJson.get(file) as OkJson;
    texts.keys.forEach((counted, at) => {
      if (placed.has(counted)) return;
      placed.add(counted);
      const { kind, status } = fromOkKey(counted);
      const key = `${kind}\u0000${status}`;
      const known = firsts.get(key);
      const place = { file, line: texts.lines[at] as number, column: texts.columns[at] as number, kind, status, text: true };
      if (known === undefined || compareFirst(place, known) < 0) firsts.set(key, place);
    });
    if (placed.size === ok.size) break;
  }
  return [...firsts.values()].sort(compareFirst);
}

/** Report order, a text before a citation at the same place ({@link inReportOrder}). */
function compareFirst(a: FirstPlace, b: FirstPlace): number {
  return compareFindings(a, b) || (a.text === b.text ? 0 : a.text ? -1 : 1);
}

function countRlm(rlm: RlmSummary, status: string, count: number): void {
  rlm.total += count;
  switch (status) {
    case 'fresh':
      rlm.fresh += count;
      break;
    case 'stale':
    case 'unknown-hash':
    case 'unstaged':
      rlm.stale += count;
      break;
    case 'unversioned':
      rlm.unversioned += count;
      break;
    case 'missing':
    case 'outside-root':
    case 'not-a-file':
      rlm.missing += count;
      break;
    case 'malformed':
      rlm.malformed += count;
      break;
    case 'invalid-range':
      rlm.invalidRange += count;
      break;
  }
}

/** Orders findings by file, then position. */
export function compareFindings(
  a: Pick<FindingCore, 'file' | 'line' | 'column' | 'kind'>,
  b: Pick<FindingCore, 'file' | 'line' | 'column' | 'kind'>,
): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return compareInFile(a, b);
}
