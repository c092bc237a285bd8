import { describe, expect, it } from 'vitest';
import { ArtifactCache } from '../artifacts.ts';
import { checkDocument, rlmChecker } from '../check.ts';
import { CorpusIndex } from '../corpus/corpus-index.ts';
import { createMemoryFileSystem } from '../memory-fs.ts';
import { createConfinedReader } from '../reader.ts';
import type { Finding } from '../report.ts';
import { createScholarlyChecker } from '../scholarly/checker.ts';
import { planFixes } from './plan.ts';

const LOW = '---\ngrade_level: LOW\n---\n# REF-020: Tree of Thoughts\n';

async function findingsOf(text: string): Promise<Finding[]> {
  const fs = createMemoryFileSystem({ '/repo/src/a.ts': 'hello\n' });
  const artifacts = new ArtifactCache(createConfinedReader(fs, '/repo'));
  const corpus = new CorpusIndex({
    roots: [{ path: 'docs/references', exists: true }],
    files: [{ path: 'docs/references/REF-020-tot.md', text: LOW }],
  });
  const scholarly = createScholarlyChecker({ corpus, now: { year: 2026, month: 11 } });
  const withoutBom = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return (await checkDocument('doc.md', withoutBom, artifacts, {}, [rlmChecker, scholarly])).findings;
}

const ORIGINAL = [
  '\uFEFF# Notes',
  '',
  'Research shows it works (REF-020). We cite [REF-999] and (REF-998) and REF-997 too.',
  'See doi:10.9999/unknown.7 and [the paper](https://doi.org/10.9999/other.8) and arXiv:2509.99999.',
  'The code is [src/a.ts@0000000000000000, L1].  ',
  'Untouched *markdown*   stays   as it is.',
].join('\r\n');

const EXPECTED = [
  '\uFEFF# Notes',
  '',
  'Limited evidence suggests it works (REF-020). We cite <!-- aiwg-cite: removed REF-999 (not in corpus) --> and <!-- aiwg-cite: removed REF-998 (not in corpus) --> and <!-- aiwg-cite: removed REF-997 (not in corpus) --> too.',
  'See doi:10.9999/unknown.7 <!-- TODO(verify): DOI not confirmed --> and [the paper](https://doi.org/10.9999/other.8) <!-- TODO(verify): DOI not confirmed --> and arXiv:2509.99999 <!-- TODO(verify): arXiv id not confirmed -->.',
  'The code is [src/a.ts@0000000000000000, L1] [STALE: hash mismatch].  ',
  'Untouched *markdown*   stays   as it is.',
].join('\r\n');

describe('planFixes (SPEC §4.3, §2.4)', () => {
  it('makes only the planned byte-range edits: BOM, CRLF, trailing spaces and the missing final newline survive', async () => {
    const plan = planFixes(ORIGINAL, await findingsOf(ORIGINAL));
    expect(plan.text).toBe(EXPECTED);
    expect(plan.text.charCodeAt(0)).toBe(0xfeff);
    expect(plan.text.match(/\r\n/g)?.length).toBe(ORIGINAL.match(/\r\n/g)?.length);
    expect(plan.text.endsWith('as it is.')).toBe(true);
    expect(plan.fixes.map((fix) => fix.rule)).toEqual([
      'grade/overclaim',
      'ref/not-in-corpus',
      'ref/not-in-corpus',
      'ref/not-in-corpus',
      'doi/unverified',
      'doi/unverified',
      'arxiv/unverified',
      'rlm/stale',
    ]);
  });

  it('is idempotent: the fixed file plans no further edits', async () => {
    const once = planFixes(ORIGINAL, await findingsOf(ORIGINAL));
    const twice = planFixes(once.text, await findingsOf(once.text));
    expect(twice.edits).toEqual([]);
    expect(twice.text).toBe(once.text);
  });

  it('skips a finding whose text is no longer where the report says', async () => {
    const findings = await findingsOf(ORIGINAL);
    const shifted = ORIGINAL.replace('We cite', 'We now cite');
    const plan = planFixes(shifted, findings);
    expect(plan.fixes.map((fix) => `${fix.line}:${fix.rule}`)).toEqual([
      '3:grade/overclaim',
      '4:doi/unverified',
      '4:doi/unverified',
      '4:arxiv/unverified',
      '5:rlm/stale',
    ]);
    expect(plan.text).toContain('We now cite [REF-999] and (REF-998) and REF-997 too.');
  });

  it('puts a TODO(verify) marker after an autolink or a bare URL, never inside it', async () => {
    const text = 'See <https://doi.org/10.9999/auto.1> and https://doi.org/10.9999/bare.2.\n';
    const plan = planFixes(text, await findingsOf(text));
    expect(plan.text).toBe(
      'See <https://doi.org/10.9999/auto.1> <!-- TODO(verify): DOI not confirmed --> and https://doi.org/10.9999/bare.2 <!-- TODO(verify): DOI not confirmed -->.\n',
    );
    expect(planFixes(plan.text, await findingsOf(plan.text)).edits).toEqual([]);
  });

  it('leaves a file with nothing to fix unchanged', async () => {
    const text = 'Nothing (REF-020) to see.\n';
    const plan = planFixes(text, await findingsOf(text));
    expect(plan.edits).toEqual([]);
    expect(plan.text).toBe(text);
  });
});
