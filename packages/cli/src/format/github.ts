import type { Finding, Report } from '@aiwg-cite/core';
import { prettyMessages } from '../messages.ts';
import { regionOf } from './sarif.ts';

/** Escapes a workflow-command message: `%`, CR and LF (GitHub Actions "workflow commands"). */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes a workflow-command property value: as data, plus `:` and `,`. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

function commandOf(finding: Finding): 'error' | 'warning' | 'notice' | null {
  switch (finding.severity) {
    case 'error':
      return 'error';
    case 'warning':
      return 'warning';
    case 'info':
      return 'notice';
    default:
      return null;
  }
}

/**
 * GitHub Actions annotations (SPEC §13): one `::error file=…,line=…,col=…,title=<rule>::<message>`
 * (or `::warning`, `::notice`) per finding that needs attention, then a plain verdict line.
 */
export function formatGithub(report: Report): string {
  const lines: string[] = [];
  for (const finding of report.citations) {
    const command = commandOf(finding);
    if (command === null) continue;
    const region = regionOf(finding);
    const properties = [
      `file=${escapeProperty(finding.file)}`,
      `line=${region.startLine}`,
      `col=${region.startColumn}`,
      `endLine=${region.endLine}`,
      `endColumn=${region.endColumn}`,
      `title=${escapeProperty(finding.rule)}`,
    ].join(',');
    const message = `${finding.text}: ${finding.message}${finding.fix === null ? '' : `\nfix: ${finding.fix}`}`;
    lines.push(`::${command} ${properties}::${escapeData(message)}`);
  }
  const { errors, warnings, files } = report.summary;
  lines.push(prettyMessages.githubSummary(report.verdict, errors, warnings, files));
  return `${lines.join('\n')}\n`;
}
