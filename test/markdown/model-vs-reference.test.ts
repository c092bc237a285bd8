/**
 * The markdown model against the reference parser (micromark + mdast-util-from-markdown with GFM,
 * frontmatter and math): every example of the CommonMark 0.31.2 spec (from the `commonmark-spec`
 * package) and the GFM examples of gfm-examples.ts, with a citation-shaped probe placed at every
 * position; then random documents made of spec fragments. A placement agrees when both say the
 * probe stands in prose, or both say it does not.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isProse, parseMarkdown } from '../../packages/core/src/markdown/model.ts';
import {
  commonMarkExamples,
  type Disagreement,
  fragmentLines,
  opensUnclosedFrontmatter,
  randomDocumentProperty,
  runDifferentialYielding,
} from './differential.ts';
import { GFM_EXAMPLES } from './gfm-examples.ts';
import { referenceSaysProse } from './reference.ts';
import { REGRESSION_EXAMPLES } from './regressions.ts';

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

describe('the markdown model agrees with the reference parser', () => {
  it('at every placement in the CommonMark 0.31.2 spec examples', { timeout: 600_000 }, async () => {
    const examples = commonMarkExamples();
    expect(examples.length).toBe(652);
    const result = await runDifferentialYielding(examples, model);
    expect(result.placements).toBeGreaterThan(19_000);
    expect(show(result.disagreements)).toEqual([]);
    expect(result.agreeing).toBe(result.placements);
  });

  it('at every placement in the GFM, frontmatter and math examples', { timeout: 120_000 }, async () => {
    const result = await runDifferentialYielding(GFM_EXAMPLES, model, 5);
    expect(result.placements).toBeGreaterThan(2_000);
    expect(show(result.disagreements)).toEqual([]);
  });

  it('at every placement in the documents of past disagreements', async () => {
    const result = await runDifferentialYielding(REGRESSION_EXAMPLES, model, 4, true);
    expect(result.placements).toBeGreaterThan(500);
    expect(show(result.disagreements)).toEqual([]);
  });

  it('keeps the containers after an unclosed frontmatter fence, where the reference drops them', () => {
    // Seed -100137140. micromark's frontmatter construct swallows the container prefixes while it
    // looks for the closing fence (see opensUnclosedFrontmatter): the list item's indented code is
    // paragraph text there. The model reads a list, as CommonMark and GitHub do. When this
    // expectation on the reference fails, the reference is fixed: drop the exclusion.
    const text = '+++\n-     [src/a.ts@0123456789abcdef, L1-2]\n\tfoo\n';
    const start = text.indexOf('[');
    const end = text.indexOf(']') + 1;
    expect(opensUnclosedFrontmatter(text)).toBe(true);
    expect(model(text)(start, end)).toBe(false);
    expect(referenceSaysProse(text, start, end)).toBe(true);
    expect(model(`a\n${text.slice(4)}`)(start - 2, end - 2)).toBe(false);
  });

  it('on random documents made of spec fragments', { timeout: 600_000 }, async () => {
    // The fuzz suite's seed (AIWG_CITE_FUZZ_SEED, default 15), so CI is repeatable;
    // AIWG_CITE_MODEL_SEEDS=n adds n random seeds (each named on failure) and
    // AIWG_CITE_MODEL_RUNS sets the runs per seed (default 1500).
    const seeds = [Number(process.env.AIWG_CITE_FUZZ_SEED ?? 15)];
    for (let extra = Number(process.env.AIWG_CITE_MODEL_SEEDS ?? 0); extra > 0; extra -= 1) {
      seeds.push(Math.floor(Math.random() * 2 ** 32) - 2 ** 31);
    }
    const numRuns = Number(process.env.AIWG_CITE_MODEL_RUNS ?? 1500);
    const lines = fragmentLines();
    const failed: string[] = [];
    for (const seed of seeds) {
      const found: Disagreement[] = [];
      const result = fc.check(randomDocumentProperty(model, found, lines), { numRuns, seed });
      if (result.failed) failed.push(`seed ${seed}: ${show(found.slice(-1))[0] ?? String(result.errorInstance)}`);
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    expect(failed).toEqual([]);
  });
});
