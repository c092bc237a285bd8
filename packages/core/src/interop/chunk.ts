/**
 * Chunking compatible with citation-auditor's `chunk` (SPEC §8.1, seed 002): whole markdown blocks
 * packed greedily under a token budget, each chunk restarting at the previous chunk's last
 * paragraph, with a segment table that maps chunk offsets back to document offsets. Offsets in the
 * output are Unicode code points, as in Python.
 */
import { parseMarkdown } from '../markdown/model.ts';
import { createOffsetIndex } from './offsets.ts';

/** The kind of a block, set by its first line. */
export type BlockKind = 'code' | 'quote' | 'heading' | 'list' | 'paragraph';

/** One markdown block: a run of lines between blank-line runs (a fence may span blank lines). */
export interface MarkdownBlock {
  readonly kind: BlockKind;
  /** UTF-16 offsets into the document text. */
  readonly start: number;
  readonly end: number;
  readonly text: string;
  /** `max(1, ceil(code points / 4))`. */
  readonly tokens: number;
}

/** Maps `[chunk_start, chunk_end)` of a chunk's text onto `[document_start, document_end)`, in code points. */
export interface ChunkSegment {
  readonly chunk_start: number;
  readonly chunk_end: number;
  readonly document_start: number;
  readonly document_end: number;
}

/** One chunk of the `chunk` output. */
export interface MarkdownChunk {
  readonly index: number;
  readonly text: string;
  readonly segments: readonly ChunkSegment[];
}

/** Options of {@link chunkMarkdown}. */
export interface ChunkOptions {
  /** The token budget of a chunk. @default 3000 */
  readonly maxTokens?: number;
}

/** The default `--max-tokens` (SPEC §8.1). */
export const DEFAULT_MAX_TOKENS = 3000;

const JOINER = '\n\n';
const LIST_START = /^[ \t]*(?:[-*+]|\d+\.)(?:[ \t]|$)/;

/** The token estimate of a text: `max(1, ceil(code points / 4))`. */
export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(createOffsetIndex(text).codePointLength / 4));
}

/**
 * Splits a document into blocks. A leading BOM belongs to no block (its offset still counts). Line
 * terminators (`\n` or `\r\n`) after a block's last line are not part of it.
 */
export function splitBlocks(text: string): MarkdownBlock[] {
  const lines: { start: number; end: number; content: string }[] = [];
  let at = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (at < text.length) {
    const newline = text.indexOf('\n', at);
    const next = newline === -1 ? text.length : newline + 1;
    let end = newline === -1 ? text.length : newline;
    if (end > at && text.charCodeAt(end - 1) === 13) end -= 1;
    lines.push({ start: at, end, content: text.slice(at, end) });
    at = next;
  }

  // Fenced code blocks come from the markdown model; a block that holds one runs to its end.
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const fences = parseMarkdown(text)
    .regions.filter((region) => region.kind === 'fenced-code')
    .map((region) => ({ start: region.start + bom, end: region.end + bom }));
  let fence = 0;
  const fenceOpening = (line: { start: number; end: number }): { start: number; end: number } | null => {
    while (fence < fences.length && (fences[fence] as { start: number }).start < line.start) fence += 1;
    const found = fences[fence];
    return found !== undefined && found.start <= line.end ? found : null;
  };

  const blocks: MarkdownBlock[] = [];
  let line = 0;
  while (line < lines.length) {
    if ((lines[line] as { content: string }).content.trim() === '') {
      line += 1;
      continue;
    }
    const first = line;
    let last = line;
    let firstIsFence = false;
    // A block runs to the next blank line; a fence inside it is consumed whole, blank lines and all.
    while (last < lines.length && (lines[last] as { content: string }).content.trim() !== '') {
      const opened = fenceOpening(lines[last] as { start: number; end: number });
      if (opened !== null) {
        if (last === first) firstIsFence = true;
        while (last + 1 < lines.length && (lines[last] as { end: number }).end < opened.end) last += 1;
      }
      last += 1;
    }
    const start = (lines[first] as { start: number }).start;
    const end = (lines[last - 1] as { end: number }).end;
    const blockText = text.slice(start, end);
    blocks.push({
      kind: firstIsFence ? 'code' : kindOf((lines[first] as { content: string }).content),
      start,
      end,
      text: blockText,
      tokens: estimateTokens(blockText),
    });
    line = last;
  }
  return blocks;
}

function kindOf(firstLine: string): BlockKind {
  const trimmed = firstLine.trimStart();
  if (trimmed.startsWith('>')) return 'quote';
  if (trimmed.startsWith('#')) return 'heading';
  if (LIST_START.test(firstLine)) return 'list';
  return 'paragraph';
}

/**
 * Chunks a document (SPEC §8.1). Packing is greedy: a block costs its tokens plus 1 for the `\n\n`
 * joiner unless it comes first, and a chunk stops before exceeding the budget. An oversize block
 * is a chunk of its own and is never split. The next chunk restarts at the previous chunk's last
 * `paragraph` block, but never earlier than the previous start + 1.
 */
export function chunkMarkdown(text: string, options: ChunkOptions = {}): MarkdownChunk[] {
  const maxTokens = options.maxTokens ?? DEFAULT_MAX_TOKENS;
  const blocks = splitBlocks(text);
  const document = createOffsetIndex(text);
  const chunks: MarkdownChunk[] = [];
  let start = 0;
  while (start < blocks.length) {
    let end = start;
    let cost = (blocks[start] as MarkdownBlock).tokens;
    while (end + 1 < blocks.length && cost + 1 + (blocks[end + 1] as MarkdownBlock).tokens <= maxTokens) {
      end += 1;
      cost += 1 + (blocks[end] as MarkdownBlock).tokens;
    }
    chunks.push(buildChunk(chunks.length, blocks.slice(start, end + 1), document));
    if (end === blocks.length - 1) break;
    let restart = end + 1;
    for (let at = end; at >= start; at -= 1) {
      if ((blocks[at] as MarkdownBlock).kind === 'paragraph') {
        restart = at;
        break;
      }
    }
    start = Math.max(restart, start + 1);
  }
  return chunks;
}

function buildChunk(index: number, blocks: readonly MarkdownBlock[], document: ReturnType<typeof createOffsetIndex>): MarkdownChunk {
  const segments: ChunkSegment[] = [];
  let chunkText = '';
  let cursor = 0;
  for (const block of blocks) {
    if (chunkText !== '') {
      chunkText += JOINER;
      cursor += JOINER.length;
    }
    const length = createOffsetIndex(block.text).codePointLength;
    chunkText += block.text;
    segments.push({
      chunk_start: cursor,
      chunk_end: cursor + length,
      document_start: document.toCodePoint(block.start),
      document_end: document.toCodePoint(block.end),
    });
    cursor += length;
  }
  return { index, text: chunkText, segments };
}

/** Whether an offset opens a span (`start`) or closes one (`end`). */
export type OffsetRole = 'start' | 'end';

/**
 * Maps a chunk offset (code points) to a document offset (SPEC §8.1). Inside a segment it moves by
 * the same delta; at a segment's end it gives `document_end`. In the `\n\n` gap after segment k an
 * end maps to `document_end(k)` and a start to `document_start(k + 1)`: upstream sends both to the
 * last segment's end, which moves every span that touches a gap to the end of the chunk.
 */
export function mapChunkOffset(segments: readonly ChunkSegment[], offset: number, role: OffsetRole): number {
  const first = segments[0];
  if (first === undefined) return Math.max(0, offset);
  if (offset <= 0) return first.document_start;
  for (let at = 0; at < segments.length; at += 1) {
    const segment = segments[at] as ChunkSegment;
    const next = segments[at + 1];
    if (offset < segment.chunk_start) {
      // Before the first segment (a chunk never starts with a gap, but a payload may say so).
      return segment.document_start;
    }
    if (offset < segment.chunk_end) return segment.document_start + (offset - segment.chunk_start);
    if (offset === segment.chunk_end && (role === 'end' || next === undefined)) return segment.document_end;
    if (next !== undefined && offset < next.chunk_start) return role === 'end' ? segment.document_end : next.document_start;
    if (next === undefined) return segment.document_end;
  }
  return (segments[segments.length - 1] as ChunkSegment).document_end;
}

/** Maps a chunk-relative span to the document; a span that lies wholly in a gap collapses to one point. */
export function mapChunkSpan(segments: readonly ChunkSegment[], span: { start: number; end: number }): { start: number; end: number } {
  const start = mapChunkOffset(segments, span.start, 'start');
  const end = mapChunkOffset(segments, span.end, 'end');
  return { start, end: Math.max(start, end) };
}
