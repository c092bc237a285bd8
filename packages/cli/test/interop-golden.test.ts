import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type AggregatedVerdict,
  aggregateBundles,
  annotateMarkdown,
  checkDocuments,
  chunkMarkdown,
  createConfinedReader,
  createMemoryFileSystem,
  marksFromAggregate,
  marksFromFindings,
  validateAggregateInput,
} from '@aiwg-cite/core';
import { PROJECT_ROOT, runCli, tempDir, writeTree } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';

// Golden files (STYLE §4): each fixture `<case>.md` is paired with its expected outputs.
// `UPDATE=1` rewrites them; without it a missing golden fails. Review golden diffs like code.
const FIXTURES = join(PROJECT_ROOT, 'packages/core/test/fixtures/interop');
const UPDATE = process.env.UPDATE === '1';

function fixture(name: string): string {
  return readFileSync(join(FIXTURES, name), 'utf8');
}

function golden(name: string, actual: string): void {
  const path = join(FIXTURES, name);
  if (UPDATE) writeFileSync(path, actual);
  expect(existsSync(path), `missing golden ${name}: run with UPDATE=1 and review it`).toBe(true);
  expect(actual).toBe(readFileSync(path, 'utf8'));
}

const CHUNK_CASES = [
  ['blocks', 40],
  ['astral', 12],
  ['seed-001', 60],
] as const;

describe('chunk goldens (SPEC §8.1)', () => {
  it.each(CHUNK_CASES)('%s.md at --max-tokens %i', (name, maxTokens) => {
    golden(`${name}.json`, `${JSON.stringify({ chunks: chunkMarkdown(fixture(`${name}.md`), { maxTokens }) }, null, 2)}\n`);
  });

  it.each(CHUNK_CASES)('every segment of %s.json names equal text in chunk and document, counted in code points', (name) => {
    // Independent of the core's offset index: Array.from splits strings into code points, as Python indexes them.
    const document = Array.from(fixture(`${name}.md`));
    const { chunks } = JSON.parse(fixture(`${name}.json`)) as { chunks: { text: string; segments: Record<string, number>[] }[] };
    let segments = 0;
    for (const item of chunks) {
      const text = Array.from(item.text);
      for (const { chunk_start, chunk_end, document_start, document_end } of item.segments) {
        expect(text.slice(chunk_start, chunk_end).join('')).toBe(document.slice(document_start, document_end).join(''));
        segments += 1;
      }
    }
    expect(segments).toBeGreaterThan(3);
  });

  it.each(CHUNK_CASES)('the CLI prints the same chunks for %s.md', (name, maxTokens) => {
    // chunk confines its file to the root as check does: the fixtures directory is the root here.
    const run = runCli(['chunk', join(FIXTURES, `${name}.md`), '--max-tokens', String(maxTokens), '--root', FIXTURES], { cwd: tempDir() });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(fixture(`${name}.json`));
  });
});

/** The seed 001 citation cases: verdicts of model verifiers plus aiwg-cite's own findings. */
describe('seed 001 cases: aggregate and render goldens', () => {
  const text = fixture('seed-001.md');
  const input = validateAggregateInput(JSON.parse(fixture('seed-001.verdicts.json')));

  function aggregate(): AggregatedVerdict[] {
    if (!input.ok) throw new Error(input.problem);
    return [...aggregateBundles(input.value.bundles, { quotes: { sourceText: () => null, requireSourceText: false } }).aggregated];
  }

  async function findings() {
    const fs = createMemoryFileSystem({
      '/repo/seed-001.md': text,
      '/repo/src/q3.ts': 'export const revenue = 50_000;\nexport const expenses = 40_000;\nexport const profit = revenue - expenses;\n',
    });
    const report = await checkDocuments({ reader: createConfinedReader(fs, '/repo'), documents: ['seed-001.md'] });
    return report.citations;
  }

  it('aggregates to the expected verdict per case', () => {
    if (!input.ok) throw new Error(input.problem);
    const aggregated = aggregate();
    golden('seed-001.aggregated.json', `${JSON.stringify({ aggregated, dropped: input.value.dropped }, null, 2)}\n`);
    const codePoints = Array.from(text);
    for (const item of aggregated) {
      const { start, end } = item.claim.sentence_span;
      expect(codePoints.slice(start, end).join('')).toBe(item.claim.text);
    }
    const byCase = aggregated.map((item) => [item.claim.text.slice(0, 12), item.verdict.label, item.verdict.verifier_name]);
    expect(byCase).toEqual([
      ['Vaswani et a', 'verified', 'arxiv'], // A1: VERIFIED
      ['Lewis et al.', 'contradicted', 'arxiv'], // A2: wrong attribution
      ['Hashimoto et', 'contradicted', 'crossref'], // A3: fake DOI
      ['A 2025 prepr', 'unknown', 'arxiv'], // A4: fake arXiv; the top verifier could not tell
      ['Wakefield et', 'contradicted', 'crossref'], // B1: retracted
      ['Anthropic wa', 'unknown', 'general-web'], // C2: fabricated quote, downgraded
      ['Our Q3 profi', 'verified', 'private-context'], // D3: GROUNDED
      ['Quoted claim', 'verified', 'general-web'],
    ]);
    expect(input.value.dropped).toHaveLength(2);
  });

  it('settles the fake arXiv id (A4) as contradicted under prefer-definitive', () => {
    if (!input.ok) throw new Error(input.problem);
    const result = aggregateBundles(input.value.bundles, { policy: 'prefer-definitive' });
    const a4 = result.aggregated.find((item) => item.claim.text.startsWith('A 2025 preprint'));
    expect([a4?.verdict.label, a4?.verdict.verifier_name]).toEqual(['contradicted', 'general-web']);
  });

  it('renders inline badges and the audit report for verdicts and findings merged', async () => {
    const marks = [...marksFromAggregate(text, aggregate()), ...marksFromFindings(text, await findings())];
    golden('seed-001.out.md', annotateMarkdown(text, marks, 'inline').text);
  });

  it('renders append mode: failures marked, appendix table', async () => {
    const marks = [...marksFromAggregate(text, aggregate()), ...marksFromFindings(text, await findings())];
    golden('seed-001.append.out.md', annotateMarkdown(text, marks, 'append').text);
  });

  it('the CLI aggregates the seed 001 bundles to the golden', () => {
    const run = runCli(['aggregate', join(FIXTURES, 'seed-001.verdicts.json')], { cwd: tempDir() });
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as { aggregated: unknown; dropped: unknown };
    const expected = JSON.parse(fixture('seed-001.aggregated.json')) as { aggregated: unknown; dropped: unknown };
    expect(out.aggregated).toEqual(expected.aggregated);
    expect(out.dropped).toEqual(expected.dropped);
    expect(run.stderr).toContain('aiwg-cite: aggregate: dropped 2 invalid candidates\n');
  });

  it('the CLI annotates the seed 001 document with verdicts and its own findings side by side (aggregate → annotate)', () => {
    const dir = tempDir();
    writeTree(dir, {
      'seed-001.md': text,
      'src/q3.ts': 'export const revenue = 50_000;\nexport const expenses = 40_000;\nexport const profit = revenue - expenses;\n',
      'verdicts.json': fixture('seed-001.verdicts.json'),
    });
    const aggregated = runCli(['aggregate', 'verdicts.json'], { cwd: dir });
    expect(aggregated.code).toBe(0);
    writeTree(dir, { 'agg.json': aggregated.stdout });
    const run = runCli(['annotate', 'seed-001.md', '--verdicts', 'agg.json', '--root', '.'], {
      cwd: dir,
      env: { AIWG_CITE_DATE: '2026-11-22' },
    });
    expect(run.code).toBe(0);
    // The CLI adds the offline findings of \`check\` beside the verifiers' verdicts. Without a research
    // corpus, DOIs and arXiv ids are checked for form only (one coverage note, as in \`check\`), so
    // they carry the verifiers' marks alone.
    golden('seed-001.cli.out.md', run.stdout);
    expect(run.stdout).toContain('arXiv:1706.03762. **[✅ arxiv]**');
    expect(run.stdout).not.toContain('unverified]**');
    expect(run.stdout).toContain('[src/q3.ts@b477f741005e5255, L1-2] **[🔒 rlm/fresh]**');
    expect(run.stdout).toContain('[scripts/build.sh, L1] **[🔓 rlm/missing]**');
  });
});
