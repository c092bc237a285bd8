import { applyEdits, type TextEdit } from '../edits.ts';
import type { Finding } from '../report.ts';

/** One change `--fix` makes, for the user to read. */
export interface FileFix {
  readonly line: number;
  readonly column: number;
  readonly rule: string;
  /** What was done, in one sentence. */
  readonly description: string;
}

/** The edits for one file and the text after them. */
export interface FixPlan {
  readonly edits: readonly TextEdit[];
  readonly fixes: readonly FileFix[];
  /** The new text; equal to the input when nothing changes. */
  readonly text: string;
}

const STALE_MARK = ' [STALE: hash mismatch]';

/**
 * Plans the `--fix` edits of one file from its findings (SPEC §4.3, §2.4): citations to sources
 * that do not exist are replaced by an HTML comment saying what was removed; unverified DOIs and
 * arXiv ids gain a `TODO(verify)` comment; overclaiming openers are downgraded to the wording the
 * evidence allows; STALE RLM citations gain ` [STALE: hash mismatch]` once and are never rewritten.
 * Every edit is a byte range, so the rest of the file (BOM, line endings, final newline) is
 * untouched, and a second run plans nothing. `text` is the decoded file *with* its BOM, if any;
 * a finding whose text is not where it says is skipped, so a stale report never corrupts a file.
 */
export function planFixes(text: string, findings: readonly Finding[]): FixPlan {
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const lineStarts = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lineStarts.push(at + 1);
  const offsetOf = (line: number, column: number): number | null => {
    const start = lineStarts[line - 1];
    return start === undefined ? null : start + column - 1 + (line === 1 ? bom : 0);
  };
  const edits: TextEdit[] = [];
  const fixes: FileFix[] = [];
  const taken: { start: number; end: number }[] = [];
  const add = (edit: TextEdit, finding: Finding, description: string, at: { line: number; column: number } = finding): void => {
    if (taken.some((range) => edit.start < range.end && edit.end > range.start)) return;
    if (edit.start === edit.end && taken.some((range) => edit.start === range.start && range.start === range.end)) return;
    taken.push({ start: edit.start, end: edit.end });
    edits.push(edit);
    fixes.push({ line: at.line, column: at.column, rule: finding.rule, description });
  };

  for (const finding of findings) {
    const start = offsetOf(finding.line, finding.column);
    if (start === null || text.slice(start, start + finding.text.length) !== finding.text) continue;
    const end = start + finding.text.length;
    if (finding.kind === 'ref' && finding.status === 'not-in-corpus') {
      let from = start;
      let to = end;
      const before = text[start - 1];
      const after = text[end];
      if ((before === '[' && after === ']') || (before === '(' && after === ')')) {
        from -= 1;
        to += 1;
      }
      add(
        { start: from, end: to, text: `<!-- aiwg-cite: removed ${finding.text} (not in corpus) -->` },
        finding,
        `removed ${finding.text} (not in corpus)`,
      );
    } else if ((finding.kind === 'doi' || finding.kind === 'arxiv') && finding.status === 'unverified') {
      const anchor = finding.fixAt as { line: number; column: number } | undefined;
      const at = anchor === undefined ? end : (offsetOf(anchor.line, anchor.column) ?? end);
      const label = finding.kind === 'doi' ? 'DOI' : 'arXiv id';
      const marker = ` <!-- TODO(verify): ${label} not confirmed -->`;
      if (/^\s*<!-- TODO\(verify\)/.test(text.slice(at, at + 40))) continue;
      add({ start: at, end: at, text: marker }, finding, `marked ${finding.text} TODO(verify)`);
    } else if (finding.kind === 'grade' && finding.status === 'overclaim') {
      const opener = finding.opener as { line: number; column: number; text: string; replacement: string } | undefined;
      if (opener === undefined) continue;
      const at = offsetOf(opener.line, opener.column);
      if (at === null || text.slice(at, at + opener.text.length) !== opener.text) continue;
      add(
        { start: at, end: at + opener.text.length, text: opener.replacement },
        finding,
        `"${opener.text}" → "${opener.replacement}"`,
        opener,
      );
    } else if (finding.kind === 'rlm' && finding.status === 'stale') {
      if (text.startsWith(STALE_MARK, end)) continue;
      add({ start: end, end, text: STALE_MARK }, finding, `marked ${finding.text} [STALE: hash mismatch]`);
    }
  }
  fixes.sort((a, b) => a.line - b.line || a.column - b.column);
  if (edits.length === 0) return { edits, fixes, text };
  return { edits, fixes, text: applyEdits(text, edits).text };
}
