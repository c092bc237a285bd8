import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { GIT_ENV, runCli, sharedCorpus, tempDir } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';

// Issue 14 item 4: on every real snapshot, `check --fix` removes no word but the citation token
// it replaces, and a second run changes nothing.

const realworld = sharedCorpus('realworld', 'check --fix on the realworld snapshots');
const names = realworld === undefined ? [] : readdirSync(realworld).filter((name) => name.endsWith('.tar.xz'));

/** A code citation's word as `--fix` rewrites it: one holding `@<16 hex>`, or `[path,` / `[path]` that gains a hash. */
function isCitationToken(word: string): boolean {
  return /@[0-9a-f]{16}/.test(word) || /^[^\w[]*\[[\w./-]*[./][\w./-]*(?:,|\]|$)/.test(word);
}

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, env: { ...process.env, ...GIT_ENV }, encoding: 'utf8', maxBuffer: 1 << 28 });
}

describe.skipIf(realworld === undefined)('check --fix on the realworld snapshots', () => {
  it.each(names)(
    '%s: removes no word but a replaced citation token, and a second run changes nothing',
    (archive) => {
      const dir = join(tempDir(), archive.replace(/\.tar\.xz$/, ''));
      mkdirSync(dir, { recursive: true });
      execFileSync('tar', ['-xJf', join(realworld as string, archive), '-C', dir]);
      git(dir, 'init', '-q');
      git(dir, 'add', '-A', '-f');
      git(dir, 'commit', '-qm', 'snapshot', '--no-verify');

      const first = runCli(['check', '--fix'], { cwd: dir, env: { AIWG_CITE_DATE: '2026-11-25' } });
      expect(first.code === 0 || first.code === 1, first.stderr).toBe(true);
      const removed = git(dir, 'diff', '--word-diff=porcelain', '--unified=0')
        .split('\n')
        .filter((line) => line.startsWith('-') && !line.startsWith('---'))
        .map((line) => line.slice(1));
      const meaning = removed.flatMap((chunk) => chunk.split(/\s+/)).filter((word) => word !== '' && !isCitationToken(word));
      expect(meaning).toEqual([]);
      expect(
        git(dir, 'diff', '--numstat')
          .split('\n')
          .filter(Boolean)
          .every((line) => /^(\d+)\t\1\t/.test(line)),
      ).toBe(true);

      const before = git(dir, 'diff');
      runCli(['check', '--fix'], { cwd: dir, env: { AIWG_CITE_DATE: '2026-11-25' } });
      expect(git(dir, 'diff')).toBe(before);
    },
    300_000,
  );
});
