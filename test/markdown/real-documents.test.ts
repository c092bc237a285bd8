/**
 * The markdown model against the reference parser on real documents: every `[…]` citation
 * candidate of every document in the shared aiwg corpus must stand in prose for both or for neither.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { SHARED_CORPORA, sharedCorpus } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';
import { isProse, parseMarkdown } from '../../packages/core/src/markdown/model.ts';
import { referenceIndex } from './reference.ts';

const CORPUS = sharedCorpus('aiwg-2026.5.1', 'the markdown model vs the reference on the shared aiwg corpus');
const CANDIDATE = /\[[^[\]\n]*\]/g;
/** The reference parser takes minutes on the corpus's 2.3 MB AGENTS.md; larger documents are left out. */
const MAX_BYTES = 256 * 1024;

function listMarkdown(directory: string, out: string[] = []): string[] {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) listMarkdown(path, out);
    else if (entry.name.endsWith('.md')) out.push(path);
  }
  return out;
}

describe('the markdown model on real documents', () => {
  it.skipIf(CORPUS === undefined)(
    'agrees with the reference on every bracket candidate of the shared aiwg corpus',
    { timeout: 300_000 },
    async () => {
      const files = listMarkdown(CORPUS ?? '').filter((file) => statSync(file).size <= MAX_BYTES);
      expect(files.length).toBeGreaterThan(100);
      const found: string[] = [];
      let candidates = 0;
      for (const file of files) {
        // A minute of synchronous work starves vitest's worker RPC on a loaded machine.
        await new Promise((resolve) => setTimeout(resolve, 0));
        const text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
        const model = parseMarkdown(text);
        const reference = referenceIndex(text);
        for (const match of text.matchAll(CANDIDATE)) {
          const start = match.index ?? 0;
          const end = start + match[0].length;
          candidates += 1;
          const expected = reference(start, end);
          if (expected !== isProse(model, start, end)) {
            found.push(
              `${relative(SHARED_CORPORA, file)}:${text.slice(0, start).split('\n').length} reference says ${expected ? 'prose' : 'not prose'}: ${match[0]}`,
            );
          }
        }
      }
      expect(candidates).toBeGreaterThan(1000);
      expect(found).toEqual([]);
    },
  );
});
