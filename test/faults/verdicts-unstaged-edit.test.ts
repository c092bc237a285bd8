/**
 * Issue 15, item 2: a citation pinned to a working-tree edit that is not staged. `check --staged`
 * compares with the index, so the pin matches neither the staged file nor any commit; it matches
 * the file on disk. That is its own status, `unstaged` (rule `rlm/unstaged`), with its own message,
 * and it blocks the commit: the commit would publish a pin of content it does not contain.
 */
import { gitRepo, runCli, sha16 } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';

const V1 = 'export const answer = 1;\n';
const V2 = 'export const answer = 2;\n';

interface JsonFinding {
  readonly status: string;
  readonly rule: string;
  readonly severity: string;
  readonly message: string;
  readonly fix: string | null;
}

function citations(stdout: string): JsonFinding[] {
  return (JSON.parse(stdout) as { citations: JsonFinding[] }).citations;
}

describe('fault 15.2: a pin of an unstaged working-tree edit in check --staged', () => {
  it('is `unstaged`, says the version is on disk but not staged, and blocks the commit', () => {
    const repo = gitRepo({ 'src/answer.ts': V1, 'README.md': '# project\n' });
    repo.write({ 'src/answer.ts': V2, 'docs/answer.md': `The answer is two [src/answer.ts@${sha16(V2)}, L1].\n` });
    repo.git('add', 'docs/answer.md');

    const run = runCli(['check', '--staged', '--format', 'json'], { cwd: repo.dir });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    const [finding] = citations(run.stdout);
    expect(finding).toMatchObject({ status: 'unstaged', rule: 'rlm/unstaged', severity: 'error' });
    expect(finding?.message).toContain('working-tree version of `src/answer.ts`, which is not staged');
    expect(finding?.fix).toContain('git add src/answer.ts');
    expect(finding?.fix).toContain(`@${sha16(V1)}`);
  });

  it('passes once the edit is staged, and a hash of no version at all is still unknown-hash', () => {
    const repo = gitRepo({ 'src/answer.ts': V1, 'README.md': '# project\n' });
    repo.write({
      'src/answer.ts': V2,
      'docs/answer.md': `Two [src/answer.ts@${sha16(V2)}, L1]; made up [src/answer.ts@00000000deadbeef, L1].\n`,
    });
    repo.git('add', 'docs/answer.md');
    const before = citations(runCli(['check', '--staged', '--format', 'json'], { cwd: repo.dir }).stdout);
    expect(before.map((finding) => finding.status)).toEqual(['unstaged', 'unknown-hash']);
    // The message names only what was searched: with the working tree consulted, all three.
    expect(before[1]?.message).toContain("in the repository's history, index or working tree");

    repo.git('add', 'src/answer.ts');
    const after = citations(runCli(['check', '--staged', '--format', 'json'], { cwd: repo.dir }).stdout);
    expect(after.map((finding) => finding.status)).toEqual(['fresh', 'unknown-hash']);
  });
});
