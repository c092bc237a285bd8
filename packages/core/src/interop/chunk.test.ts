import { describe, expect, it } from 'vitest';
import { type ChunkSegment, chunkMarkdown, estimateTokens, mapChunkOffset, mapChunkSpan, splitBlocks } from './chunk.ts';
import { createOffsetIndex } from './offsets.ts';

describe('offset index (code points ↔ UTF-16)', () => {
  it('is the identity for text without astral characters', () => {
    const index = createOffsetIndex('héllo wörld');
    expect(index.codePointLength).toBe(11);
    expect(index.toCodePoint(5)).toBe(5);
    expect(index.toUtf16(5)).toBe(5);
  });

  it('counts a surrogate pair as one code point, both ways', () => {
    const text = 'a😀b🚀c';
    const index = createOffsetIndex(text);
    expect(index.codePointLength).toBe([...text].length);
    expect([0, 1, 3, 4, 6, 7].map((at) => index.toCodePoint(at))).toEqual([0, 1, 2, 3, 4, 5]);
    expect([0, 1, 2, 3, 4, 5].map((at) => index.toUtf16(at))).toEqual([0, 1, 3, 4, 6, 7]);
    // An offset between the halves of a pair counts the pair as passed.
    expect(index.toCodePoint(2)).toBe(2);
    expect(index.toUtf16(99)).toBe(text.length);
    expect(index.toCodePoint(-3)).toBe(0);
  });

  it('round-trips every code point boundary of a mixed string', () => {
    const text = '𝒜x😀😀数学\u{1F680}end';
    const index = createOffsetIndex(text);
    let utf16 = 0;
    let codePoint = 0;
    for (const char of text) {
      expect(index.toUtf16(codePoint)).toBe(utf16);
      expect(index.toCodePoint(utf16)).toBe(codePoint);
      utf16 += char.length;
      codePoint += 1;
    }
    expect(index.toUtf16(codePoint)).toBe(text.length);
  });
});

describe('blocks (SPEC §8.1)', () => {
  it('splits on blank-line runs and takes the kind from the first line', () => {
    const text = '# H\ntext under heading\n\n\n\n- item\n\n> quote\n\n1. one\n\nplain\n   \nafter spaces';
    const blocks = splitBlocks(text);
    expect(blocks.map((block) => [block.kind, block.text])).toEqual([
      ['heading', '# H\ntext under heading'],
      ['list', '- item'],
      ['quote', '> quote'],
      ['list', '1. one'],
      ['paragraph', 'plain'],
      ['paragraph', 'after spaces'],
    ]);
    for (const block of blocks) expect(text.slice(block.start, block.end)).toBe(block.text);
  });

  it('consumes a fence to its matching fence, blank lines included, or to the end', () => {
    const blocks = splitBlocks('````md\n```\n\ninner\n```\n````\n\nafter\n\n~~~\nopen\n\nto the end\n');
    expect(blocks.map((block) => block.kind)).toEqual(['code', 'paragraph', 'code']);
    expect(blocks[0]?.text).toBe('````md\n```\n\ninner\n```\n````');
    expect(blocks[2]?.text).toBe('~~~\nopen\n\nto the end');
  });

  it('keeps CRLF inside a block but not after it, and skips a BOM', () => {
    const text = '\uFEFFfirst\r\nline two\r\n\r\nsecond\r\n';
    const blocks = splitBlocks(text);
    expect(blocks.map((block) => block.text)).toEqual(['first\r\nline two', 'second']);
    expect(blocks[0]?.start).toBe(1);
  });

  it('estimates tokens as max(1, ceil(code points / 4))', () => {
    expect(estimateTokens('')).toBe(1);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
    expect(estimateTokens('😀😀😀😀😀')).toBe(2);
  });
});

describe('chunk packing (SPEC §8.1)', () => {
  it('reproduces citation-auditor: overlap restarts at the previous chunk’s last paragraph', () => {
    const text = 'P1.\n\nPara two has enough words to trigger overlap.\n\nPara three lands in the next chunk.';
    const chunks = chunkMarkdown(text, { maxTokens: 20 });
    expect(chunks.length).toBeGreaterThanOrEqual(2);
    expect(chunks[0]?.text).toContain('Para two has enough words to trigger overlap.');
    expect(chunks[1]?.text.startsWith('Para two has enough words to trigger overlap.')).toBe(true);
    expect(chunks.map((chunk) => chunk.index)).toEqual(chunks.map((_, at) => at));
  });

  it('charges 1 token per joiner and stops before exceeding the budget', () => {
    // Blocks of 4 tokens each (16 characters): 4 + 1 + 4 = 9 fits in 9, a third does not.
    const block = (letter: string) => letter.repeat(16);
    const text = ['a', 'b', 'c'].map(block).join('\n\n');
    expect(chunkMarkdown(text, { maxTokens: 9 }).map((chunk) => chunk.text)).toEqual([
      `${block('a')}\n\n${block('b')}`,
      `${block('b')}\n\n${block('c')}`,
    ]);
    expect(chunkMarkdown(text, { maxTokens: 8 }).map((chunk) => chunk.text)).toEqual([block('a'), block('b'), block('c')]);
  });

  it('never splits an oversize block and never restarts earlier than the previous start + 1', () => {
    const big = 'x'.repeat(200);
    const chunks = chunkMarkdown(`# Head\n\n${big}\n\n- list\n\n- more`, { maxTokens: 10 });
    expect(chunks.map((chunk) => chunk.text)).toEqual(['# Head', big, '- list\n\n- more']);
  });

  it('gives one segment per block whose text matches the document slice, in code points', () => {
    const text = '\uFEFF# 😀 title\n\nA 🚀 paragraph with 数学.\n\n> quote 🎉\n\nlast';
    const document = createOffsetIndex(text);
    for (const chunk of chunkMarkdown(text, { maxTokens: 8 })) {
      const inChunk = createOffsetIndex(chunk.text);
      for (const segment of chunk.segments) {
        const fromChunk = chunk.text.slice(inChunk.toUtf16(segment.chunk_start), inChunk.toUtf16(segment.chunk_end));
        const fromDocument = text.slice(document.toUtf16(segment.document_start), document.toUtf16(segment.document_end));
        expect(fromChunk).toBe(fromDocument);
        expect(segment.chunk_end - segment.chunk_start).toBe(segment.document_end - segment.document_start);
      }
    }
  });

  it('returns no chunks for an empty or blank document', () => {
    expect(chunkMarkdown('')).toEqual([]);
    expect(chunkMarkdown('\n\n   \n')).toEqual([]);
  });
});

describe('mapping chunk offsets to the document (the separator-gap fix)', () => {
  // Chunk "aaaa\n\nbbbb": segment 0 is [0,4) ↔ [10,14), the gap is [4,6), segment 1 is [6,10) ↔ [20,24).
  const segments: ChunkSegment[] = [
    { chunk_start: 0, chunk_end: 4, document_start: 10, document_end: 14 },
    { chunk_start: 6, chunk_end: 10, document_start: 20, document_end: 24 },
  ];

  it.each([
    [-5, 'start', 10],
    [0, 'start', 10],
    [2, 'start', 12],
    [2, 'end', 12],
    [4, 'end', 14],
    [5, 'end', 14],
    [4, 'start', 20],
    [5, 'start', 20],
    [6, 'start', 20],
    [6, 'end', 20],
    [8, 'end', 22],
    [10, 'end', 24],
    [10, 'start', 24],
    [99, 'end', 24],
    [99, 'start', 24],
  ] as const)('offset %i as a span %s maps to %i', (offset, role, expected) => {
    expect(mapChunkOffset(segments, offset, role)).toBe(expected);
  });

  it('maps a span that ends in the gap to the end of its block, not to the end of the chunk', () => {
    // Upstream maps both gap offsets to the last segment's document_end (24).
    expect(mapChunkSpan(segments, { start: 0, end: 5 })).toEqual({ start: 10, end: 14 });
    expect(mapChunkSpan(segments, { start: 5, end: 10 })).toEqual({ start: 20, end: 24 });
    expect(mapChunkSpan(segments, { start: 4, end: 5 })).toEqual({ start: 20, end: 20 });
  });
});
