import { runCli, tempDir, writeTree } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';

// Issue 14 item 1: heuristic rules run by default only in research writing; the `research` key of
// the configuration names the folders that hold it.

const CLAIM = 'Adoption grew by 35% in the last year.\n';

function rulesOf(stdout: string): string[] {
  const report = JSON.parse(stdout) as { citations: { file: string; rule: string; severity: string }[] };
  return report.citations.filter((finding) => finding.severity !== 'ok').map((finding) => `${finding.file}:${finding.rule}`);
}

describe('the research key of the configuration', () => {
  it('turns the heuristic rules on in the folders it names, and only there', () => {
    const dir = tempDir();
    writeTree(dir, { 'papers/draft.md': CLAIM, 'guide/intro.md': `# Intro\n\n${CLAIM}` });
    expect(rulesOf(runCli(['check', '--format', 'json'], { cwd: dir }).stdout)).toEqual([]);

    writeTree(dir, { 'aiwg-cite.config.json': JSON.stringify({ research: ['papers'] }) });
    expect(rulesOf(runCli(['check', '--format', 'json'], { cwd: dir }).stdout)).toEqual(['papers/draft.md:statistic/unsourced']);
  });

  it('must be a list of strings', () => {
    const dir = tempDir();
    writeTree(dir, { 'doc.md': CLAIM, 'aiwg-cite.config.json': JSON.stringify({ research: 'papers' }) });
    const run = runCli(['check'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('aiwg-cite.config.json');
    expect(run.stderr).toContain('research');
  });
});
