import { createHash } from 'node:crypto';
import { type Finding, findRule, type Report, RULE_LIST, type Rule, type Severity } from '@aiwg-cite/core';
import { cliMessages } from '../messages.ts';
import { readmeUrl, ruleDocsUrl } from '../rule-docs.ts';

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

/** The SARIF `reportingDescriptor` of a registered rule (SARIF 2.1.0 §3.49). */
export function ruleDescriptor(rule: Rule): Record<string, unknown> {
  const examples = [
    rule.bad === '' ? null : `${cliMessages.raisesIt()}\n\n    ${rule.bad}`,
    `${cliMessages.passes()}\n\n    ${rule.good}`,
  ].filter((text) => text !== null);
  return {
    id: rule.id,
    ...(rule.aliases.length === 0 ? {} : { deprecatedIds: rule.aliases.map((alias) => alias.id) }),
    shortDescription: { text: sentence(rule.description) },
    fullDescription: { text: rule.help },
    help: { text: `${rule.help}\n\n${examples.join('\n\n')}`, markdown: `${rule.help}\n\n${examples.join('\n\n')}` },
    ...helpUri(rule.id),
    defaultConfiguration: { level: sarifLevel(rule.severity), enabled: true },
    properties: {
      confidence: rule.confidence,
      fixable: rule.fixable,
      kinds: [...rule.kinds],
      status: rule.status,
      requires: rule.requires,
    },
  };
}

/** `informationUri`: the published README, when package.json says where that is. */
function informationUri(): { informationUri?: string } {
  const url = readmeUrl();
  return url === null ? {} : { informationUri: url };
}

/** `helpUri` (the rule's anchor in the published README) when package.json says where that is. */
function helpUri(id: string): { helpUri?: string } {
  const url = ruleDocsUrl(id);
  return url === null ? {} : { helpUri: url };
}

function sentence(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/**
 * SARIF 2.1.0 (OASIS, "Static Analysis Results Interchange Format"): one run, the rules that
 * fired, and one result per finding that needs attention, located in UTF-16 columns, so GitHub
 * code scanning can load it. Paths are relative to `%SRCROOT%`, the project root.
 */
export function formatSarif(report: Report, options: SarifOptions): string {
  const findings = report.citations.filter((finding) => finding.severity !== 'ok');
  // Every registered rule, online ones included, so a viewer can describe any ruleId; a rule
  // another tool added without registering it still gets a minimal descriptor.
  // Sorted by id, as `aiwg-cite merge` orders the union of its shards' rules.
  const byId = new Map<string, Record<string, unknown>>(RULE_LIST.map((rule) => [rule.id, ruleDescriptor(rule)]));
  for (const finding of findings) {
    if (byId.has(finding.rule) || findRule(finding.rule) !== undefined) continue;
    byId.set(finding.rule, {
      id: finding.rule,
      shortDescription: { text: finding.rule },
      fullDescription: { text: finding.message },
      defaultConfiguration: { level: sarifLevel(finding.severity) },
    });
  }
  const ruleIds = [...byId.keys()].sort();
  const rules = ruleIds.map((id) => byId.get(id));
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
        tool: { driver: { name: 'aiwg-cite', version: options.version, ...informationUri(), rules } },
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
