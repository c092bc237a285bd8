import { type Finding, type Report, verdictJsonWriter } from '@aiwg-cite/core';

/**
 * The stable JSON contract of `check --format json`: one compact document on stdout, nothing
 * else (pipe it through `jq` to read it). Compact because a large repository's report runs to
 * tens of megabytes, where indentation alone costs a noticeable part of a commit hook's budget.
 */
export function formatJson(report: Report): string {
  return `${JSON.stringify(report)}\n`;
}

/** About how many UTF-16 units {@link writeJson} gathers before each write. */
const PIECE = 64 * 1024;

/**
 * Writes exactly {@link formatJson}'s text in pieces of about 64 KB: the top-level arrays (the
 * citations) are serialised element by element. A 50,000-citation report is 25 MB; as one string
 * and one buffer it costs more than the whole check spends on parsing (bench/markdown.bench.mjs).
 * `citation` writes each citation (by default as `JSON.stringify` does).
 */
export function writeJson(
  report: Report,
  write: (piece: string) => unknown,
  citation: (finding: Finding) => string = (finding) => JSON.stringify(finding) ?? 'null',
): void {
  let piece = '{';
  let first = true;
  for (const [key, value] of Object.entries(report) as [string, unknown][]) {
    const json = Array.isArray(value) ? null : JSON.stringify(value);
    if (!Array.isArray(value) && json === undefined) continue;
    piece += `${first ? '' : ','}${JSON.stringify(key)}:`;
    first = false;
    if (!Array.isArray(value)) {
      piece += json;
      continue;
    }
    piece += '[';
    for (let index = 0; index < value.length; index += 1) {
      if (index > 0) piece += ',';
      piece += key === 'citations' ? citation(value[index] as Finding) : (JSON.stringify(value[index]) ?? 'null');
      if (piece.length >= PIECE) {
        write(piece);
        piece = '';
      }
    }
    piece += ']';
  }
  write(`${piece}}\n`);
}

/**
 * The report of `check --format json`: {@link writeJson} of the report with each citation's
 * `verdicts` (README "JSON output"): the same text as `formatJson` of `withVerdicts`'s copy,
 * written without copying the citations.
 */
export function writeCheckJson(report: Report, write: (piece: string) => unknown): void {
  writeJson(report, write, verdictJsonWriter());
}
