import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_ENTRY, type CliRun, GIT_ENV, runAsync, tempDir } from '@aiwg-cite/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { generator, randomProject } from './random-changes.ts';

/**
 * Issue 18, the running watch's promise: `check --rlm` answered by a running `aiwg-cite watch` is
 * the report a check by itself prints, byte for byte. The watch keeps every document's findings,
 * an index from each cited file to the documents citing it, git's facts on stale pins and the
 * report's tally between answers, and replaces only what each batch of file events (or a move of
 * git's refs) changes. This test makes random sequences of changes (random-changes.ts; the
 * configuration is left alone, since the watch declines every check once it changed) in a real
 * repository under a real watch, and after each asks the watch at once and compares its answer
 * with `--no-watch --no-cache` in a copy of the repository. `AIWG_CITE_DIFF_SEEDS` and
 * `AIWG_CITE_DIFF_STEPS` choose other sequences.
 */

const SEEDS = (process.env.AIWG_CITE_DIFF_SEEDS ?? '11').split(',').map(Number);
const STEPS = Number(process.env.AIWG_CITE_DIFF_STEPS ?? 20);
const ANSWERED = 'aiwg-cite: answered by the running watch\n';

describe('a running watch against a check by itself, over random changes', { timeout: 600_000 }, () => {
  for (const seed of SEEDS) {
    it(`seed ${seed}: after each of ${STEPS} changes, the watch answers check --rlm as a check by itself does`, async () => {
      const random = generator(seed);
      const { repo, change } = randomProject(random, { keepConfiguration: true });
      const env = { XDG_CACHE_HOME: tempDir(), AIWG_CITE_DATE: '2026-11-22' };
      const cli = (cwd: string, args: readonly string[], extra: Record<string, string> = {}): Promise<CliRun> =>
        runAsync(process.execPath, [CLI_ENTRY, ...args], { cwd, env: { ...env, ...extra } });
      const watch: ChildProcess = spawn(process.execPath, [CLI_ENTRY, 'watch', '--no-tui'], {
        cwd: repo.dir,
        env: { ...process.env, ...GIT_ENV, ...env, NO_COLOR: '1', FORCE_COLOR: undefined },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      const watchErrors: string[] = [];
      watch.stderr?.on('data', (chunk: Buffer) => watchErrors.push(chunk.toString('utf8')));
      onTestFinished(() => {
        if (watch.exitCode === null && watch.signalCode === null) watch.kill('SIGKILL');
      });
      // Ready once it answers.
      const deadline = Date.now() + 30_000;
      while ((await cli(repo.dir, ['check', '--rlm'], { AIWG_CITE_WATCH: 'trace' })).stderr !== ANSWERED) {
        if (Date.now() > deadline || watch.exitCode !== null) throw new Error(`the watch never answered: ${watchErrors.join('')}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }

      const steps: string[] = [];
      let answered = 0;
      for (let step = 0; step < STEPS; step += 1) {
        steps.push(`${step + 1}. ${change()}`);
        const format = random.pick(['pretty', 'json', 'sarif']);
        const args = ['check', '--rlm', ...(format === 'pretty' ? [] : ['--format', format])];
        // Asked at once: the watch takes the events of the change before it answers.
        const served = await cli(repo.dir, args, { AIWG_CITE_WATCH: 'trace' });
        const copy = join(tempDir(), 'copy');
        cpSync(repo.dir, copy, { recursive: true, verbatimSymlinks: true, filter: (path) => !path.includes('/.git/aiwg-cite') });
        const own = await cli(copy, [...args, '--no-watch', '--no-cache']);
        const context = `seed ${seed}, \`aiwg-cite ${args.join(' ')}\` (${served.stderr.trim()}) after:\n${steps.join('\n')}\nwatch: ${watchErrors.join('')}`;
        expect(served.stdout, context).toBe(own.stdout);
        expect(served.code, context).toBe(own.code);
        if (served.stderr === ANSWERED) answered += 1;
        else {
          // It declines (and the check runs by itself) only while a history note stands, one a
          // check by itself prints too: a count over the whole run that its batches cannot add up.
          expect(served.stderr, context).toMatch(/\(a history note\); checking\n$/);
          const report = JSON.parse((await cli(copy, ['check', '--rlm', '--format', 'json', '--no-watch', '--no-cache'])).stdout);
          expect((report as { coverage: { notes: string[] } }).coverage.notes.join('\n'), context).toMatch(/untracked|shallow|commit/);
        }
        rmSync(copy, { recursive: true, force: true });
      }
      expect(answered, steps.join('\n')).toBeGreaterThan(0);
      expect(existsSync(join(repo.dir, '.git', 'aiwg-cite', 'watch.sock'))).toBe(true);
    });
  }
});
