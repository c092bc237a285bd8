/**
 * The markdown model against the reference parser (micromark + mdast-util-from-markdown with GFM,
 * frontmatter and math): every example of the CommonMark 0.31.2 spec (from the `commonmark-spec`
 * package) and the GFM examples of gfm-examples.ts, with a citation-shaped probe placed at every
 * position; then random documents made of spec fragments. A placement agrees when both say the
 * probe stands in prose, or both say it does not.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { htmlBlockStart } from '../../packages/core/src/markdown/blocks.ts';
import { isProse, parseMarkdown } from '../../packages/core/src/markdown/model.ts';
import { allExamples, commonMarkExamples, compareDocument, type Disagreement, PROBES, runDifferential } from './differential.ts';
import { GFM_EXAMPLES } from './gfm-examples.ts';

const model = (text: string) => {
  const document = parseMarkdown(text);
  return (start: number, end: number) => isProse(document, start, end);
};

const show = (found: readonly Disagreement[]) =>
  found
    .slice(0, 20)
    .map(
      (item) =>
        `${item.source}: reference says ${item.reference ? 'prose' : 'not prose'} at ${item.offset} in ${JSON.stringify(item.text)}`,
    );

function opensHtmlBlockOfType7(line: string): boolean {
  const start = line.length - line.trimStart().length;
  return start < 4 && htmlBlockStart(line, start, line.length) === 7;
}

describe('the markdown model agrees with the reference parser', () => {
  it('at every placement in the CommonMark 0.31.2 spec examples', { timeout: 600_000 }, () => {
    const examples = commonMarkExamples();
    expect(examples.length).toBe(652);
    const result = runDifferential(examples, model);
    expect(result.placements).toBeGreaterThan(19_000);
    expect(show(result.disagreements)).toEqual([]);
    expect(result.agreeing).toBe(result.placements);
  });

  it('at every placement in the GFM, frontmatter and math examples', { timeout: 120_000 }, () => {
    const result = runDifferential(GFM_EXAMPLES, model);
    expect(result.placements).toBeGreaterThan(2_000);
    expect(show(result.disagreements)).toEqual([]);
  });

  it('on random documents made of spec fragments', { timeout: 300_000 }, () => {
    // Fragments: whole lines of the examples, so containers, fences and inline constructs mix.
    // Lines that open an HTML block of type 7 are left out: on a lazy line micromark lets such a
    // block interrupt the paragraph and puts it inside the container (`- bim\n<a href="x">\nfoo`),
    // where CommonMark (§4.6: type 7 cannot interrupt a paragraph; §5.1 laziness) and cmark-gfm keep
    // paragraph text, as the model does. The spec examples above still cover type 7 everywhere.
    const lines = [...new Set(allExamples().flatMap((example) => example.markdown.split('\n')))].filter(
      (line) => line.length < 80 && !opensHtmlBlockOfType7(line),
    );
    const found: Disagreement[] = [];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...lines), { minLength: 1, maxLength: 8 }),
        fc.nat(),
        fc.constantFrom(...PROBES),
        (picked, seed, probe) => {
          const document = `${picked.join('\n')}\n`;
          const at = seed % (document.length + 1);
          const text = document.slice(0, at) + probe + document.slice(at);
          return compareDocument('random', text, at, at + probe.length, model, found);
        },
      ),
      // The fuzz suite's seed (AIWG_CITE_FUZZ_SEED, default 15), so CI is repeatable; another seed
      // explores. A known disagreement other seeds reach: a line indented 4+ columns after a GFM
      // table is a table row to the model (and to cmark-gfm, GitHub's renderer) but indented code
      // to micromark (`a\n| - |\n\tfoo`); not yet decided which to follow.
      { numRuns: 1500, seed: Number(process.env.AIWG_CITE_FUZZ_SEED ?? 15) },
    );
    expect(show(found)).toEqual([]);
  });
});
