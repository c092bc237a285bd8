import type { Finding, Report } from '@aiwg-cite/core';
import { appendAll } from '@aiwg-cite/core';

/** What the Markdown report needs besides the report itself. */
export interface MarkdownReportOptions {
  /** The checked documents (one is named; more are counted). */
  readonly documents: readonly string[];
  /** `YYYY-MM-DD`. */
  readonly date: string;
}

/** Display names of issues, by rule, for the `**<SEVERITY> - <Issue kind> (line <n>)**` headings. */
const ISSUE_NAMES: Readonly<Record<string, string>> = {
  'ref/not-in-corpus': 'Fabricated source (REF id not in corpus)',
  'ref/malformed': 'Malformed REF id',
  'mention/missing': 'Missing @-mention target',
  'mention/unresolvable': 'Unresolvable @-mention',
  'doi/malformed': 'Malformed DOI',
  'doi/placeholder': 'Placeholder DOI',
  'doi/unverified': 'Unverified DOI',
  'arxiv/malformed': 'Malformed arXiv id',
  'arxiv/future': 'arXiv id from the future',
  'arxiv/unverified': 'Unverified arXiv id',
  'author-year/author-not-in-corpus': 'Author not in corpus',
  'author-year/year-mismatch': 'Year mismatch',
  'author-year/implausible-year': 'Implausible year',
  'quote/not-found': 'Quote not found in source',
  'quote/uncheckable': 'Quote cannot be checked',
  'quote/missing-page': 'Quote without a page',
  'statistic/unsourced': 'Unsourced statistic',
  'pages/invalid-pages': 'Invalid page locator',
  'grade/overclaim': 'GRADE overclaim',
  'grade/absolute': 'Absolute claim',
  'grade/underclaim': 'GRADE underclaim',
  'grade/unassessed': 'Unassessed source',
  'grade/mismatch': 'GRADE mismatch',
  'corpus/absent': 'No research corpus',
  'rlm/stale': 'Stale RLM citation',
  'rlm/unversioned': 'Un-versioned RLM citation',
  'rlm/missing': 'Missing RLM artifact',
  'rlm/invalid-range': 'Impossible line range',
  'rlm/malformed': 'Malformed RLM citation',
};

/** Rules whose findings mean the cited thing does not exist: the report's "Hallucinated" row. */
const HALLUCINATED = new Set([
  'ref/not-in-corpus',
  'doi/malformed',
  'doi/placeholder',
  'arxiv/malformed',
  'arxiv/future',
  'author-year/implausible-year',
  'quote/not-found',
  'pages/invalid-pages',
  'rlm/missing',
  'rlm/invalid-range',
  'rlm/unknown-hash',
]);

const RECOMMENDATIONS: readonly (readonly [(finding: Finding) => boolean, string])[] = [
  [
    (f) => f.rule === 'ref/not-in-corpus',
    'Remove or replace citations to REF ids that are in no corpus root (`aiwg-cite check --fix` removes them and leaves a comment).',
  ],
  [
    (f) => f.kind === 'doi' || f.kind === 'arxiv',
    'Confirm DOIs and arXiv ids against the publisher or arXiv, or add the sources to the corpus or a bibliography.',
  ],
  [(f) => f.kind === 'author-year', 'Check author names and years against the corpus entries.'],
  [(f) => f.kind === 'quote', 'Quote sources exactly, or paraphrase without quotation marks.'],
  [(f) => f.kind === 'statistic', 'Cite a source for every statistic.'],
  [(f) => f.kind === 'grade', 'Match claim wording to the GRADE level of the evidence (`--fix` downgrades overclaiming openers).'],
  [(f) => f.kind === 'mention', 'Point @-mentions at files that exist.'],
  [(f) => f.kind === 'rlm', 'Re-read stale RLM citations and re-pin them with `aiwg-cite stamp`.'],
];

/** The Markdown report in aiwg's layout (SPEC §13 "Markdown"). */
export function formatMarkdownReport(report: Report, options: MarkdownReportOptions): string {
  const issues = report.citations.filter((finding) => finding.severity !== 'ok');
  const valid = report.citations.length - issues.length;
  const hallucinated = issues.filter((finding) => HALLUCINATED.has(finding.rule)).length;
  const gradeViolations = issues.filter((finding) => finding.rule === 'grade/overclaim').length;
  const failing = issues.filter((finding) => finding.severity === 'error' || finding.severity === 'warning').length;
  const file = options.documents.length === 1 ? `\`${options.documents[0]}\`` : `${options.documents.length} files`;
  const lines = [
    '## Citation Verification Report',
    '',
    `**File:** ${file}`,
    `**Date:** ${options.date}`,
    `**Status:** ${report.verdict === 'PASS' ? 'PASS' : `FAIL (${failing} ${failing === 1 ? 'issue' : 'issues'})`}`,
    '',
    '| Metric | Count |',
    '|---|---|',
    `| Citations found | ${report.citations.length} |`,
    `| Valid | ${valid} |`,
    `| Issues | ${issues.length} |`,
    `| Hallucinated | ${hallucinated} |`,
    `| GRADE violations | ${gradeViolations} |`,
    '',
    '### Issues',
    '',
  ];
  if (issues.length === 0) lines.push('None.', '');
  issues.forEach((finding, index) => {
    const name = ISSUE_NAMES[finding.rule] ?? finding.rule;
    lines.push(`${index + 1}. **${finding.severity.toUpperCase()} - ${name} (line ${finding.line})**`);
    lines.push(`   - File: \`${finding.file}:${finding.line}:${finding.column}\``);
    lines.push(`   - Claim: ${inlineCode(finding.text)}`);
    lines.push(`   - Source: ${escapeLine(finding.message)}`);
    lines.push(`   - Fix: ${escapeLine(finding.fix ?? 'none needed')}`);
  });
  if (issues.length > 0) lines.push('');
  const { rlm } = report.summary;
  lines.push(
    '### RLM Citations',
    '',
    '```',
    `RLM Citations: ${rlm.total} total`,
    `  ✓ Fresh: ${rlm.fresh}`,
    `  ⚠ Stale: ${rlm.stale}`,
    `  ⚠ Un-versioned: ${rlm.unversioned}`,
    `  ✗ Missing: ${rlm.missing}`,
  );
  if (rlm.malformed > 0) lines.push(`  ⚠ Malformed: ${rlm.malformed}`);
  const stale = report.citations.filter((finding) => finding.kind === 'rlm' && finding.status === 'stale');
  if (stale.length > 0) {
    lines.push('STALE citations:');
    for (const finding of stale)
      lines.push(`  - ${finding.text}`, `    Current hash: ${String(finding.currentHash)}`, '    File modified since citation emitted');
  }
  const unversioned = report.citations.filter((finding) => finding.kind === 'rlm' && finding.status === 'unversioned');
  if (unversioned.length > 0) {
    lines.push('UN-VERSIONED citations:');
    for (const finding of unversioned) lines.push(`  - ${finding.text}`, '    File exists but no content hash; run `aiwg-cite stamp`');
  }
  lines.push('```', '', '### Recommendations', '');
  const recommendations = RECOMMENDATIONS.filter(([applies]) => issues.some(applies)).map(([, text]) => `- ${text}`);
  appendAll(lines, recommendations.length === 0 ? ['- None: every citation checked out.'] : recommendations);
  lines.push('');
  lines.push(
    `**Verdict:** ${report.verdict} (${report.summary.errors} errors, ${report.summary.warnings} warnings, ${report.summary.infos} info)`,
    '',
  );
  return lines.join('\n');
}

function inlineCode(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  const fence = flat.includes('`') ? '``' : '`';
  return `${fence}${fence === '``' ? ' ' : ''}${flat}${fence === '``' ? ' ' : ''}${fence}`;
}

function escapeLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
}
