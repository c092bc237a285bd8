import { isAscii } from 'node:buffer';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CLI_ENTRY, GIT_ENV, gitRepo, sha16, tempDir } from '@aiwg-cite/test-utils';
import { beforeAll, describe, expect, it } from 'vitest';

// On Node without module.enableCompileCache (before 22.1), `check` runs dist/hook.cjs
// through vm.Script with a V8 code cache kept beside it (cli/src/bin.ts, build.mjs). Each test
// runs a copy of dist/, so its cache file is its own.

const hasCompileCache =
  typeof ((await import('node:module')).default as { enableCompileCache?: unknown }).enableCompileCache === 'function';
const CODE = 'export const one = 1;\nexport const two = 2;\n';

beforeAll(() => {
  if (!existsSync(CLI_ENTRY)) throw new Error(`build the CLI first: cd packages/cli && node build.mjs (${CLI_ENTRY} is missing)`);
});

function copyOfDist(): string {
  const dist = join(tempDir('aiwg-cite-dist-'), 'dist');
  cpSync(dirname(CLI_ENTRY), dist, { recursive: true, filter: (path) => !path.endsWith('.cache') });
  return dist;
}

function cacheFiles(dist: string): string[] {
  return readdirSync(dist).filter((name) => name.endsWith('.cache'));
}

function run(dist: string, cwd: string) {
  const result = spawnSync(process.execPath, [join(dist, 'cli.js'), 'check', '--staged', '--no-cache'], {
    cwd,
    env: { ...process.env, ...GIT_ENV, NO_COLOR: '1' },
    encoding: 'utf8',
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function stagedRepository(): string {
  // A bibliography: the bibtex parser is a chunk the bundle imports when it reads one.
  const repo = gitRepo({
    'src/a.ts': CODE,
    'refs.bib': '@article{a, author = {Vaswani, Ashish}, year = 2017, doi = {10.5555/attention}}\n',
  });
  repo.commit('initial');
  repo.write({ 'docs/a.md': `Cites [src/a.ts@${sha16(CODE)}, L1-2] and [src/missing.ts, L1], after doi:10.5555/attention.\n` });
  repo.git('add', 'docs/a.md');
  return repo.dir;
}

describe('dist/hook.cjs', () => {
  it('is written in ASCII (bin.ts reads it without decoding UTF-8)', () => {
    expect(isAscii(readFileSync(join(dirname(CLI_ENTRY), 'hook.cjs')))).toBe(true);
  });

  it.skipIf(hasCompileCache)(
    'keeps a code cache beside it: written by the first run, used by the next, replaced when it is of another build',
    () => {
      const dist = copyOfDist();
      const dir = stagedRepository();
      const first = run(dist, dir);
      expect(first.code).toBe(1);
      expect(first.stdout).toContain('src/missing.ts');
      expect(first.stderr).toBe('');
      const [cache] = cacheFiles(dist);
      expect(cache).toBe(`hook.cjs.${process.version}-${process.arch}.cache`);
      const path = join(dist, cache as string);
      const written = statSync(path).mtimeMs;
      expect(readFileSync(path, 'latin1').split('\n')[0]).toMatch(/^[0-9a-f]{32}:\d+:[\d.]+$/);

      expect(run(dist, dir)).toEqual(first);
      expect(statSync(path).mtimeMs).toBe(written);

      // A cache whose header names another build is not used, and is replaced.
      writeFileSync(path, 'another build\nnot a code cache');
      expect(run(dist, dir)).toEqual(first);
      expect(readFileSync(path, 'latin1').split('\n')[0]).toMatch(/^[0-9a-f]{32}:\d+:[\d.]+$/);
      expect(cacheFiles(dist)).toEqual([cache]);
    },
  );

  it('leaves other commands to the ES modules (no cache written)', () => {
    const dist = copyOfDist();
    const dir = stagedRepository();
    const version = spawnSync(process.execPath, [join(dist, 'cli.js'), '--version'], { cwd: dir, encoding: 'utf8' });
    expect(version.status).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+/);
    const rules = spawnSync(process.execPath, [join(dist, 'cli.js'), 'rules'], { cwd: dir, encoding: 'utf8' });
    expect(rules.status).toBe(0);
    expect(cacheFiles(dist)).toEqual([]);
  });

  it.skipIf(hasCompileCache)('runs check without --staged from it too, with the same report as the ES modules', () => {
    const dist = copyOfDist();
    const dir = stagedRepository();
    const plain = (cli: string) =>
      spawnSync(process.execPath, [cli, 'check', '--no-cache', '--format', 'json'], {
        cwd: dir,
        env: { ...process.env, ...GIT_ENV, NO_COLOR: '1' },
        encoding: 'utf8',
      });
    // Without hook.cjs, cli.js runs the ES modules.
    const modules = copyOfDist();
    rmSync(join(modules, 'hook.cjs'));
    const fromModules = plain(join(modules, 'cli.js'));
    expect(cacheFiles(modules)).toEqual([]);
    const first = plain(join(dist, 'cli.js'));
    expect(first.status).toBe(1);
    expect(cacheFiles(dist)).toEqual([`hook.cjs.${process.version}-${process.arch}.cache`]);
    const second = plain(join(dist, 'cli.js'));
    expect(JSON.parse(first.stdout).citations.map((finding: { rule: string }) => finding.rule)).toContain('rlm/missing');
    for (const run of [first, second])
      expect({ status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({
        status: fromModules.status,
        stdout: fromModules.stdout,
        stderr: fromModules.stderr,
      });
  });
});
