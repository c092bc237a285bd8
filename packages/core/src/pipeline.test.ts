import { describe, expect, it } from 'vitest';
import type { ResultPort } from './check.ts';
import { contentHash } from './hash.ts';
import { createMemoryFileSystem } from './memory-fs.ts';
import { type RunStage, runPipeline } from './pipeline.ts';
import { createConfinedReader } from './reader.ts';
import type { Finding } from './report.ts';
import { ResultCache } from './result-cache.ts';

const reader = createConfinedReader(
  createMemoryFileSystem({ '/repo/a.md': 'See [src/gone.ts, L1-2] and [src/also-gone.ts].\n', '/repo/b.md': 'Nothing cited.\n' }),
  '/repo',
);

describe('runPipeline: run-level stages feed the one report (issue 12)', () => {
  it('takes revised findings, settles added ones and keeps notes in stage order, all in the single build', async () => {
    const seen: number[] = [];
    const corpus: RunStage = {
      run(findings) {
        seen.push(findings.length);
        const revised = findings.map((finding) =>
          finding.text.includes('also-gone') ? { ...finding, severity: 'info' as const } : finding,
        );
        const first = findings[0] as Finding;
        const added: Finding = {
          ...first,
          kind: 'corpus',
          status: 'absent',
          rule: 'corpus/absent',
          severity: 'warning',
          message: 'run-level',
        };
        return { revised, findings: [added], notes: ['corpus: a note'] };
      },
    };
    const online: RunStage = {
      run(findings) {
        seen.push(findings.length);
        return { notes: ['online: 0 requests'] };
      },
    };
    const result = await runPipeline({
      ports: { discover: () => ['a.md', 'b.md'], reader, corpus, online },
      options: { severityOverrides: { 'corpus/absent': 'error' } },
    });
    // The online stage saw the corpus stage's finding: stages run in order over one list.
    expect(seen).toEqual([2, 3]);
    const { report } = result;
    expect(report.citations.map((finding) => `${finding.rule}:${finding.severity}:${finding.text}`)).toEqual([
      'corpus/absent:error:[src/gone.ts, L1-2]',
      'rlm/missing:error:[src/gone.ts, L1-2]',
      'rlm/missing:info:[src/also-gone.ts]',
    ]);
    expect(report.summary).toMatchObject({ files: 2, citations: 3, errors: 2, warnings: 0, infos: 1 });
    expect(report.verdict).toBe('FAIL');
    expect(report.coverage.notes).toEqual(['corpus: a note', 'online: 0 requests']);
  });
});

describe('runPipeline with countOk: citations that check out are counted, not kept (issue 18)', () => {
  const encoder = new TextEncoder();
  const source = 'one\ntwo\nthree\n';

  async function files(): Promise<Record<string, string>> {
    const hash = await contentHash(encoder.encode(source));
    return {
      '/repo/src/a.ts': source,
      '/repo/fresh.md': `Fresh [src/a.ts@${hash}, L1-2] and again [src/a.ts@${hash}, L2-3].\n`,
      '/repo/mixed.md': `Fresh [src/a.ts@${hash}, L1], unversioned [src/a.ts, L1] and gone [src/gone.ts].\n`,
      // A suppression comment may hide a citation that checks out: this document keeps its own.
      '/repo/quiet.md': `<!-- aiwg-cite-disable-next-line rlm/missing -->\nGone [src/gone.ts], fresh [src/a.ts@${hash}, L3].\n`,
    };
  }

  function memoryResults(): ResultPort {
    const values = new Map<string, string>();
    return {
      cache: new ResultCache({ read: (key) => values.get(key) ?? null, write: (key, _file, value) => void values.set(key, value) }, 'test'),
    };
  }

  async function run(countOk: boolean, results?: ResultPort) {
    const reader = createConfinedReader(createMemoryFileSystem(await files()), '/repo');
    return runPipeline({
      ports: { discover: () => ['fresh.md', 'mixed.md', 'quiet.md'], reader, ...(results === undefined ? {} : { results }) },
      countOk,
    });
  }

  it('gives the summary of a run that keeps them, and the same other citations', async () => {
    const kept = await run(false);
    const okFindings = kept.report.citations.filter((finding) => finding.severity === 'ok');
    expect(okFindings.map((finding) => finding.file)).toEqual(['fresh.md', 'fresh.md', 'mixed.md', 'quiet.md']);
    const results = memoryResults();
    // Checked, then every document answered from the cache: the same report both times.
    for (const pass of ['checked', 'cached']) {
      const counted = await run(true, results);
      expect(counted.report.summary, pass).toEqual(kept.report.summary);
      expect(counted.report.verdict).toBe(kept.report.verdict);
      expect(counted.report.coverage).toEqual(kept.report.coverage);
      const fromCache = pass === 'cached';
      // From the cache a suppressed document's stored findings are settled already: its fresh one is counted too.
      expect(counted.report.citations).toEqual(
        kept.report.citations.filter((finding) => finding.severity !== 'ok' || (!fromCache && finding.file === 'quiet.md')),
      );
      expect([...counted.ok]).toEqual([['rlm\u0000fresh\u0000rlm/fresh', fromCache ? 4 : 3]]);
    }
    expect(results.cache.stats).toEqual({ hits: 3, misses: 3 });
    expect((await run(false)).ok.size).toBe(0);
  });
});
