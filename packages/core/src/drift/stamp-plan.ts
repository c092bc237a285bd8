/**
 * Plans `aiwg-cite stamp` edits (SPEC §10.2): each citation keeps the form it was written in, and
 * only the characters that change are replaced, so everything else in the user's file survives
 * byte for byte (see `applyEdits`).
 */
import type { TextEdit } from '../edits.ts';
import type { RlmCitation } from '../rlm/extract.ts';
import type { LineRange } from '../rlm/grammar.ts';
import { diffLines, splitLines, unifiedHunks } from './line-diff.ts';

/** What a citation should say after stamping. */
export interface StampTarget {
  /** The 16-hex content hash to pin. */
  readonly hash: string;
  /** The new line range; `null` keeps the cited one (or none). */
  readonly lines: LineRange | null;
}

/**
 * The citation rewritten to pin `target`, in its own form: inline `[p, L1]` → `[p@hash, L1]`,
 * footer `p (L1) [un-versioned]` → `p@hash (L1)`.
 */
export function stampedText(citation: Pick<RlmCitation, 'id' | 'lines' | 'form'>, target: StampTarget): string {
  const lines = target.lines ?? citation.lines;
  if (citation.form === 'footer') return `${citation.id}@${target.hash}${lines === null ? '' : ` (${lines.text})`}`;
  return `[${citation.id}@${target.hash}${lines === null ? '' : `, ${lines.text}`}]`;
}

/**
 * The one edit that turns a citation into its stamped text, trimmed to the characters that
 * differ; `null` when nothing changes. `base` is added to the citation's offset: 1 when the
 * document text handed to `applyEdits` keeps a BOM that the scanner dropped.
 */
export function planStampEdit(
  citation: Pick<RlmCitation, 'id' | 'lines' | 'form' | 'text' | 'offset'>,
  target: StampTarget,
  base = 0,
): TextEdit | null {
  const before = citation.text;
  const after = stampedText(citation, target);
  if (before === after) return null;
  let prefix = 0;
  const shorter = Math.min(before.length, after.length);
  while (prefix < shorter && before[prefix] === after[prefix]) prefix += 1;
  let suffix = 0;
  while (suffix < shorter - prefix && before[before.length - 1 - suffix] === after[after.length - 1 - suffix]) suffix += 1;
  const start = base + citation.offset + prefix;
  return { start, end: base + citation.offset + before.length - suffix, text: after.slice(prefix, after.length - suffix) };
}

/** A unified diff of a whole document (`--- a/<path>` / `+++ b/<path>`); empty when unchanged. */
export function unifiedDiff(path: string, oldText: string, newText: string): string {
  if (oldText === newText) return '';
  const oldLines = splitLines(oldText);
  const newLines = splitLines(newText);
  const hunks = unifiedHunks(oldLines, newLines, 3, diffLines(oldLines, newLines));
  return `${[`--- a/${path}`, `+++ b/${path}`, ...hunks].join('\n')}\n`;
}
