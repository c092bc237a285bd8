import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_ENTRY, type CliRun, gitRepo, runAsync, tempDir } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';
import { documentsOf, generator, randomProject } from './random-changes.ts';

/**
 * Issue 18, the result cache's promise (and the kept answer's, and the file stamps'): a run that
 * uses them prints exactly what a run without them prints. The other tests check each kind of
 * change alone; this one makes random sequences of them in a real repository, many within the
 * same clock tick as the run before (a same-size rewrite right after a run is the case a stamp of
 * size and time cannot see; random-changes.ts), and after each step compares the cached runs with
 * `--no-cache` in a copy of the repository that holds nothing of aiwg-cite's: the full run in a
 * random format (twice, so that kept answers are both made and printed), a run over one document,
 * `--changed` and the commit hook's `--staged`. `AIWG_CITE_DIFF_SEEDS` (comma-separated) and
 * `AIWG_CITE_DIFF_STEPS` choose other sequences; a failure names its seed and the steps that led to it.
 */

const SEEDS = (process.env.AIWG_CITE_DIFF_SEEDS ?? '7,2026').split(',').map(Number);
const STEPS = Number(process.env.AIWG_CITE_DIFF_STEPS ?? 20);
/** Where a failing sequence's repository and user cache are copied (`AIWG_CITE_DIFF_KEEP`), to run it again by hand. */
const KEEP = process.env.AIWG_CITE_DIFF_KEEP;

function keepFailure(repository: string, userCache: string): void {
  if (KEEP === undefined || existsSync(KEEP)) return;
  execFileSync('cp', ['-a', repository, KEEP]);
  execFileSync('cp', ['-a', userCache, `${KEEP}-user-cache`]);
}

describe('cached runs against uncached runs, over random changes', { timeout: 600_000 }, () => {
  for (const seed of SEEDS) {
    it(`seed ${seed}: after each of ${STEPS} changes, every cached run prints what a run without the cache prints`, async () => {
      const random = generator(seed);
      const { repo, change } = randomProject(random);
      const env = { XDG_CACHE_HOME: tempDir(), AIWG_CITE_DATE: '2026-11-22' };
      const cli = (args: readonly string[]): Promise<CliRun> => runAsync(process.execPath, [CLI_ENTRY, ...args], { cwd: repo.dir, env });

      const steps: string[] = [];
      /**
       * Runs `args` with the cache (twice when `twice`), and with `--no-cache` in a copy of the
       * repository that holds nothing of aiwg-cite's (no stamps, kept answers, citation index or
       * history memo under `.git/aiwg-cite`), and expects the same bytes and exit code.
       */
      const expectSame = async (args: readonly string[], twice: boolean) => {
        const cached = [await cli(args)];
        if (twice) cached.push(await cli(args));
        const copy = join(tempDir(), 'copy');
        execFileSync('cp', ['-a', repo.dir, copy]);
        rmSync(join(copy, '.git', 'aiwg-cite'), { recursive: true, force: true });
        const uncached = await runAsync(process.execPath, [CLI_ENTRY, ...args, '--no-cache'], { cwd: copy, env });
        rmSync(copy, { recursive: true, force: true });
        const context = `seed ${seed}, \`aiwg-cite ${args.join(' ')}\` after:\n${steps.join('\n')}`;
        expect([0, 1], `${context}\n${uncached.stderr}`).toContain(uncached.code);
        for (const run of cached) {
          if (run.stdout !== uncached.stdout && KEEP !== undefined) keepFailure(repo.dir, env.XDG_CACHE_HOME);
          expect(run.stdout, context).toBe(uncached.stdout);
          expect(run.code, context).toBe(uncached.code);
        }
      };

      for (let step = 0; step < STEPS; step += 1) {
        steps.push(`${step + 1}. ${change()}`);
        const format = random.pick(['pretty', 'json', 'sarif', 'github']);
        const strict = random.chance(0.2) ? ['--strict'] : [];
        await expectSame(['check', ...(format === 'pretty' ? [] : ['--format', format]), ...strict], random.chance(0.6));
        if (random.chance(0.3)) {
          const document = random.pick(documentsOf(repo.dir));
          await expectSame(['check', document, '--format', 'json'], false);
        }
        if (random.chance(0.3)) await expectSame(['check', '--changed', '--format', 'json'], false);
        // The commit hook: what is staged, from the index, with the hook's own citation index.
        if (random.chance(0.35))
          await expectSame(['check', '--staged', ...(random.chance(0.5) ? ['--format', 'json'] : [])], random.chance(0.5));
      }
      expect(steps).toHaveLength(STEPS);
      // The cached runs went through the result cache under the git directory, not around it.
      expect(readdirSync(join(repo.dir, '.git', 'aiwg-cite', 'results')).length).toBeGreaterThan(0);
    });
  }
});

describe('what the random sequences found', { timeout: 120_000 }, () => {
  it('a stale pin that git finds in no version stays unknown-hash on every run, whatever settles rlm/stale', async () => {
    const source = 'export const a = 1;\n';
    const repo = gitRepo({ 'src/a.ts': source, 'docs/start.md': '# Start\n' });
    const env = { XDG_CACHE_HOME: tempDir(), AIWG_CITE_DATE: '2026-11-22' };
    const cli = (args: readonly string[]): Promise<CliRun> => runAsync(process.execPath, [CLI_ENTRY, ...args], { cwd: repo.dir, env });
    const documents = {
      // `rlm/stale` turned off: the settle stage drops a stale pin, but only after git judged it.
      off: { config: '{"rules": {"rlm/stale": "off"}}\n', text: '# D\n\nMade up: [src/a.ts@0123456789abcdef, L1].\n' },
      // A suppression naming `rlm/stale` on the pin's line: it hides the pin only while git leaves it stale.
      named: {
        config: '{}\n',
        text: '# D\n\n<!-- aiwg-cite-disable-next-line rlm/stale -->\nMade up: [src/a.ts@0123456789abcdef, L1].\n',
      },
    };
    for (const [name, { config, text }] of Object.entries(documents)) {
      repo.write({ 'aiwg-cite.config.json': config, 'docs/d.md': text });
      const uncached = await cli(['check', '--no-cache']);
      expect(uncached.stdout, name).toContain('rlm/unknown-hash');
      for (const args of [['check'], ['check'], ['check'], ['check', '--format', 'json'], ['check', '--format', 'json']]) {
        const run = await cli(args);
        const expected = args.length === 1 ? uncached : await cli([...args, '--no-cache']);
        expect(run.stdout, `${name}: ${args.join(' ')}`).toBe(expected.stdout);
        expect(run.code, `${name}: ${args.join(' ')}`).toBe(1);
      }
      // The commit hook, asked twice (the second answers from the cache): both block the commit.
      repo.git('add', '-A');
      for (const attempt of [1, 2]) {
        const hook = await cli(['check', '--staged']);
        expect(hook.stdout, `${name}: hook, attempt ${attempt}`).toContain('rlm/unknown-hash');
        expect(hook.code, `${name}: hook, attempt ${attempt}`).toBe(1);
      }
    }
  });
});
