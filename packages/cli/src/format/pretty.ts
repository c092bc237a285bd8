import { type Finding, type Report, RLM_LABELS } from '@aiwg-cite/core';
import type { Palette } from '../color.ts';

/** The human report: one block per finding that needs attention, the RLM summary, coverage, verdict. */
export function formatPretty(report: Report, palette: Palette): string {
  const lines: string[] = [];
  const attention = report.citations.filter((finding) => finding.severity !== 'ok');
  for (const finding of attention) lines.push(...formatFinding(finding, palette));
  if (attention.length > 0) lines.push('');
  if (report.summary.rlm.total > 0) lines.push(...formatRlmBlock(report, palette), '');
  lines.push(palette.dim(formatCoverage(report)));
  lines.push(formatVerdict(report, palette));
  return `${lines.join('\n')}\n`;
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
export function formatFinding(finding: Finding, palette: Palette): string[] {
  const location = palette.bold(`${finding.file}:${finding.line}:${finding.column}`);
  const out = [`${location}  ${severityLabel(finding, palette)}  ${palette.dim(finding.rule)}  ${statusLabel(finding)} ${finding.text}`];
  out.push(`    ${finding.message}`);
  if (finding.fix !== null) out.push(`    ${palette.dim('fix:')} ${finding.fix}`);
  return out;
}

/** The RLM block of aiwg's verify-citations report (SPEC §2.4). */
export function formatRlmBlock(report: Report, palette: Palette): string[] {
  const { rlm } = report.summary;
  const lines = [
    palette.bold(`RLM Citations: ${rlm.total} total`),
    `  ${palette.green('✓')} Fresh: ${rlm.fresh}`,
    `  ${palette.yellow('⚠')} Stale: ${rlm.stale}`,
    `  ${palette.yellow('⚠')} Un-versioned: ${rlm.unversioned}`,
    `  ${palette.red('✗')} Missing: ${rlm.missing}`,
  ];
  if (rlm.malformed > 0) lines.push(`  ${palette.yellow('⚠')} Malformed: ${rlm.malformed}`);
  if (rlm.invalidRange > 0) lines.push(`  ${palette.red('✗')} Invalid range: ${rlm.invalidRange}`);
  // unknown-hash citations count as stale in the summary (a fabricated pin), so they are listed here too.
  const stale = report.citations.filter(
    (finding) => finding.kind === 'rlm' && (finding.status === 'stale' || finding.status === 'unknown-hash'),
  );
  if (stale.length > 0) {
    lines.push('STALE citations:');
    for (const finding of stale) {
      const reason =
        finding.status === 'stale'
          ? 'File modified since citation emitted'
          : 'Hash matches no version of the file in git history (unknown-hash)';
      lines.push(`  - ${finding.text}`, `    Current hash: ${String(finding.currentHash)}`, `    ${reason}`);
    }
  }
  const unversioned = report.citations.filter((finding) => finding.kind === 'rlm' && finding.status === 'unversioned');
  if (unversioned.length > 0) {
    lines.push('UN-VERSIONED citations:');
    for (const finding of unversioned) {
      lines.push(`  - ${finding.text}`, '    File exists but no content hash; run `aiwg-cite stamp`');
    }
  }
  return lines;
}

/** The coverage line: what was checked and what was skipped, so silence never reads as a pass. */
export function formatCoverage(report: Report): string {
  const { summary, coverage } = report;
  const kinds = Object.entries(summary.kinds)
    .map(([kind, statuses]) => `${kind} ${Object.values(statuses).reduce((sum, count) => sum + count, 0)}`)
    .join(', ');
  const parts = [`Checked ${summary.files} ${summary.files === 1 ? 'file' : 'files'}: ${kinds === '' ? 'no citations' : kinds}`];
  if (coverage.skippedInCode > 0) parts.push(`${coverage.skippedInCode} in code skipped (--include-code checks them)`);
  if (coverage.suppressed > 0) parts.push(`${coverage.suppressed} suppressed by aiwg-cite-disable-next-line`);
  parts.push(...coverage.notes);
  return `${parts.join('; ')}.`;
}

function formatVerdict(report: Report, palette: Palette): string {
  const { errors, warnings } = report.summary;
  const counts = `${errors} ${errors === 1 ? 'error' : 'errors'}, ${warnings} ${warnings === 1 ? 'warning' : 'warnings'}`;
  return report.verdict === 'PASS' ? palette.green(`PASS (${counts})`) : palette.red(palette.bold(`FAIL (${counts})`));
}
