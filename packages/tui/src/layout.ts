import { escapeControls, type Finding } from '@aiwg-cite/core';
import stringWidth from 'string-width';
import { watchMessages } from './messages.ts';
import { countCells, statusLabel } from './plain.ts';
import { type DashboardState, explanationKey, findingKey, visibleFindings } from './state.ts';

/** A colour a segment may take; dropped entirely when colour is off. */
export type Tone = 'green' | 'yellow' | 'red' | 'cyan' | 'gray';

/** A run of text with one style. */
export interface Segment {
  readonly text: string;
  /**
   * Where a segment too wide for the line loses characters: at its end (the default), or in its
   * middle, for names whose end tells them apart (`docs/very/lo…/chapter-12.md`).
   */
  readonly cut?: 'end' | 'middle';
  readonly tone?: Tone;
  readonly bold?: boolean;
  readonly inverse?: boolean;
}

/** One screen row: segments whose total display width never exceeds the terminal width. */
export type ScreenLine = readonly Segment[];

const FILTER_LABELS: Readonly<Record<DashboardState['filter'], string>> = watchMessages.filterLabels;

/**
 * Lays the dashboard out as at most `rows − 1` lines of at most `columns` characters, so Ink
 * never draws a frame taller than the terminal (which would make it clear and replay the
 * screen on every update). The list is virtualised around the selection with `… N above` and
 * `… N more` lines. Pure: the view only paints these lines.
 */
export function layoutDashboard(state: DashboardState): ScreenLine[] {
  const budget = Math.max(1, state.rows - 1);
  const width = Math.max(10, state.columns);
  const header = headerLines(state);
  const footer = footerLine(state);
  const bodyHeight = Math.max(0, budget - header.length - 1);
  let body: ScreenLine[];
  switch (state.mode) {
    case 'help':
      body = watchMessages.help.map((text) => [{ text }]);
      break;
    case 'details':
      body = detailLines(state, width);
      break;
    default:
      body = listLines(state, bodyHeight);
  }
  const lines = [...header, ...body.slice(0, bodyHeight), footer].slice(0, budget);
  return lines.map((line) => truncateLine(line, width));
}

/** The text of a laid-out screen, without styles (what a terminal without colour shows). */
export function plainText(lines: readonly ScreenLine[]): string {
  return lines.map((line) => line.map((segment) => segment.text).join('')).join('\n');
}

function headerLines(state: DashboardState): ScreenLine[] {
  const lines: ScreenLine[] = [];
  const counts: Segment[] = [{ text: watchMessages.title(), bold: true }];
  if (state.summary !== null) {
    for (const cell of countCells(state.summary, state.attention)) {
      const tone: Tone | undefined =
        cell.count === 0
          ? undefined
          : cell.tone === 'good'
            ? 'green'
            : cell.tone === 'warn'
              ? 'yellow'
              : cell.tone === 'bad'
                ? 'red'
                : undefined;
      counts.push({ text: `  ${cell.label} ` }, { text: String(cell.count), bold: true, ...(tone === undefined ? {} : { tone }) });
    }
  }
  lines.push(counts);
  const status: Segment[] = [];
  if (state.busy) status.push({ text: watchMessages.waiting(), tone: 'cyan' });
  if (state.lastUpdate !== null) {
    const { clock, durationMs, rechecked } = state.lastUpdate;
    status.push({
      text: `${status.length > 0 ? '  ' : ''}${watchMessages.updated(clock, durationMs, rechecked)}`,
      tone: 'gray',
    });
    status.push({ text: `  ${watchMessages.documents(state.documents)}`, tone: 'gray' });
  }
  if (state.filter !== 'all') status.push({ text: `  filter: ${FILTER_LABELS[state.filter]}`, tone: 'cyan' });
  if (state.pathFilter !== '' && state.mode !== 'path') status.push({ text: `  path: ${state.pathFilter}`, tone: 'cyan' });
  lines.push(status.length === 0 ? [{ text: ' ' }] : status);
  if (state.skipped.length > 0) {
    const first = state.skipped[0] as { file: string; reason: string };
    const rest = state.skipped.length > 1 ? ` (+${state.skipped.length - 1} more)` : '';
    lines.push([{ text: watchMessages.skippedDocument(first.file, first.reason) + rest, tone: 'yellow' }]);
  }
  for (const problem of state.problems) lines.push([{ text: problem, tone: 'red' }]);
  return lines;
}

function footerLine(state: DashboardState): ScreenLine {
  if (state.mode === 'path') return [{ text: watchMessages.pathPrompt(state.pathFilter), tone: 'cyan' }];
  if (state.mode === 'details') return [{ text: watchMessages.detailsFooter(), tone: 'gray' }];
  if (state.mode === 'help') return [{ text: watchMessages.helpFooter(), tone: 'gray' }];
  return [{ text: watchMessages.footer(), tone: 'gray' }];
}

type Row = { readonly kind: 'file'; readonly file: string } | { readonly kind: 'item'; readonly finding: Finding; readonly index: number };

function listLines(state: DashboardState, height: number): ScreenLine[] {
  if (height <= 0) return [];
  if (state.summary === null) return [[{ text: watchMessages.waiting(), tone: 'cyan' }]];
  const visible = visibleFindings(state);
  if (visible.length === 0 && state.attention.length > 0) return [[{ text: watchMessages.noMatch(), tone: 'green' }]];
  if (visible.length === 0) {
    // A repository whose REF ids or @-mentions fail would block a commit that this list calls clean.
    const scope: ScreenLine[] = state.codeOnly && height > 1 ? [[{ text: watchMessages.codeOnly(), tone: 'gray' }]] : [];
    return [[{ text: watchMessages.noAttention(), tone: 'green' }], ...scope];
  }
  const rows: Row[] = [];
  let selectedRow = 0;
  visible.forEach((finding, index) => {
    const previous = visible[index - 1];
    if (previous === undefined || previous.file !== finding.file) rows.push({ kind: 'file', file: finding.file });
    if (index === state.cursor) selectedRow = rows.length;
    rows.push({ kind: 'item', finding, index });
  });
  const window = chooseWindow(rows.length, selectedRow, height);
  const itemsIn = (from: number, to: number) => rows.slice(from, to).filter((row) => row.kind === 'item').length;
  const lines: ScreenLine[] = [];
  if (window.start > 0) lines.push([{ text: watchMessages.above(itemsIn(0, window.start)), tone: 'gray' }]);
  for (const row of rows.slice(window.start, window.end)) lines.push(rowLine(row, state));
  if (window.end < rows.length) lines.push([{ text: watchMessages.more(itemsIn(window.end, rows.length)), tone: 'gray' }]);
  return lines;
}

/** The slice of rows to show: the selection stays visible, with room for the `above`/`more` lines. */
function chooseWindow(total: number, selected: number, height: number): { start: number; end: number } {
  if (total <= height) return { start: 0, end: total };
  if (height <= 2) {
    const start = Math.min(selected, total - 1);
    return { start, end: start + 1 };
  }
  if (selected < height - 1) return { start: 0, end: height - 1 };
  if (selected >= total - (height - 1)) return { start: total - (height - 1), end: total };
  const size = height - 2;
  const start = selected - size + 1;
  return { start, end: start + size };
}

function rowLine(row: Row, state: DashboardState): ScreenLine {
  if (row.kind === 'file') return [{ text: row.file, bold: true, cut: 'middle' }];
  const { finding } = row;
  const selected = row.index === state.cursor && state.selectedKey === findingKey(finding);
  const label = statusLabel(finding.kind, finding.status);
  return [
    { text: selected ? '› ' : '  ', bold: selected },
    { text: `${finding.line}:${finding.column}`.padEnd(9), ...(selected ? { inverse: true } : {}) },
    { text: label.padEnd(14), tone: toneOf(finding), ...(selected ? { inverse: true } : {}) },
    { text: finding.text, ...(selected ? { inverse: true } : {}) },
    { text: `  ${finding.message.replace(/`/g, '')}`, tone: 'gray' },
  ];
}

function toneOf(finding: Finding): Tone {
  if (finding.severity === 'error') return 'red';
  if (finding.severity === 'warning') return 'yellow';
  if (finding.severity === 'ok') return 'green';
  return 'cyan';
}

function detailLines(state: DashboardState, width: number): ScreenLine[] {
  const finding = visibleFindings(state)[state.cursor];
  if (finding === undefined) return [];
  const label = statusLabel(finding.kind, finding.status);
  const lines: ScreenLine[] = [
    [{ text: `${finding.file}:${finding.line}:${finding.column}`, bold: true, cut: 'middle' }],
    [
      { text: label, tone: toneOf(finding), bold: true },
      { text: `  ${finding.severity}  ${finding.rule}`, tone: 'gray' },
    ],
    [{ text: finding.text }],
    [{ text: ' ' }],
  ];
  for (const text of wrap(finding.message, width)) lines.push([{ text }]);
  if (finding.fix !== null) for (const text of wrap(`fix: ${finding.fix}`, width)) lines.push([{ text, tone: 'cyan' }]);
  const explanation = state.explanation?.key === explanationKey(finding) ? state.explanation.explanation : undefined;
  if (explanation !== undefined) {
    lines.push([{ text: ' ' }]);
    if (explanation === 'loading') lines.push([{ text: watchMessages.blameLoading(), tone: 'gray' }]);
    else if (explanation === null) lines.push([{ text: watchMessages.blameUnavailable(), tone: 'gray' }]);
    else if (explanation.staling === null) lines.push([{ text: watchMessages.blameNone(explanation.drift), tone: 'gray' }]);
    else {
      const { sha, date, author, subject } = explanation.staling;
      lines.push([{ text: watchMessages.staling(sha, date, author), tone: 'yellow' }]);
      for (const text of wrap(watchMessages.stalingSubject(subject, explanation.drift), width)) lines.push([{ text }]);
    }
  }
  const facts: string[] = [];
  if (typeof finding.artifact === 'string') facts.push(watchMessages.artifact(finding.artifact));
  if (typeof finding.lines === 'string') facts.push(watchMessages.lines(finding.lines));
  if (typeof finding.hash === 'string') facts.push(watchMessages.citedHash(finding.hash));
  if (typeof finding.currentHash === 'string') facts.push(watchMessages.currentHash(finding.currentHash));
  if (facts.length > 0) {
    lines.push([{ text: ' ' }]);
    for (const text of wrap(facts.join('  '), width)) lines.push([{ text, tone: 'gray' }]);
  }
  return lines;
}

/**
 * Wraps at spaces to `width` display columns (control characters escaped, wide characters counted
 * as two), keeping a leading indent on every line; a word wider than the line is cut.
 */
export function wrap(raw: string, width: number): string[] {
  // Measured as it will be shown: control characters escaped (see truncateLine).
  const text = escapeControls(raw);
  const indent = /^ */.exec(text)?.[0] ?? '';
  const room = Math.max(1, width - indent.length);
  const out: string[] = [];
  let line = '';
  for (const word of text.slice(indent.length).split(' ')) {
    const candidate = line === '' ? word : `${line} ${word}`;
    if (stringWidth(candidate) <= room) {
      line = candidate;
      continue;
    }
    if (line !== '') out.push(line);
    line = word;
    while (stringWidth(line) > room) {
      const head = takeColumns(line, room, true);
      out.push(head);
      line = line.slice(head.length);
    }
  }
  if (line !== '' || out.length === 0) out.push(line);
  return out.map((part) => indent + part);
}

/**
 * Cuts a line to `width` display columns, the segment that overflows losing characters at its
 * end or middle, marked `…`. Every segment's text is first passed through the core's
 * `escapeControls`: names, citations, messages and commit subjects come from the repository, and
 * a control character must neither reach the terminal nor be counted as a column it does not
 * take. Widths are the terminal's (a CJK character or an emoji takes two columns): a row one
 * column too wide would wrap, push the frame down and leave its first line behind on screen.
 */
function truncateLine(line: ScreenLine, width: number): ScreenLine {
  const out: Segment[] = [];
  let used = 0;
  for (const raw of line) {
    if (used >= width) break;
    const text = escapeControls(raw.text);
    const { cut: _cut, ...style } = raw;
    const room = width - used;
    const size = stringWidth(text);
    if (size <= room) {
      out.push({ ...style, text });
      used += size;
    } else {
      out.push({ ...style, text: raw.cut === 'middle' ? cutMiddle(text, room) : cutEnd(text, room) });
      used = width;
    }
  }
  return out.length === 0 ? [{ text: ' ' }] : out;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * The longest start of `text` (whole characters) that fits in `columns`; with `atLeastOne`, a
 * first character wider than that (a wide one in one column) is taken anyway, so wrapping always
 * moves on.
 */
function takeColumns(text: string, columns: number, atLeastOne = false): string {
  let taken = '';
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const size = stringWidth(segment);
    if (used + size > columns) break;
    taken += segment;
    used += size;
  }
  if (taken !== '' || !atLeastOne) return taken;
  return [...graphemes.segment(text)][0]?.segment ?? '';
}

/** The longest end of `text` (whole characters) that fits in `columns`. */
function takeLastColumns(text: string, columns: number): string {
  const parts = [...graphemes.segment(text)].map(({ segment }) => segment);
  let taken = '';
  let used = 0;
  for (let index = parts.length - 1; index >= 0; index -= 1) {
    const part = parts[index] as string;
    const size = stringWidth(part);
    if (used + size > columns) break;
    taken = part + taken;
    used += size;
  }
  return taken;
}

function cutEnd(text: string, room: number): string {
  if (room <= 1) return takeColumns(text, room);
  return `${takeColumns(text, room - 1)}…`;
}

/** Keeps the start and, with two thirds of the room, the end: a path's file name survives. */
function cutMiddle(text: string, room: number): string {
  if (room <= 2) return cutEnd(text, room);
  const tail = Math.ceil(((room - 1) * 2) / 3);
  return `${takeColumns(text, room - 1 - tail)}…${takeLastColumns(text, tail)}`;
}
