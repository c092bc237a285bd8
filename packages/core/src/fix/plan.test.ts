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
  const scholarly = createScholarlyChecker({ corpus, now: { year: 2026, month: 11 }, profile: 'research' });
  const withoutBom = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return (await checkDocument('doc.md', withoutBom, artifacts, {}, [rlmChecker, scholarly])).findings;
}

const ORIGINAL = [
  '\uFEFF# Notes',
  '',
  'Research shows it works (REF-020). We cite [REF-999] and (REF-998) and REF-997 too.',
  'See doi:10.9999/unknown.7 and [the paper](https://doi.org/10.9999/other.8) and arXiv:2509.99999.',
  'The code is [src/a.ts@0000000000000000, L1] and [src/a.ts, L1].  ',
  'Untouched *markdown*   stays   as it is.',
].join('\r\n');

async function currentHash(): Promise<string> {
  const stale = (await findingsOf(ORIGINAL)).find((finding) => finding.status === 'stale');
  return String(stale?.currentHash);
}

describe('planFixes (issue 14: mechanical, reversible edits only)', () => {
  it('re-pins a stale code citation and pins an un-versioned one; BOM, CRLF, trailing spaces and the missing final newline survive', async () => {
    const hash = await currentHash();
    expect(hash).toMatch(/^[0-9a-f]{16}$/);
    const plan = planFixes(ORIGINAL, await findingsOf(ORIGINAL));
    expect(plan.text).toBe(
      ORIGINAL.replace('[src/a.ts@0000000000000000, L1]', `[src/a.ts@${hash}, L1]`).replace('[src/a.ts, L1]', `[src/a.ts@${hash}, L1]`),
    );
    expect(plan.text.charCodeAt(0)).toBe(0xfeff);
    expect(plan.text.match(/\r\n/g)?.length).toBe(ORIGINAL.match(/\r\n/g)?.length);
    expect(plan.text.endsWith('as it is.')).toBe(true);
    expect(plan.fixes.map((fix) => fix.rule)).toEqual(['rlm/stale', 'rlm/unversioned']);
  });

  it('never deletes, comments out or rewords: missing REF ids, unverified ids and overclaiming wording stay as written', async () => {
    const findings = await findingsOf(ORIGINAL);
    expect(findings.map((finding) => finding.rule)).toEqual(
      expect.arrayContaining(['ref/not-in-corpus', 'doi/unverified', 'grade/overclaim']),
    );
    const plan = planFixes(ORIGINAL, findings);
    for (const kept of ['Research shows it works', '[REF-999]', '(REF-998)', 'REF-997', 'doi:10.9999/unknown.7 and', 'arXiv:2509.99999.']) {
      expect(plan.text).toContain(kept);
    }
    expect(plan.text).not.toContain('<!--');
  });

  it('is idempotent: the fixed file plans no further edits', async () => {
    const once = planFixes(ORIGINAL, await findingsOf(ORIGINAL));
    const twice = planFixes(once.text, await findingsOf(once.text));
    expect(twice.edits).toEqual([]);
    expect(twice.text).toBe(once.text);
  });

  it('skips a finding whose text is no longer where the report says', async () => {
    const findings = await findingsOf(ORIGINAL);
    const shifted = ORIGINAL.replace('The code is', 'The code now is');
    const plan = planFixes(shifted, findings);
    expect(plan.fixes).toEqual([]);
    expect(plan.text).toBe(shifted);
  });

  it('leaves a file with nothing to fix unchanged', async () => {
    const text = 'Nothing (REF-020) to see.\n';
    const plan = planFixes(text, await findingsOf(text));
    expect(plan.edits).toEqual([]);
    expect(plan.text).toBe(text);
  });
});
