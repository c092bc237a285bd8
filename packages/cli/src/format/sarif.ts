import { createHash } from 'node:crypto';
import { type Finding, type Report, RULES, type Severity } from '@aiwg-cite/core';

/** The SARIF `level` of a severity (SPEC §13): error → error, warning → warning, info → note. */
export function sarifLevel(severity: Severity): 'error' | 'warning' | 'note' | 'none' {
  switch (severity) {
    case 'error':
      return 'error';
    case 'warning':
      return 'warning';
    case 'info':
      return 'note';
    default:
      return 'none';
  }
}

/** Options of {@link formatSarif}. */
export interface SarifOptions {
  /** The `tool.driver.version`. */
  readonly version: string;
}

/**
 * SARIF 2.1.0 (OASIS, "Static Analysis Results Interchange Format"): one run, the rules that
 * fired, and one result per finding that needs attention, located in UTF-16 columns, so GitHub
 * code scanning can load it. Paths are relative to `%SRCROOT%`, the project root.
 */
export function formatSarif(report: Report, options: SarifOptions): string {
  const findings = report.citations.filter((finding) => finding.severity !== 'ok');
  const ruleIds = [...new Set(findings.map((finding) => finding.rule))].sort();
  const rules = ruleIds.map((id) => {
    const known = (RULES as Record<string, { severity: Severity; summary: string } | undefined>)[id];
    const fallback = findings.find((finding) => finding.rule === id) as Finding;
    return {
      id,
      shortDescription: { text: known?.summary ?? id },
      defaultConfiguration: { level: sarifLevel(known?.severity ?? fallback.severity) },
    };
  });
  const seen = new Map<string, number>();
  const results = findings.map((finding) => {
    const key = `${finding.rule}\u0000${finding.file}\u0000${finding.text}\u0000${String(finding.artifact ?? '')}`;
    const occurrence = (seen.get(key) ?? 0) + 1;
    seen.set(key, occurrence);
    return {
      ruleId: finding.rule,
      ruleIndex: ruleIds.indexOf(finding.rule),
      level: sarifLevel(finding.severity),
      message: { text: finding.fix === null ? finding.message : `${finding.message}. Fix: ${finding.fix}` },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: toUri(finding.file), uriBaseId: '%SRCROOT%' },
            region: regionOf(finding),
          },
        },
      ],
      // Line-independent, so a result keeps its identity when lines move above it.
      partialFingerprints: { 'aiwgCite/v1': `${createHash('sha256').update(key).digest('hex').slice(0, 32)}:${occurrence}` },
      properties: { kind: finding.kind, status: finding.status, ...(finding.cause === undefined ? {} : { cause: finding.cause }) },
    };
  });
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'aiwg-cite', version: options.version, informationUri: 'https://github.com/jmagly/aiwg', rules } },
        columnKind: 'utf16CodeUnits',
        originalUriBaseIds: { '%SRCROOT%': { description: { text: 'The project root (the git top level or --root).' } } },
        results,
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

/** The region of a finding: its start, and an end one past its last UTF-16 code unit. */
export function regionOf(finding: Finding): { startLine: number; startColumn: number; endLine: number; endColumn: number } {
  if (typeof finding.endLine === 'number' && typeof finding.endColumn === 'number') {
    return { startLine: finding.line, startColumn: finding.column, endLine: finding.endLine, endColumn: finding.endColumn };
  }
  const lines = finding.text.split('\n');
  const last = lines[lines.length - 1] ?? '';
  const endLine = finding.line + lines.length - 1;
  const endColumn = lines.length === 1 ? finding.column + last.length : last.length + 1;
  return { startLine: finding.line, startColumn: finding.column, endLine, endColumn };
}

function toUri(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}
