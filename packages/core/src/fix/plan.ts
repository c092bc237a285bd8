import { applyEdits, type TextEdit } from '../edits.ts';
import { fixMessages } from '../messages.ts';
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

const HASH = /^[0-9a-f]{16}$/;

/**
 * Plans the `--fix` edits of one file from its findings (issue 14): only mechanical, reversible
 * edits that remove no meaning. A STALE code citation is re-pinned to the cited file's current
 * hash and an un-versioned one gains it, as `stamp` does; nothing else is edited. Citations of
 * sources that do not exist, unverified ids and overclaiming wording are never deleted, commented
 * out or reworded: the report carries a suggestion for each. Every edit is a byte range, so the
 * rest of the file (BOM, line endings, final newline) is untouched, and a second run plans
 * nothing. `text` is the decoded file *with* its BOM, if any; a finding whose text is not where it
 * says is skipped, so a stale report never corrupts a file.
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
  const add = (edit: TextEdit, finding: Finding, description: string): void => {
    if (taken.some((range) => edit.start < range.end && edit.end > range.start)) return;
    taken.push({ start: edit.start, end: edit.end });
    edits.push(edit);
    fixes.push({ line: finding.line, column: finding.column, rule: finding.rule, description });
  };

  for (const finding of findings) {
    if (finding.kind !== 'rlm') continue;
    const start = offsetOf(finding.line, finding.column);
    if (start === null || text.slice(start, start + finding.text.length) !== finding.text) continue;
    const current = finding.currentHash;
    if (typeof current !== 'string' || !HASH.test(current)) continue;
    if (finding.status === 'stale' && typeof finding.hash === 'string' && HASH.test(finding.hash)) {
      const at = finding.text.indexOf(`@${finding.hash}`);
      if (at === -1) continue;
      const from = start + at + 1;
      add({ start: from, end: from + 16, text: current }, finding, fixMessages.repinned(finding.text, current));
    } else if (finding.status === 'unversioned' && typeof finding.artifact === 'string') {
      const id = finding.text.startsWith('[') ? finding.text.slice(1, 1 + finding.artifact.length) : '';
      if (id !== finding.artifact || /^[,\]]/.test(finding.text.slice(1 + id.length)) === false) continue;
      const at = start + 1 + id.length;
      add({ start: at, end: at, text: `@${current}` }, finding, fixMessages.pinned(finding.text, current));
    }
  }
  fixes.sort((a, b) => a.line - b.line || a.column - b.column);
  if (edits.length === 0) return { edits, fixes, text };
  return { edits, fixes, text: applyEdits(text, edits).text };
}
