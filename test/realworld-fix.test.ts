import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { promisify } from 'node:util';
import { GIT_ENV, sharedCorpus, snapshotRepo } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';
import { runCliAsync } from './online-helpers.ts';

// Every process runs asynchronously: a `--fix` over a large snapshot takes tens of seconds, and a
// synchronous spawn that long blocks the test worker's event loop (vitest then times out its RPC).
const run = promisify(execFile);

// Issue 14 item 4: on every real snapshot, `check --fix` removes no word but the citation token
// it replaces, and a second run changes nothing.

const realworld = sharedCorpus('realworld', 'check --fix on the realworld snapshots');
const names = realworld === undefined ? [] : readdirSync(realworld).filter((name) => name.endsWith('.tar.xz'));

/** A code citation's word as `--fix` rewrites it: one holding `@<16 hex>`, or `[path,` / `[path]` that gains a hash. */
function isCitationToken(word: string): boolean {
  return /@[0-9a-f]{16}/.test(word) || /^[^\w[]*\[[\w./-]*[./][\w./-]*(?:,|\]|$)/.test(word);
}

async function git(dir: string, ...args: string[]): Promise<string> {
  const { stdout } = await run('git', args, { cwd: dir, env: { ...process.env, ...GIT_ENV }, encoding: 'utf8', maxBuffer: 1 << 28 });
  return stdout;
}

describe.skipIf(realworld === undefined)('check --fix on the realworld snapshots', () => {
  it.each(names)(
    '%s: removes no word but a replaced citation token, and a second run changes nothing',
    async (archive) => {
      const dir = await snapshotRepo(realworld as string, archive.replace(/\.tar\.xz$/, ''));

      const first = await runCliAsync(['check', '--fix'], { cwd: dir, env: { AIWG_CITE_DATE: '2026-11-25' } });
      expect(first.code === 0 || first.code === 1, first.stderr).toBe(true);
      const removed = (await git(dir, 'diff', '--word-diff=porcelain', '--unified=0'))
        .split('\n')
        .filter((line) => line.startsWith('-') && !line.startsWith('---'))
        .map((line) => line.slice(1));
      const meaning = removed.flatMap((chunk) => chunk.split(/\s+/)).filter((word) => word !== '' && !isCitationToken(word));
      expect(meaning).toEqual([]);
      expect(
        (await git(dir, 'diff', '--numstat'))
          .split('\n')
          .filter(Boolean)
          .every((line) => /^(\d+)\t\1\t/.test(line)),
      ).toBe(true);

      const before = await git(dir, 'diff');
      await runCliAsync(['check', '--fix'], { cwd: dir, env: { AIWG_CITE_DATE: '2026-11-25' } });
      expect(await git(dir, 'diff')).toBe(before);
    },
    300_000,
  );
});
