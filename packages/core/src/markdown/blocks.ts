/**
 * The block phase of the markdown model: CommonMark 0.31.2 container and leaf blocks
 * (https://spec.commonmark.org/0.31.2/#blocks-and-inlines), GFM tables and footnote definitions,
 * YAML/TOML frontmatter and `$$` math blocks. It keeps no tree beyond the open-block stack: every
 * closed leaf becomes either a non-prose region or an inline leaf (paragraph, heading, table cell)
 * whose lines the inline phase reads. Lines end at `\n`, `\r\n` or a bare `\r`.
 */

import { type DefinitionSink, parseDefinitions } from './definitions.ts';
import { isHtmlBlockName, isHtmlRawName } from './html-names.ts';
import type { Region, RegionKind } from './types.ts';

/** A leaf whose content is inline markdown: its lines as `[start, end)` source ranges. */
export interface InlineLeaf {
  readonly kind: 'paragraph' | 'heading' | 'cell';
  /** Flattened `start, end` pairs of the content of each line. */
  readonly lines: number[];
}

type BlockType =
  | 'document'
  | 'blockquote'
  | 'list'
  | 'item'
  | 'footnote'
  | 'paragraph'
  | 'heading'
  | 'fence'
  | 'math'
  | 'indented'
  | 'html'
  | 'table'
  | 'break';

interface Block {
  readonly type: BlockType;
  parent: Block | null;
  lastChild: Block | null;
  open: boolean;
  /** Source offset where the block's first line content starts. */
  start: number;
  /** Source offset of the end of its last line (exclusive, before the line ending). */
  end: number;
  /** Content line ranges (leaves). */
  lines: number[];
  // list items and lists
  bullet: number;
  ordered: boolean;
  delimiter: number;
  markerOffset: number;
  padding: number;
  hasChild: boolean;
  // fences
  fenceChar: number;
  fenceLength: number;
  fenceOffset: number;
  // html blocks
  htmlType: number;
  // tables
  columns: number;
  /** A paragraph that is the first content of a list item (it may open with a task marker). */
  firstInItem: boolean;
  /** A paragraph whose last line was indented 4+ columns (such a line cannot head a table). */
  lastIndented: boolean;
}

function newBlock(type: BlockType, start: number): Block {
  return {
    type,
    parent: null,
    lastChild: null,
    open: true,
    start,
    end: start,
    lines: [],
    bullet: 0,
    ordered: false,
    delimiter: 0,
    markerOffset: 0,
    padding: 0,
    hasChild: false,
    fenceChar: 0,
    fenceLength: 0,
    fenceOffset: 0,
    htmlType: 0,
    columns: 0,
    firstInItem: false,
    lastIndented: false,
  };
}

const CONTAINERS = new Set<BlockType>(['document', 'blockquote', 'list', 'item', 'footnote']);

function canContain(parent: BlockType, child: BlockType): boolean {
  if (parent === 'list') return child === 'item';
  if (child === 'item') return false;
  return CONTAINERS.has(parent);
}

const TAB = 9;
const SPACE = 32;
const LF = 10;
const CR = 13;

const isSpaceOrTab = (code: number): boolean => code === SPACE || code === TAB;

/** What the block phase hands to the inline phase and the document model. */
export interface BlockResult {
  readonly regions: Region[];
  readonly leaves: InlineLeaf[];
  /** ATX and setext headings: `[level, start, end]` triples of the heading line(s). */
  readonly headings: number[];
}

/**
 * Runs the block phase over `text` from `from` (after a BOM). `lineStarts`, when given, receives
 * the offset after every line ending from `from` on (the line starts the phase finds anyway).
 */
export function parseBlocks(text: string, from: number, definitions: DefinitionSink, lineStarts: number[] = []): BlockResult {
  const regions: Region[] = [];
  const leaves: InlineLeaf[] = [];
  const headings: number[] = [];
  const length = text.length;

  const addRegion = (kind: RegionKind, start: number, end: number): void => {
    if (end > start) regions.push({ kind, start, end });
  };

  let lineStart = from;
  let lineEnd = from;
  let offset = from;
  let column = 0;
  let partiallyConsumedTab = false;
  let nextNonspace = from;
  let nextNonspaceColumn = 0;
  let indent = 0;
  let indented = false;
  let blank = false;
  let allClosed = true;

  const document = newBlock('document', from);
  let tip: Block = document;
  let oldTip: Block = document;
  let lastMatchedContainer: Block = document;

  const findNextNonspace = (): void => {
    let at = offset;
    let cols = column;
    let code = text.charCodeAt(at);
    while (at < lineEnd && (code === SPACE || code === TAB)) {
      if (code === SPACE) {
        at += 1;
        cols += 1;
      } else {
        at += 1;
        cols += 4 - (cols % 4);
      }
      code = text.charCodeAt(at);
    }
    blank = at >= lineEnd;
    nextNonspace = at;
    nextNonspaceColumn = cols;
    indent = nextNonspaceColumn - column;
    indented = indent >= 4;
  };

  const advanceNextNonspace = (): void => {
    offset = nextNonspace;
    column = nextNonspaceColumn;
    partiallyConsumedTab = false;
  };

  const advanceOffset = (count: number, columns: boolean): void => {
    let remaining = count;
    while (remaining > 0 && offset < lineEnd) {
      const code = text.charCodeAt(offset);
      if (code === TAB) {
        const charsToTab = 4 - (column % 4);
        if (columns) {
          partiallyConsumedTab = charsToTab > remaining;
          const advance = Math.min(charsToTab, remaining);
          column += advance;
          if (!partiallyConsumedTab) offset += 1;
          remaining -= advance;
        } else {
          partiallyConsumedTab = false;
          column += charsToTab;
          offset += 1;
          remaining -= 1;
        }
      } else {
        partiallyConsumedTab = false;
        offset += 1;
        column += 1;
        remaining -= 1;
      }
    }
  };

  const finalize = (block: Block): void => {
    const above = block.parent;
    block.open = false;
    closeLeaf(block);
    tip = above ?? document;
  };

  const closeLeaf = (block: Block): void => {
    switch (block.type) {
      case 'paragraph': {
        const before = block.lines.length;
        stripDefinitions(block);
        const lines = block.lines;
        if (lines.length === 0) return;
        // A GFM task list item: `[ ]`, `[x]` or `[X]` opening the first content of a list item.
        if (block.firstInItem && lines.length === before && isTaskMarker(text, lines))
          addRegion('markup', lines[0] as number, (lines[0] as number) + 3);
        leaves.push({ kind: 'paragraph', lines });
        return;
      }
      case 'fence':
        addRegion('fenced-code', block.start, block.end);
        return;
      case 'math':
        addRegion('math', block.start, block.end);
        return;
      case 'indented': {
        // Trailing blank lines are not part of the block.
        const lines = block.lines;
        let last = lines.length - 2;
        while (last >= 0 && isBlankRange(text, lines[last] as number, lines[last + 1] as number)) last -= 2;
        if (last >= 0) addRegion('indented-code', block.start, lines[last + 1] as number);
        return;
      }
      case 'html':
        addRegion(htmlKind(text, block.start), block.start, block.end);
        return;
      default:
        return;
    }
  };

  /** Moves link reference definitions at the start of a paragraph into regions (CommonMark §4.7). */
  const stripDefinitions = (paragraph: Block): void => {
    const lines = paragraph.lines;
    const consumed = parseDefinitions(text, lines, definitions);
    if (consumed === 0) return;
    addRegion('definition', lines[0] as number, lines[consumed * 2 - 1] as number);
    paragraph.lines = lines.slice(consumed * 2);
  };

  const addChild = (type: BlockType, start: number): Block => {
    while (!canContain(tip.type, type)) finalize(tip);
    const child = newBlock(type, start);
    child.parent = tip;
    tip.lastChild = child;
    tip.hasChild = true;
    tip = child;
    return child;
  };

  const closeUnmatchedBlocks = (): void => {
    if (!allClosed) {
      while (oldTip !== lastMatchedContainer) {
        const parent = oldTip.parent as Block;
        finalize(oldTip);
        oldTip = parent;
      }
      allClosed = true;
    }
  };

  const addLine = (): void => {
    if (partiallyConsumedTab) {
      offset += 1;
      partiallyConsumedTab = false;
    }
    tip.lines.push(offset, lineEnd);
    tip.end = lineEnd;
    tip.lastIndented = indented;
  };

  /** Continuation of an open block: 0 matched, 1 not matched, 2 matched and the line is done. */
  const continueBlock = (block: Block): 0 | 1 | 2 => {
    switch (block.type) {
      case 'document':
      case 'list':
        return 0;
      case 'blockquote':
        if (!indented && text.charCodeAt(nextNonspace) === 62 /* > */) {
          advanceNextNonspace();
          advanceOffset(1, false);
          if (isSpaceOrTab(text.charCodeAt(offset))) advanceOffset(1, true);
          return 0;
        }
        return 1;
      case 'item':
        if (blank) {
          if (!block.hasChild) return 1;
          advanceNextNonspace();
          return 0;
        }
        if (indent >= block.markerOffset + block.padding) {
          advanceOffset(block.markerOffset + block.padding, true);
          return 0;
        }
        return 1;
      case 'footnote':
        if (blank) {
          advanceNextNonspace();
          return 0;
        }
        if (indent >= 4) {
          advanceOffset(4, true);
          return 0;
        }
        return 1;
      case 'heading':
      case 'break':
        return 1;
      case 'fence':
      case 'math': {
        if (!indented && text.charCodeAt(nextNonspace) === block.fenceChar) {
          let run = nextNonspace;
          while (text.charCodeAt(run) === block.fenceChar) run += 1;
          if (run - nextNonspace >= block.fenceLength && isBlankRange(text, run, lineEnd)) {
            block.end = lineEnd;
            finalize(block);
            return 2;
          }
        }
        let skip = block.fenceOffset;
        while (skip > 0 && isSpaceOrTab(text.charCodeAt(offset))) {
          advanceOffset(1, true);
          skip -= 1;
        }
        return 0;
      }
      case 'indented':
        if (indent >= 4) {
          advanceOffset(4, true);
          return 0;
        }
        if (blank) {
          advanceNextNonspace();
          return 0;
        }
        return 1;
      case 'html':
        return blank && (block.htmlType === 6 || block.htmlType === 7) ? 1 : 0;
      case 'paragraph':
      case 'table':
        return blank ? 1 : 0;
    }
  };

  /** Opens a code fence or a `$$` math block whose opening run is `length` characters `char`. */
  const openFence = (type: 'fence' | 'math', char: number, length: number): 2 => {
    closeUnmatchedBlocks();
    const block = addChild(type, nextNonspace);
    block.fenceChar = char;
    block.fenceLength = length;
    block.fenceOffset = indent;
    block.end = lineEnd;
    advanceNextNonspace();
    offset = lineEnd;
    return 2;
  };

  /** Block starts, in CommonMark's order: 0 no match, 1 container started, 2 leaf started. */
  const tryStarts = (container: Block): 0 | 1 | 2 => {
    const code = text.charCodeAt(nextNonspace);
    if (!indented) {
      if (code === 62 /* > */) {
        advanceNextNonspace();
        advanceOffset(1, false);
        if (isSpaceOrTab(text.charCodeAt(offset))) advanceOffset(1, true);
        closeUnmatchedBlocks();
        addChild('blockquote', nextNonspace);
        return 1;
      }
      if (code === 35 /* # */) {
        const heading = atxHeading(text, nextNonspace, lineEnd);
        if (heading !== null) {
          advanceNextNonspace();
          closeUnmatchedBlocks();
          const block = addChild('heading', nextNonspace);
          block.end = lineEnd;
          headings.push(heading.level, nextNonspace, lineEnd);
          leaves.push({ kind: 'heading', lines: [heading.start, heading.end] });
          offset = lineEnd;
          return 2;
        }
      }
      if (code === 96 /* ` */ || code === 126 /* ~ */) {
        let run = nextNonspace;
        while (text.charCodeAt(run) === code) run += 1;
        if (run - nextNonspace >= 3 && (code === 126 || text.indexOf('`', run) === -1 || text.indexOf('`', run) >= lineEnd)) {
          return openFence('fence', code, run - nextNonspace);
        }
      }
      if (code === 36 /* $ */) {
        let run = nextNonspace;
        while (text.charCodeAt(run) === 36) run += 1;
        const dollar = text.indexOf('$', run);
        if (run - nextNonspace >= 2 && (dollar === -1 || dollar >= lineEnd)) return openFence('math', 36, run - nextNonspace);
      }
      if (code === 60 /* < */) {
        const type = htmlBlockStart(text, nextNonspace, lineEnd);
        if (type !== 0 && (type < 7 || (container.type !== 'paragraph' && !(!allClosed && !blank && tip.type === 'paragraph')))) {
          closeUnmatchedBlocks();
          const block = addChild('html', offset);
          block.htmlType = type;
          return 2;
        }
      }
      if ((code === 61 /* = */ || code === 45) /* - */ && container.type === 'paragraph') {
        const level = setextLevel(text, nextNonspace, lineEnd);
        if (level !== 0) {
          closeUnmatchedBlocks();
          stripDefinitions(container);
          if (container.lines.length > 0) {
            const lines = container.lines;
            headings.push(level, lines[0] as number, lineEnd);
            leaves.push({ kind: 'heading', lines });
            // The paragraph became a heading: detach it so finalize does not read it again.
            container.lines = [];
            container.open = false;
            tip = container.parent as Block;
            const block = addChild('heading', lines[0] as number);
            block.end = lineEnd;
            offset = lineEnd;
            return 2;
          }
        }
      }
      if (code === 42 /* * */ || code === 45 /* - */ || code === 95 /* _ */) {
        if (isThematicBreak(text, nextNonspace, lineEnd)) {
          closeUnmatchedBlocks();
          addChild('break', nextNonspace);
          offset = lineEnd;
          return 2;
        }
      }
      if (code === 91 /* [ */ && text.charCodeAt(nextNonspace + 1) === 94 /* ^ */) {
        const labelEnd = footnoteLabelEnd(text, nextNonspace + 2, lineEnd);
        if (labelEnd !== -1 && text.charCodeAt(labelEnd + 1) === 58 /* : */) {
          closeUnmatchedBlocks();
          const block = addChild('footnote', nextNonspace);
          definitions.addFootnote(text.slice(nextNonspace + 2, labelEnd));
          addRegion('markup', nextNonspace, labelEnd + 2);
          advanceNextNonspace();
          advanceOffset(labelEnd + 2 - nextNonspace, false);
          block.start = offset;
          return 1;
        }
      }
    }
    if (!indented) {
      // micromark also applies the interrupt rules right after indented code (blank lines between included).
      const marker = listMarker(text, nextNonspace, lineEnd, container.type === 'paragraph' || tip.type === 'indented');
      if (marker !== null) {
        closeUnmatchedBlocks();
        const _markerColumn = nextNonspaceColumn;
        advanceNextNonspace();
        advanceOffset(marker.width, true);
        const spacesStartCol = column;
        const spacesStartOffset = offset;
        let afterColumn = column;
        do {
          advanceOffset(1, true);
          afterColumn = column;
        } while (afterColumn - spacesStartCol < 5 && isSpaceOrTab(text.charCodeAt(offset)));
        const blankItem = offset >= lineEnd;
        const spaces = afterColumn - spacesStartCol;
        let padding: number;
        if (spaces >= 5 || spaces < 1 || blankItem) {
          padding = marker.width + 1;
          offset = spacesStartOffset;
          column = spacesStartCol;
          partiallyConsumedTab = false;
          if (isSpaceOrTab(text.charCodeAt(offset))) advanceOffset(1, true);
        } else {
          padding = marker.width + spaces;
        }
        if (
          tip.type !== 'list' ||
          tip.ordered !== marker.ordered ||
          (marker.ordered ? tip.delimiter !== marker.delimiter : tip.bullet !== marker.bullet)
        ) {
          const list = addChild('list', nextNonspace);
          list.ordered = marker.ordered;
          list.bullet = marker.bullet;
          list.delimiter = marker.delimiter;
        }
        const item = addChild('item', nextNonspace);
        item.ordered = marker.ordered;
        item.markerOffset = indent;
        item.padding = padding;
        return 1;
      }
    }
    if (indented && tip.type !== 'paragraph' && !blank) {
      advanceOffset(4, true);
      closeUnmatchedBlocks();
      addChild('indented', offset);
      return 2;
    }
    return 0;
  };

  // Where the next `\r` is, so documents with CR line endings (or a stray CR) are searched once.
  let nextCr = text.indexOf('\r', from);
  while (lineStart <= length) {
    // Find the end of this line: `\n`, `\r\n` or a bare `\r`.
    let at = text.indexOf('\n', lineStart);
    if (at === -1) at = length;
    if (nextCr !== -1) {
      if (nextCr < lineStart) nextCr = text.indexOf('\r', lineStart);
      if (nextCr !== -1 && nextCr < at) at = nextCr;
    }
    lineEnd = at;
    const next = at >= length ? length + 1 : text.charCodeAt(at) === CR && text.charCodeAt(at + 1) === LF ? at + 2 : at + 1;
    if (next <= length) lineStarts.push(next);
    if (lineStart === length && lineStart !== from) break;

    offset = lineStart;
    column = 0;
    blank = false;
    partiallyConsumedTab = false;

    let container: Block = document;
    let lastChild = document.lastChild;
    let done = false;
    while (lastChild?.open) {
      container = lastChild;
      findNextNonspace();
      const result = continueBlock(container);
      if (result === 0) {
        lastChild = container.lastChild;
        continue;
      }
      if (result === 2) {
        done = true;
        break;
      }
      container = container.parent as Block;
      break;
    }
    if (!done) {
      allClosed = container === oldTip;
      lastMatchedContainer = container;
      let matchedLeaf = container.type !== 'paragraph' && container.type !== 'table' && !CONTAINERS.has(container.type);
      while (!matchedLeaf) {
        findNextNonspace();
        if (
          !indented &&
          !isStartCharacter(text.charCodeAt(nextNonspace)) &&
          !(text.charCodeAt(nextNonspace) >= 48 && text.charCodeAt(nextNonspace) <= 57)
        ) {
          advanceNextNonspace();
          break;
        }
        const started = tryStarts(container);
        if (started === 1) {
          container = tip;
        } else if (started === 2) {
          container = tip;
          matchedLeaf = true;
        } else {
          advanceNextNonspace();
          break;
        }
      }

      if (!allClosed && !blank && tip.type === 'paragraph') {
        // Lazy continuation line.
        addLine();
      } else {
        closeUnmatchedBlocks();
        const type = container.type;
        if (type === 'indented' || type === 'fence' || type === 'math') {
          addLine();
        } else if (type === 'html') {
          addLine();
          if (htmlBlockEnds(text, container.htmlType, container.lines[container.lines.length - 2] as number, lineEnd)) finalize(container);
        } else if (type === 'heading' || type === 'break') {
          // single line, already recorded
        } else if (type === 'paragraph') {
          if (!blank && !container.lastIndented && tryTable(container)) {
            // became a table
          } else if (!blank) {
            addLine();
          }
        } else if (type === 'table') {
          if (!blank) addTableRow(container);
        } else if (!blank) {
          startParagraphOrTable(container);
        }
      }
    }
    oldTip = tip;
    if (next > length) break;
    lineStart = next;
  }
  while (tip !== document) finalize(tip);
  return { regions, leaves, headings };

  function startParagraphOrTable(container: Block): void {
    const firstInItem = container.type === 'item' && !container.hasChild;
    const paragraph = addChild('paragraph', offset);
    paragraph.firstInItem = firstInItem;
    addLine();
  }

  /**
   * A paragraph line followed by a delimiter row with as many cells heads a table. The head may be
   * a paragraph's last line: micromark lets a table interrupt a paragraph there, and the lines
   * before it stay a paragraph (a line indented 4+ columns continues the paragraph instead).
   */
  function tryTable(paragraph: Block): boolean {
    const lines = paragraph.lines;
    const count = lines.length;
    const headStart = lines[count - 2] as number;
    const headEnd = lines[count - 1] as number;
    const rowStart = nextNonspace;
    if (indented) return false;
    const delimiterCells = delimiterRow(text, rowStart, lineEnd);
    if (delimiterCells === 0) return false;
    const headCells = splitCells(text, headStart, headEnd);
    if (headCells.length / 2 !== delimiterCells) return false;
    if (count > 2) {
      paragraph.lines = lines.slice(0, count - 2);
      finalize(paragraph);
    } else {
      paragraph.open = false;
      paragraph.lines = [];
      tip = paragraph.parent as Block;
    }
    const table = addChild('table', headStart);
    table.columns = delimiterCells;
    for (let index = 0; index < headCells.length; index += 2) {
      leaves.push({ kind: 'cell', lines: [headCells[index] as number, headCells[index + 1] as number] });
    }
    addRegion('markup', rowStart, lineEnd);
    offset = lineEnd;
    return true;
  }

  function addTableRow(_table: Block): void {
    const cells = splitCells(text, nextNonspace, lineEnd);
    for (let index = 0; index < cells.length; index += 2) {
      leaves.push({ kind: 'cell', lines: [cells[index] as number, cells[index + 1] as number] });
    }
    offset = lineEnd;
  }
}

/** A task marker must be followed by whitespace and then more content of the paragraph. */
function isTaskMarker(text: string, lines: readonly number[]): boolean {
  const at = lines[0] as number;
  const end = lines[1] as number;
  const mark = text.charCodeAt(at + 1);
  if (at + 3 > end || text.charCodeAt(at) !== 91 || text.charCodeAt(at + 2) !== 93) return false;
  if (mark !== 32 && mark !== 9 && mark !== 120 && mark !== 88) return false;
  if (at + 3 === end) return lines.length > 2;
  return isSpaceOrTab(text.charCodeAt(at + 3)) && (lines.length > 2 || !isBlankRange(text, at + 3, end));
}

function isStartCharacter(code: number): boolean {
  return (
    code === 62 ||
    code === 35 ||
    code === 96 ||
    code === 126 ||
    code === 36 ||
    code === 60 ||
    code === 61 ||
    code === 45 ||
    code === 42 ||
    code === 95 ||
    code === 43 ||
    code === 91
  );
}

/** True when `[start, end)` holds only spaces and tabs. */
export function isBlankRange(text: string, start: number, end: number): boolean {
  for (let at = start; at < end; at += 1) if (!isSpaceOrTab(text.charCodeAt(at))) return false;
  return true;
}

function atxHeading(text: string, start: number, end: number): { level: number; start: number; end: number } | null {
  let at = start;
  while (at < end && text.charCodeAt(at) === 35) at += 1;
  const level = at - start;
  if (level > 6) return null;
  if (at < end && !isSpaceOrTab(text.charCodeAt(at))) return null;
  while (at < end && isSpaceOrTab(text.charCodeAt(at))) at += 1;
  let stop = end;
  while (stop > at && isSpaceOrTab(text.charCodeAt(stop - 1))) stop -= 1;
  let hashes = stop;
  while (hashes > at && text.charCodeAt(hashes - 1) === 35) hashes -= 1;
  if (hashes < stop && (hashes === at || isSpaceOrTab(text.charCodeAt(hashes - 1)))) {
    stop = hashes;
    while (stop > at && isSpaceOrTab(text.charCodeAt(stop - 1))) stop -= 1;
  }
  return { level, start: at, end: stop };
}

function setextLevel(text: string, start: number, end: number): number {
  const code = text.charCodeAt(start);
  let at = start;
  while (at < end && text.charCodeAt(at) === code) at += 1;
  if (!isBlankRange(text, at, end)) return 0;
  return code === 61 ? 1 : 2;
}

function isThematicBreak(text: string, start: number, end: number): boolean {
  const code = text.charCodeAt(start);
  let count = 0;
  for (let at = start; at < end; at += 1) {
    const current = text.charCodeAt(at);
    if (current === code) count += 1;
    else if (!isSpaceOrTab(current)) return false;
  }
  return count >= 3;
}

interface ListMarker {
  readonly ordered: boolean;
  readonly bullet: number;
  readonly delimiter: number;
  readonly width: number;
}

function listMarker(text: string, start: number, end: number, interruptsParagraph: boolean): ListMarker | null {
  const code = text.charCodeAt(start);
  let marker: ListMarker;
  if (code === 42 || code === 43 || code === 45) {
    marker = { ordered: false, bullet: code, delimiter: 0, width: 1 };
  } else if (code >= 48 && code <= 57) {
    let at = start;
    while (at < end && at - start < 10 && text.charCodeAt(at) >= 48 && text.charCodeAt(at) <= 57) at += 1;
    const digits = at - start;
    const delimiter = text.charCodeAt(at);
    if (digits > 9 || (delimiter !== 46 && delimiter !== 41)) return null;
    if (interruptsParagraph && text.slice(start, at) !== '1') return null;
    marker = { ordered: true, bullet: 0, delimiter, width: digits + 1 };
  } else {
    return null;
  }
  const after = start + marker.width;
  if (after < end && !isSpaceOrTab(text.charCodeAt(after))) return null;
  if (interruptsParagraph && isBlankRange(text, after, end)) return null;
  return marker;
}

/** The end of a footnote label starting at `from` (the offset of `]`), or -1. */
function footnoteLabelEnd(text: string, from: number, end: number): number {
  let at = from;
  while (at < end) {
    const code = text.charCodeAt(at);
    if (code === 93) return at > from && at - from <= 999 ? at : -1;
    if (code === 91 || code === SPACE || code === TAB) return -1;
    if (code === 92 && at + 1 < end) at += 1;
    at += 1;
  }
  return -1;
}

/** The cell count of a GFM table delimiter row, or 0. */
function delimiterRow(text: string, start: number, end: number): number {
  let at = start;
  let cells = 0;
  let stop = end;
  while (stop > at && isSpaceOrTab(text.charCodeAt(stop - 1))) stop -= 1;
  if (text.charCodeAt(at) === 124) at += 1;
  let sawPipeInside = false;
  while (at < stop) {
    while (at < stop && isSpaceOrTab(text.charCodeAt(at))) at += 1;
    if (text.charCodeAt(at) === 58) at += 1;
    let dashes = 0;
    while (at < stop && text.charCodeAt(at) === 45) {
      dashes += 1;
      at += 1;
    }
    if (dashes === 0) return 0;
    if (text.charCodeAt(at) === 58) at += 1;
    while (at < stop && isSpaceOrTab(text.charCodeAt(at))) at += 1;
    cells += 1;
    if (at >= stop) break;
    if (text.charCodeAt(at) !== 124) return 0;
    at += 1;
    if (at < stop) sawPipeInside = true;
  }
  if (cells === 1 && !sawPipeInside && text.charCodeAt(start) !== 124 && text.charCodeAt(stop - 1) !== 124) return 0;
  return cells;
}

/** The cells of a table row as flattened `start, end` pairs (trimmed, escaped pipes kept). */
function splitCells(text: string, start: number, end: number): number[] {
  const cells: number[] = [];
  let at = start;
  let stop = end;
  while (stop > at && isSpaceOrTab(text.charCodeAt(stop - 1))) stop -= 1;
  if (text.charCodeAt(at) === 124) at += 1;
  let cellStart = at;
  const push = (from: number, to: number): void => {
    let a = from;
    let b = to;
    while (a < b && isSpaceOrTab(text.charCodeAt(a))) a += 1;
    while (b > a && isSpaceOrTab(text.charCodeAt(b - 1))) b -= 1;
    cells.push(a, b);
  };
  while (at < stop) {
    const code = text.charCodeAt(at);
    if (code === 92 && at + 1 < stop) {
      at += 2;
      continue;
    }
    if (code === 124) {
      push(cellStart, at);
      cellStart = at + 1;
    }
    at += 1;
  }
  if (cellStart < stop || text.charCodeAt(stop - 1) !== 124) push(cellStart, stop);
  return cells;
}

const HTML_COMMENT = 2;

/** The HTML block type (1–7) a line starting at `start` opens, or 0. */
export function htmlBlockStart(text: string, start: number, end: number): number {
  const next = text.charCodeAt(start + 1);
  if (next === 33 /* ! */) {
    if (text.startsWith('<!--', start)) return HTML_COMMENT;
    if (text.startsWith('<![CDATA[', start)) return 5;
    const letter = text.charCodeAt(start + 2);
    if ((letter >= 65 && letter <= 90) || (letter >= 97 && letter <= 122)) return 4;
    return 0;
  }
  if (next === 63 /* ? */) return 3;
  const closing = next === 47;
  let at = start + (closing ? 2 : 1);
  const nameStart = at;
  while (at < end && isAsciiAlphanumeric(text.charCodeAt(at))) at += 1;
  if (at === nameStart || !isAsciiAlpha(text.charCodeAt(nameStart))) return 0;
  const name = text.slice(nameStart, at).toLowerCase();
  const after = text.charCodeAt(at);
  const endsName = at >= end || isSpaceOrTab(after) || after === 62;
  if (!closing && isHtmlRawName(name) && endsName) return 1;
  if (isHtmlBlockName(name) && (endsName || (after === 47 && text.charCodeAt(at + 1) === 62))) return 6;
  // Type 7: a complete open or closing tag alone on the line (micromark takes `</style>` here too).
  const tagEnd = closing ? closingTagEnd(text, start, end) : openTagEnd(text, start, end);
  if (tagEnd !== -1 && isBlankRange(text, tagEnd, end) && (closing || !isHtmlRawName(name))) return 7;
  return 0;
}

function htmlBlockEnds(text: string, type: number, start: number, end: number): boolean {
  const line = text.slice(start, end);
  switch (type) {
    case 1: {
      const lower = line.toLowerCase();
      return lower.includes('</script>') || lower.includes('</pre>') || lower.includes('</style>') || lower.includes('</textarea>');
    }
    case 2:
      return line.includes('-->');
    case 3:
      return line.includes('?>');
    case 4:
      return line.includes('>');
    case 5:
      return line.includes(']]>');
    default:
      return false;
  }
}

function htmlKind(text: string, start: number): RegionKind {
  let at = start;
  while (isSpaceOrTab(text.charCodeAt(at))) at += 1;
  return text.startsWith('<!--', at) ? 'comment' : 'html-block';
}

export function isAsciiAlpha(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

export function isAsciiAlphanumeric(code: number): boolean {
  return isAsciiAlpha(code) || (code >= 48 && code <= 57);
}

/** The offset after an HTML open tag starting at `start` (`<`) and ending before `end`, or -1 (CommonMark §6.6). */
export function openTagEnd(text: string, start: number, end: number): number {
  let at = start + 1;
  if (at >= end || !isAsciiAlpha(text.charCodeAt(at))) return -1;
  while (at < end && (isAsciiAlphanumeric(text.charCodeAt(at)) || text.charCodeAt(at) === 45)) at += 1;
  for (;;) {
    const spaceStart = at;
    while (at < end && isWhitespace(text.charCodeAt(at))) at += 1;
    if (at >= end) return -1;
    const code = text.charCodeAt(at);
    if (code === 62) return at + 1;
    if (code === 47) return at + 1 < end && text.charCodeAt(at + 1) === 62 ? at + 2 : -1;
    if (at === spaceStart || !(isAsciiAlpha(code) || code === 95 || code === 58)) return -1;
    at += 1;
    while (at < end) {
      const name = text.charCodeAt(at);
      if (isAsciiAlphanumeric(name) || name === 95 || name === 46 || name === 58 || name === 45) at += 1;
      else break;
    }
    const beforeValue = at;
    while (at < end && isWhitespace(text.charCodeAt(at))) at += 1;
    if (at >= end || text.charCodeAt(at) !== 61) {
      at = beforeValue;
      continue;
    }
    at += 1;
    while (at < end && isWhitespace(text.charCodeAt(at))) at += 1;
    const quote = at < end ? text.charCodeAt(at) : -1;
    if (quote === 34 || quote === 39) {
      // A loop, not indexOf: a search past `end` for a quote that never comes reads the rest of the document.
      at += 1;
      while (at < end && text.charCodeAt(at) !== quote) at += 1;
      if (at >= end) return -1;
      at += 1;
    } else {
      const valueStart = at;
      while (at < end) {
        const value = text.charCodeAt(at);
        // micromark ends an unquoted value at `/` too (the start of `/>`).
        if (
          isWhitespace(value) ||
          value === 34 ||
          value === 39 ||
          value === 61 ||
          value === 60 ||
          value === 62 ||
          value === 96 ||
          value === 47
        )
          break;
        at += 1;
      }
      if (at === valueStart) return -1;
    }
  }
}

/** The offset after an HTML closing tag starting at `start` and ending before `end`, or -1. */
export function closingTagEnd(text: string, start: number, end: number): number {
  let at = start + 2;
  if (at >= end || !isAsciiAlpha(text.charCodeAt(at))) return -1;
  while (at < end && (isAsciiAlphanumeric(text.charCodeAt(at)) || text.charCodeAt(at) === 45)) at += 1;
  while (at < end && isWhitespace(text.charCodeAt(at))) at += 1;
  return at < end && text.charCodeAt(at) === 62 ? at + 1 : -1;
}

/** Space, tab, line feed, carriage return (and form feed, vertical tab as the spec's whitespace). */
export function isWhitespace(code: number): boolean {
  return code === SPACE || code === TAB || code === LF || code === CR || code === 12 || code === 11;
}
