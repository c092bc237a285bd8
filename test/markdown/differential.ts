/**
 * The differential measurement of the markdown model against the reference parser: a
 * citation-shaped probe inserted at every position of every example, the placement agreeing when
 * both the model and the reference say it stands in prose, or both say it does not.
 */
import { createRequire } from 'node:module';
import { type Example, GFM_EXAMPLES } from './gfm-examples.ts';
import { referenceSaysProse, referenceTree } from './reference.ts';

/** A code citation and a path-only citation: the two shapes whose placement matters most. */
export const PROBES = ['[src/a.ts@0123456789abcdef, L1-2]', '[docs/guide.md]'] as const;

/** The examples of the CommonMark 0.31.2 spec, from the `commonmark-spec` package (tabs written as `→` there). */
export function commonMarkExamples(): Example[] {
  const spec = createRequire(import.meta.url)('commonmark-spec') as { tests: { markdown: string; section: string; number: number }[] };
  return spec.tests.map((test) => ({
    source: `commonmark ${test.number}`,
    section: test.section,
    markdown: test.markdown.replace(/→/g, '\t'),
  }));
}

export function allExamples(): Example[] {
  return [...commonMarkExamples(), ...GFM_EXAMPLES];
}

/** Decides whether `[start, end)` stands in prose according to the implementation under test. */
export type ModelVerdict = (text: string) => (start: number, end: number) => boolean;

export interface Disagreement {
  readonly source: string;
  readonly text: string;
  readonly offset: number;
  readonly reference: boolean;
}

export interface DifferentialResult {
  readonly placements: number;
  readonly agreeing: number;
  readonly disagreements: readonly Disagreement[];
}

/** Every placement of every probe in `markdown`: offsets between UTF-16 units that split no surrogate pair. */
export function placements(markdown: string): number[] {
  const out: number[] = [];
  for (let at = 0; at <= markdown.length; at += 1) {
    const code = markdown.charCodeAt(at);
    if (code >= 0xdc00 && code <= 0xdfff) continue;
    out.push(at);
  }
  return out;
}

export function compareDocument(
  source: string,
  text: string,
  start: number,
  end: number,
  model: ModelVerdict,
  out: Disagreement[],
): boolean {
  const reference = referenceSaysProse(text, start, end, referenceTree(text));
  const ours = model(text)(start, end);
  if (reference !== ours) out.push({ source, text, offset: start, reference });
  return reference === ours;
}

/**
 * Places the code probe at every position and the path-only probe at every line start and after
 * every space or tab (where a writer puts one); `everyPosition` places both everywhere.
 */
export function runDifferential(examples: readonly Example[], model: ModelVerdict, everyPosition = false): DifferentialResult {
  const disagreements: Disagreement[] = [];
  let count = 0;
  let agreeing = 0;
  for (const { source, markdown } of examples) {
    for (const probe of PROBES) {
      const positions =
        everyPosition || probe === PROBES[0]
          ? placements(markdown)
          : placements(markdown).filter((at) => at === 0 || /[\s]/.test(markdown[at - 1] as string));
      for (const at of positions) {
        const text = markdown.slice(0, at) + probe + markdown.slice(at);
        count += 1;
        if (compareDocument(source, text, at, at + probe.length, model, disagreements)) agreeing += 1;
      }
    }
  }
  return { placements: count, agreeing, disagreements };
}
