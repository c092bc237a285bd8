/**
 * Drift classification (SPEC §10.1): where did the cited lines of the pinned version go in the
 * current content? Pure: it sees two texts and a range, never git or disk.
 */
import type { LineRange } from '../rlm/grammar.ts';
import { type DiffOp, diffLines, mapRange, splitLines, unifiedHunks } from './line-diff.ts';

/**
 * How the cited region changed between two versions.
 * - `intact`: the same lines at the same numbers (only other parts of the file changed);
 * - `moved`: the same lines, verbatim, at other numbers;
 * - `whitespace`: the lines differ only in whitespace;
 * - `changed`: the lines' content changed, or where they went is ambiguous.
 */
export type RegionDrift = 'intact' | 'moved' | 'whitespace' | 'changed';

/** The outcome of {@link classifyDrift}. */
export interface DriftClassification {
  readonly drift: RegionDrift;
  /** Where the cited lines stand now; for `changed`, the span the diff maps them to (`null` when removed, or no range was cited). */
  readonly newRange: LineRange | null;
  /** Unified-diff hunks of the old region against its new span (for `changed`); empty otherwise. */
  readonly regionDiff: readonly string[];
  /** True when re-pinning to the current hash (and `newRange`) is a mechanical fix: `intact`, `moved` or `whitespace`. */
  readonly mechanical: boolean;
}

/** Formats a 1-based inclusive range as `L7` or `L7-9`. */
export function formatRange(start: number, end: number): LineRange {
  return { start, end, text: start === end ? `L${start}` : `L${start}-${end}` };
}

/** A line with its whitespace normalised: CRLF → LF, ends trimmed, inner runs collapsed to one space. */
export function normaliseWhitespace(line: string): string {
  return line.replace(/\s+/g, ' ').trim();
}

/**
 * Classifies how the lines `range` of `oldText` fare in `newText`. A verbatim block found at the
 * same numbers is `intact`; found at exactly one other place, or at the place the line diff maps
 * it to, `moved`; the same with whitespace normalised, `whitespace`; anything else `changed`.
 * With no range, the whole file is the region (`whitespace` or `changed`). A range that runs
 * past the old text is clamped to it.
 */
export function classifyDrift(oldText: string, newText: string, range: LineRange | null): DriftClassification {
  const oldLines = splitLines(oldText);
  const newLines = splitLines(newText);
  if (range === null) return classifyWhole(oldLines, newLines);
  const start = Math.max(1, range.start);
  const end = Math.min(Math.max(range.end, start), oldLines.length);
  if (start > end) return { drift: 'changed', newRange: null, regionDiff: [], mechanical: false };
  const block = oldLines.slice(start - 1, end);
  let ops: DiffOp[] | null = null;
  const diff = (): DiffOp[] => {
    ops ??= diffLines(oldLines, newLines);
    return ops;
  };

  const exact = locate(block, newLines, start - 1, (a, b) => a === b, diff, start - 1, end);
  if (exact !== null) {
    const newRange = formatRange(exact + 1, exact + block.length);
    return { drift: exact === start - 1 ? 'intact' : 'moved', newRange, regionDiff: [], mechanical: true };
  }
  const normalisedBlock = block.map(normaliseWhitespace);
  const normalisedNew = newLines.map(normaliseWhitespace);
  const loose = locate(normalisedBlock, normalisedNew, start - 1, (a, b) => a === b, diff, start - 1, end);
  if (loose !== null) {
    return { drift: 'whitespace', newRange: formatRange(loose + 1, loose + block.length), regionDiff: [], mechanical: true };
  }
  const span = mapRange(diff(), start - 1, end);
  const newBlock = newLines.slice(span.start, span.end);
  const hunks = unifiedHunks(block, newBlock, Math.max(block.length, newBlock.length));
  return {
    drift: 'changed',
    newRange: span.end > span.start ? formatRange(span.start + 1, span.end) : null,
    regionDiff: relabel(hunks, start, span.start + 1),
    mechanical: false,
  };
}

function classifyWhole(oldLines: readonly string[], newLines: readonly string[]): DriftClassification {
  const sameLength = oldLines.length === newLines.length;
  if (sameLength && oldLines.every((line, at) => normaliseWhitespace(line) === normaliseWhitespace(newLines[at] as string))) {
    return { drift: 'whitespace', newRange: null, regionDiff: [], mechanical: true };
  }
  return { drift: 'changed', newRange: null, regionDiff: unifiedHunks(oldLines, newLines), mechanical: false };
}

/**
 * Finds `block` in `lines`: at `preferred` if it is there, else at its only occurrence, else at
 * the occurrence the diff maps the old range to. `null` when absent or ambiguous.
 */
function locate(
  block: readonly string[],
  lines: readonly string[],
  preferred: number,
  equal: (a: string, b: string) => boolean,
  diff: () => DiffOp[],
  oldStart: number,
  oldEnd: number,
): number | null {
  const at = (position: number): boolean => {
    if (position < 0 || position + block.length > lines.length) return false;
    for (let offset = 0; offset < block.length; offset += 1) {
      if (!equal(block[offset] as string, lines[position + offset] as string)) return false;
    }
    return true;
  };
  if (at(preferred)) return preferred;
  const matches: number[] = [];
  for (let position = 0; position + block.length <= lines.length; position += 1) if (at(position)) matches.push(position);
  if (matches.length === 1) return matches[0] as number;
  if (matches.length === 0) return null;
  const mapped = mapRange(diff(), oldStart, oldEnd);
  return matches.includes(mapped.start) ? mapped.start : null;
}

/** Rewrites the hunk headers of a region diff to the files' real line numbers. */
function relabel(hunks: readonly string[], oldFirst: number, newFirst: number): string[] {
  return hunks.map((line) =>
    line.replace(/^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@$/, (_, oldAt: string, oldCount = '', newAt: string, newCount = '') => {
      const oldStart = Number(oldAt) + oldFirst - 1;
      const newStart = Number(newAt) + newFirst - 1;
      return `@@ -${oldStart}${oldCount} +${newStart}${newCount} @@`;
    }),
  );
}
