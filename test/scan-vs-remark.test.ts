/**
 * remark-parse is the parser of record. The core's scanner decides where a citation can stand
 * without building a tree; this test checks, for every `[` in real documents and in tricky
 * constructs, that the scanner and remark-parse agree on whether it stands in prose or inside
 * code, HTML or a reference definition.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createRegionCursor, scanMarkdown } from '@aiwg-cite/core';
import { SHARED_CORPORA, sharedCorpus } from '@aiwg-cite/test-utils';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';

interface MdNode {
  type: string;
  position?: { start: { offset?: number }; end: { offset?: number } };
  children?: MdNode[];
}

const NON_PROSE = new Set(['code', 'inlineCode', 'html', 'definition']);
const processor = unified().use(remarkParse);

/** Offsets of every `[` that remark puts inside a non-prose node. */
function remarkNonProse(text: string, brackets: readonly number[]): Set<number> {
  const ranges: [number, number][] = [];
  const visit = (node: MdNode) => {
    if (NON_PROSE.has(node.type) && node.position?.start.offset !== undefined && node.position.end.offset !== undefined) {
      ranges.push([node.position.start.offset, node.position.end.offset]);
      return;
    }
    for (const child of node.children ?? []) visit(child);
  };
  visit(processor.parse(text) as MdNode);
  return new Set(brackets.filter((offset) => ranges.some(([start, end]) => offset >= start && offset < end)));
}

function scannerNonProse(text: string, brackets: readonly number[]): Set<number> {
  const scanned = scanMarkdown(text);
  const inRegion = createRegionCursor(scanned.regions.filter((region) => region.kind !== 'frontmatter'));
  return new Set(brackets.filter((offset) => inRegion(offset) !== null));
}

function frontmatterEnd(text: string): number {
  return scanMarkdown(text).regions.find((region) => region.kind === 'frontmatter')?.end ?? 0;
}

/** Brackets outside frontmatter (remark-parse alone does not know frontmatter). */
function bracketsOf(text: string): number[] {
  const skip = frontmatterEnd(text);
  const out: number[] = [];
  for (let at = text.indexOf('[', skip); at !== -1; at = text.indexOf('[', at + 1)) out.push(at);
  return out;
}

function disagreements(text: string): string[] {
  const brackets = bracketsOf(text);
  const remark = remarkNonProse(text, brackets);
  const scanner = scannerNonProse(text, brackets);
  const out: string[] = [];
  for (const offset of brackets) {
    if (remark.has(offset) !== scanner.has(offset)) {
      const line = text.slice(0, offset).split('\n').length;
      out.push(
        `line ${line}: remark says ${remark.has(offset) ? 'non-prose' : 'prose'}: ${text.slice(offset, offset + 40).split('\n')[0]}`,
      );
    }
  }
  return out;
}

function listMarkdown(directory: string, out: string[] = []): string[] {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) listMarkdown(path, out);
    else if (entry.name.endsWith('.md')) out.push(path);
  }
  return out;
}

describe('the scanner agrees with remark-parse', () => {
  const fixtures: Record<string, string> = {
    'fences of both kinds, longer closers, info strings': '```ts\n[a]\n```\n\n~~~~\n[b]\n~~~\n[c]\n~~~~\n\n[d]\n',
    'fence inside a list item and a quote': '- item\n\n  ```\n  [a]\n  ```\n\n> ```\n> [b]\n> ```\n\n[c]\n',
    'indented code after a paragraph break': 'para\n\n    [a]\n    [b]\n\n[c]\n',
    'indented continuation of a list item is prose': '- item\n\n    [a] continued\n\n[b]\n',
    'code spans, multi-backtick and unmatched': 'a `[x]` b ``[y] ` z`` c ` [w]\n',
    'code span across a line break': 'a `code\n[x]` b [y]\n',
    'html blocks and comments': '<div>\n[a]\n</div>\n\n<!--\n[b]\n-->\n\n[c] <!-- [d] --> [e]\n',
    'reference definitions': '[a]: https://example.com\n[b]: <https://example.com> "title"\n\n[c]\n',
    'escaped brackets and backticks': '\\`[a]\\` and \\[b]\n',
  };
  for (const [name, text] of Object.entries(fixtures)) {
    it(`on ${name}`, () => {
      expect(disagreements(text)).toEqual([]);
    });
  }

  const corpus = sharedCorpus('aiwg-2026.5.1', 'scanner vs remark-parse on the shared aiwg corpus');
  it.skipIf(corpus === undefined)('on every document of the shared aiwg corpus', () => {
    const files = listMarkdown(corpus ?? '');
    expect(files.length).toBeGreaterThan(100);
    const found: string[] = [];
    let brackets = 0;
    for (const file of files) {
      const text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
      brackets += bracketsOf(text).length;
      for (const problem of disagreements(text)) found.push(`${relative(SHARED_CORPORA, file)} ${problem}`);
    }
    expect(brackets).toBeGreaterThan(1000);
    expect(found).toEqual([]);
  });
});
