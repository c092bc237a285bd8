import { describe, expect, it } from 'vitest';
import { createMemoryFileSystem } from './memory-fs.ts';
import { type RunStage, runPipeline } from './pipeline.ts';
import { createConfinedReader } from './reader.ts';
import type { Finding } from './report.ts';

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
