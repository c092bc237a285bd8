/**
 * A line diff for drift classification and `--dry-run` output. Common prefix and suffix are
 * trimmed first (most edits are local), and the middle is diffed with Myers' O(ND) algorithm
 * (E. W. Myers, "An O(ND) Difference Algorithm and Its Variations", 1986). Past a cost bound the
 * middle is reported as one replaced block, which is still a correct (if coarse) diff.
 */

/** One run of a diff: lines kept, removed from the old side, or added on the new side. */
export interface DiffOp {
  readonly type: 'equal' | 'delete' | 'insert';
  /** 0-based index of the run's first line in the old text. */
  readonly oldStart: number;
  /** 0-based index of the run's first line in the new text. */
  readonly newStart: number;
  /** Number of lines in the run. */
  readonly count: number;
}

/** Beyond this many differences the middle is treated as one replaced block. */
const MAX_EDIT_DISTANCE = 2000;

/**
 * Splits text into lines the way SPEC §2.4 counts them: on `\n`, an unterminated last line counts
 * and a final newline adds none. A `\r` before the `\n` stays part of its line.
 */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Diffs two line arrays into ordered runs that cover both sides completely. */
export function diffLines(oldLines: readonly string[], newLines: readonly string[]): DiffOp[] {
  let prefix = 0;
  const shorter = Math.min(oldLines.length, newLines.length);
  while (prefix < shorter && oldLines[prefix] === newLines[prefix]) prefix += 1;
  let suffix = 0;
  while (suffix < shorter - prefix && oldLines[oldLines.length - 1 - suffix] === newLines[newLines.length - 1 - suffix]) {
    suffix += 1;
  }
  const ops: DiffOp[] = [];
  push(ops, 'equal', 0, 0, prefix);
  const oldMiddle = oldLines.slice(prefix, oldLines.length - suffix);
  const newMiddle = newLines.slice(prefix, newLines.length - suffix);
  for (const op of myers(oldMiddle, newMiddle)) push(ops, op.type, op.oldStart + prefix, op.newStart + prefix, op.count);
  push(ops, 'equal', oldLines.length - suffix, newLines.length - suffix, suffix);
  return ops;
}

function push(ops: DiffOp[], type: DiffOp['type'], oldStart: number, newStart: number, count: number): void {
  if (count === 0) return;
  const last = ops[ops.length - 1];
  if (last !== undefined && last.type === type && last.oldStart + (type === 'insert' ? 0 : last.count) === oldStart) {
    if (last.newStart + (type === 'delete' ? 0 : last.count) === newStart) {
      ops[ops.length - 1] = { type, oldStart: last.oldStart, newStart: last.newStart, count: last.count + count };
      return;
    }
  }
  ops.push({ type, oldStart, newStart, count });
}

function myers(a: readonly string[], b: readonly string[]): DiffOp[] {
  const n = a.length;
  const m = b.length;
  if (n === 0 && m === 0) return [];
  if (n === 0) return [{ type: 'insert', oldStart: 0, newStart: 0, count: m }];
  if (m === 0) return [{ type: 'delete', oldStart: 0, newStart: 0, count: n }];
  const max = Math.min(n + m, MAX_EDIT_DISTANCE);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= max && found === -1; d += 1) {
    // Only diagonals -d-1..d+1 can be read back for step d: keep that window, not the whole frontier.
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x: number;
      if (k === -d || (k !== d && (v[offset + k - 1] as number) < (v[offset + k + 1] as number))) x = v[offset + k + 1] as number;
      else x = (v[offset + k - 1] as number) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x += 1;
        y += 1;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  if (found === -1) {
    return [
      { type: 'delete', oldStart: 0, newStart: 0, count: n },
      { type: 'insert', oldStart: n, newStart: 0, count: m },
    ];
  }
  // Backtrack through the saved frontiers, collecting single-line steps from the end.
  const steps: { type: DiffOp['type']; x: number; y: number }[] = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d -= 1) {
    const frontier = trace[d] as Int32Array;
    const k = x - y;
    const at = (diagonal: number): number => frontier[diagonal + d + 1] as number;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const previousK = down ? k + 1 : k - 1;
    const previousX = at(previousK);
    const previousY = previousX - previousK;
    while (x > previousX && y > previousY) {
      x -= 1;
      y -= 1;
      steps.push({ type: 'equal', x, y });
    }
    if (down) steps.push({ type: 'insert', x: previousX, y: previousY });
    else steps.push({ type: 'delete', x: previousX, y: previousY });
    x = previousX;
    y = previousY;
  }
  while (x > 0 && y > 0) {
    x -= 1;
    y -= 1;
    steps.push({ type: 'equal', x, y });
  }
  const ops: DiffOp[] = [];
  for (let at = steps.length - 1; at >= 0; at -= 1) {
    const step = steps[at] as { type: DiffOp['type']; x: number; y: number };
    push(ops, step.type, step.x, step.y, 1);
  }
  return ops;
}

/**
 * Where an old line range lands in the new text, by the diff: kept lines map one to one, and a
 * boundary that falls inside a changed block widens to the whole block's new side. Returns
 * 0-based `[start, end)` in the new text; an empty span means the lines were removed outright.
 */
export function mapRange(ops: readonly DiffOp[], oldStart: number, oldEnd: number): { start: number; end: number } {
  let start = -1;
  let end = -1;
  for (let at = 0; at < ops.length; at += 1) {
    const op = ops[at] as DiffOp;
    if (op.type === 'insert') continue;
    const opEnd = op.oldStart + op.count;
    if (start === -1 && oldStart < opEnd) {
      start = op.type === 'equal' ? op.newStart + (oldStart - op.oldStart) : changedBlock(ops, at).newStart;
    }
    if (oldEnd <= opEnd && oldEnd > op.oldStart) {
      if (op.type === 'equal') end = op.newStart + (oldEnd - op.oldStart);
      else {
        const block = changedBlock(ops, at);
        end = block.newEnd;
      }
      break;
    }
  }
  if (start === -1) start = newLength(ops);
  if (end === -1) end = newLength(ops);
  return { start, end: Math.max(start, end) };
}

/** The new-side extent of the run of delete/insert ops around `ops[at]`. */
function changedBlock(ops: readonly DiffOp[], at: number): { newStart: number; newEnd: number } {
  let first = at;
  while (first > 0 && (ops[first - 1] as DiffOp).type !== 'equal') first -= 1;
  let last = at;
  while (last + 1 < ops.length && (ops[last + 1] as DiffOp).type !== 'equal') last += 1;
  let newStart = Number.POSITIVE_INFINITY;
  let newEnd = (ops[first] as DiffOp).newStart;
  for (let index = first; index <= last; index += 1) {
    const op = ops[index] as DiffOp;
    newStart = Math.min(newStart, op.newStart);
    if (op.type === 'insert') newEnd = Math.max(newEnd, op.newStart + op.count);
  }
  return { newStart: newStart === Number.POSITIVE_INFINITY ? 0 : newStart, newEnd: Math.max(newEnd, newStart) };
}

function newLength(ops: readonly DiffOp[]): number {
  let length = 0;
  for (const op of ops) if (op.type !== 'delete') length = Math.max(length, op.newStart + op.count);
  return length;
}

/**
 * A unified diff (GNU diffutils "Unified Format") of two line arrays with `context` lines of
 * context; empty when they are equal. Lines are printed without their `\r`, so a CRLF file reads
 * cleanly; headers are the caller's.
 */
export function unifiedHunks(
  oldLines: readonly string[],
  newLines: readonly string[],
  context = 3,
  ops = diffLines(oldLines, newLines),
): string[] {
  const out: string[] = [];
  if (ops.every((op) => op.type === 'equal')) return out;
  let group: DiffOp[] = [];
  const groups: DiffOp[][] = [];
  for (const op of ops) {
    if (op.type === 'equal' && op.count > context * 2 && group.length > 0) {
      group.push(op);
      groups.push(group);
      group = [];
    }
    group.push(op);
  }
  groups.push(group);
  for (const members of groups) {
    if (!members.some((op) => op.type !== 'equal')) continue;
    const lines: string[] = [];
    let oldFrom = -1;
    let newFrom = -1;
    let oldCount = 0;
    let newCount = 0;
    const firstChange = members.findIndex((op) => op.type !== 'equal');
    let lastChange = members.length - 1;
    while ((members[lastChange] as DiffOp).type === 'equal') lastChange -= 1;
    members.forEach((op, index) => {
      let from = 0;
      let to = op.count;
      if (op.type === 'equal') {
        if (index < firstChange) from = Math.max(0, op.count - context);
        if (index > lastChange) to = Math.min(op.count, context);
      }
      for (let line = from; line < to; line += 1) {
        const oldAt = op.oldStart + line;
        const newAt = op.newStart + line;
        if (oldFrom === -1) {
          oldFrom = oldAt;
          newFrom = newAt;
        }
        if (op.type === 'equal') {
          lines.push(` ${strip(oldLines[oldAt])}`);
          oldCount += 1;
          newCount += 1;
        } else if (op.type === 'delete') {
          lines.push(`-${strip(oldLines[oldAt])}`);
          oldCount += 1;
        } else {
          lines.push(`+${strip(newLines[newAt])}`);
          newCount += 1;
        }
      }
    });
    out.push(`@@ -${rangeText(oldFrom, oldCount)} +${rangeText(newFrom, newCount)} @@`, ...lines);
  }
  return out;
}

function strip(line: string | undefined): string {
  return (line ?? '').replace(/\r$/, '');
}

function rangeText(from: number, count: number): string {
  const start = count === 0 ? from : from + 1;
  return count === 1 ? `${start}` : `${start},${count}`;
}
