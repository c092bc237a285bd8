import { escapeControls, type Finding, fromOkKey, type Report, RLM_LABELS, type Severity } from '@aiwg-cite/core';
import type { Palette } from '../color.ts';
import { formatCount } from '../count-format.ts';
import { prettyMessages } from '../messages.ts';

/** Options of {@link formatPretty}. */
export interface PrettyOptions {
  /** List every finding, infos included, and every coverage note. @default false */
  readonly verbose?: boolean;
  /** Errors only, no summary, no verdict (`--quiet`). @default false */
  readonly quiet?: boolean;
  /** Citations that checked out and were counted, not kept in the report (core `OkCounts`): summed in as `ok`. */
  readonly ok?: ReadonlyMap<string, number>;
}

/** How many places of one rule are shown before "and N more". */
const SHOWN_PER_RULE = 3;
/** A rule with more findings than this is shown as a group (one header, one line per place). */
const GROUP_FROM = 3;

const SEVERITY_ORDER: readonly Severity[] = ['error', 'warning', 'info', 'ok'];
const PLURAL: Readonly<Record<Severity, [string, string]>> = {
  error: ['error', 'errors'],
  warning: ['warning', 'warnings'],
  info: ['info', 'infos'],
  ok: ['ok', 'ok'],
};

/**
 * The human report, made to be read in a commit hook: errors and warnings grouped by rule (the first
 * few places of a rule, then "and N more"), infos counted, a summary with each status under its own
 * severity, and the verdict. A run with nothing to list prints one line. `--verbose` lists every
 * finding; JSON and SARIF always do.
 */
export function formatPretty(untrusted: Report, palette: Palette, options: PrettyOptions = {}): string {
  // Only what is printed is escaped (each finding as it is formatted, and the notes): a large run
  // lists a few places per rule, and escaping 100,000 findings to print 30 cost more than the rest.
  const report: Report = { ...untrusted, coverage: { ...untrusted.coverage, notes: untrusted.coverage.notes.map(escapeControls) } };
  const verbose = options.verbose === true;
  const listed = (finding: Finding) =>
    options.quiet === true
      ? finding.severity === 'error'
      : finding.severity === 'error' || finding.severity === 'warning' || (verbose && finding.severity === 'info');
  // One pass over the findings: each counted per severity and rule for the summary, and the listed
  // ones grouped by severity, then by rule in order of appearance.
  const bySeverity = new Map<Severity, Map<string, Finding[]>>(SEVERITY_ORDER.map((severity) => [severity, new Map()]));
  const counts: RuleCounts = new Map(SEVERITY_ORDER.map((severity) => [severity, new Map()]));
  for (const finding of report.citations) {
    const byRule = counts.get(finding.severity);
    byRule?.set(finding.rule, (byRule.get(finding.rule) ?? 0) + 1);
    if (!listed(finding)) continue;
    const groups = bySeverity.get(finding.severity) as Map<string, Finding[]>;
    const group = groups.get(finding.rule);
    if (group === undefined) groups.set(finding.rule, [finding]);
    else group.push(finding);
  }
  const lines: string[] = [];
  for (const groups of bySeverity.values()) for (const group of groups.values()) lines.push(...formatGroup(group, palette, verbose));
  if (options.quiet === true) return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
  if (lines.length === 0 && report.verdict === 'PASS' && !verbose) return `${formatOneLine(report, palette)}\n`;
  if (lines.length > 0) lines.push('');
  lines.push(...formatSummary(counts, verbose, options.ok));
  lines.push(palette.dim(formatCoverage(report, verbose)));
  lines.push(formatVerdict(report, palette));
  return `${lines.join('\n')}\n`;
}

function formatGroup(group: readonly Finding[], palette: Palette, verbose: boolean): string[] {
  if (verbose || group.length <= GROUP_FROM) return group.flatMap((finding) => formatFinding(finding, palette));
  const first = group[0] as Finding;
  const out = [`${severityLabel(first, palette)}  ${palette.dim(escapeControls(first.rule))}  ${prettyMessages.groupHeader(group.length)}`];
  out.push(...formatFinding(first, palette).map((line) => `  ${line}`));
  out.push(`  ${palette.dim(prettyMessages.alsoAt())}`);
  for (const finding of group.slice(1, SHOWN_PER_RULE + 1).map(escapeFinding))
    out.push(`    ${palette.bold(place(finding))}  ${statusLabel(finding)} ${finding.text}`);
  const more = group.length - 1 - SHOWN_PER_RULE;
  if (more > 0) out.push(`    ${prettyMessages.andMore(more)}`);
  return out;
}

function place(finding: Finding): string {
  return `${finding.file}:${finding.line}:${finding.column}`;
}

function severityLabel(finding: Finding, palette: Palette): string {
  switch (finding.severity) {
    case 'error':
      return palette.red('error  ');
    case 'warning':
      return palette.yellow('warning');
    case 'info':
      return palette.cyan('info   ');
    default:
      return palette.green('ok     ');
  }
}

function statusLabel(finding: Finding): string {
  if (finding.kind === 'rlm') return RLM_LABELS[finding.status] ?? finding.status.toUpperCase();
  return finding.status.toUpperCase();
}

/** One finding: `file:line:col  severity  rule  STATUS citation`, then its message and fix. */
export function formatFinding(untrusted: Finding, palette: Palette): string[] {
  const finding = escapeFinding(untrusted);
  const out = [
    `${palette.bold(place(finding))}  ${severityLabel(finding, palette)}  ${palette.dim(finding.rule)}  ${statusLabel(finding)} ${finding.text}`,
  ];
  out.push(`    ${finding.message}`);
  if (finding.fix !== null) out.push(`    ${palette.dim('fix:')} ${finding.fix}`);
  return out;
}

/** Per severity, each rule's count of findings; the map of every severity is there. */
type RuleCounts = Map<Severity, Map<string, number>>;

/**
 * The summary, one line per severity with each status counted under it:
 * `errors 2: ref/not-in-corpus 1, mention/missing 1`. Infos are counted here and listed only with
 * `--verbose`. `counts` are the report's findings counted; the citations that checked out and
 * were counted instead of kept are in `ok`.
 */
function formatSummary(counts: RuleCounts, verbose: boolean, ok: ReadonlyMap<string, number> = new Map()): string[] {
  const out: string[] = [];
  for (const severity of SEVERITY_ORDER) {
    const byRule = counts.get(severity) as Map<string, number>;
    if (severity === 'ok') {
      for (const [key, count] of ok) {
        const { rule } = fromOkKey(key);
        byRule.set(rule, (byRule.get(rule) ?? 0) + count);
      }
    }
    if (byRule.size === 0) continue;
    const total = [...byRule.values()].reduce((sum, value) => sum + value, 0);
    const parts = [...byRule]
      .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
      .map(([rule, value]) => `${escapeControls(rule)} ${count(value)}`);
    const tail = severity === 'info' && !verbose ? prettyMessages.infosListedWithVerbose() : '';
    out.push(`${PLURAL[severity][total === 1 ? 0 : 1]} ${count(total)}: ${parts.join(', ')}${tail}`);
  }
  return out;
}

/**
 * The coverage line: what was checked and what was skipped, so silence never reads as a pass. RLM
 * is explained here, the one place the term appears without a finding next to it. Kinds are listed
 * most cited first (then by name): an order that does not hang on which citation came first.
 */
export function formatCoverage(report: Report, verbose = true): string {
  const { summary, coverage } = report;
  const kinds = Object.entries(summary.kinds)
    .map(([kind, statuses]) => [kind, Object.values(statuses).reduce((sum, value) => sum + value, 0)] as const)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
    .map(([kind, total]) => `${kind} ${count(total)}`)
    .join(', ');
  const parts = [prettyMessages.checked(summary.files, kinds)];
  if (summary.kinds.rlm !== undefined) parts.push(prettyMessages.rlmExplained());
  if (coverage.skippedInCode > 0) parts.push(prettyMessages.skippedInCode(coverage.skippedInCode));
  if (coverage.suppressed > 0) parts.push(prettyMessages.suppressed(coverage.suppressed));
  parts.push(...(verbose ? coverage.notes : coverage.notes.filter((note) => !note.startsWith('corpus: '))));
  return `${parts.join('; ')}.`;
}

/** A passing run with nothing to list: the verdict and what was checked, on one line. */
function formatOneLine(report: Report, palette: Palette): string {
  const { summary, coverage } = report;
  const extra: string[] = [];
  if (summary.infos > 0) extra.push(prettyMessages.infos(summary.infos));
  const held = coverage.notes.filter((note) => /not shown|skipped/.test(note)).length;
  if (held > 0 || coverage.skippedInCode > 0) extra.push(prettyMessages.someNotChecked());
  return `${palette.green(prettyMessages.passCounts(summary.errors, summary.warnings))}: ${prettyMessages.passScope(summary.files, summary.citations)}${prettyMessages.seeVerbose(extra)}`;
}

function formatVerdict(report: Report, palette: Palette): string {
  const { errors, warnings } = report.summary;
  const text = prettyMessages.verdict(report.verdict === 'PASS', errors, warnings);
  return report.verdict === 'PASS' ? palette.green(text) : palette.red(palette.bold(text));
}

function count(value: number): string {
  return formatCount(value);
}

/**
 * A finding with every string a repository controls (file name, citation, messages that quote
 * them) passed through {@link escapeControls}: a terminal never receives their control
 * characters (C0, ESC, C1, bidirectional overrides).
 */
function escapeFinding(finding: Finding): Finding {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(finding)) out[key] = typeof value === 'string' ? escapeControls(value) : value;
  return out as Finding;
}
