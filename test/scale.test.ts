import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_ENTRY, GIT_ENV, type GitRepo, gitRepo, sha16, sharedCorpus, tempDir } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';

/**
 * Issue 18: a run split with `--shard i/n` and joined with `merge` gives the full run's findings,
 * bytes and exit code, in JSON and in SARIF.
 */

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function cli(args: readonly string[], cwd: string, env: Record<string, string> = {}): Run {
  const result = spawnSync(process.execPath, [CLI_ENTRY, ...args], {
    cwd,
    env: { ...process.env, ...GIT_ENV, NO_COLOR: '1', AIWG_CITE_DATE: '2026-11-22', ...env },
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
  });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/**
 * A small repository in the shape of the bench corpus: sources cited fresh, stale (changed after
 * the commit), with a made-up hash, un-versioned and missing, plus scholarly citations, a
 * suppression and a citation in code.
 */
function generatedRepo(documents = 60): GitRepo {
  const repo = gitRepo();
  const sources = Array.from({ length: 12 }, (_, at) => ({
    path: `src/m${at % 3}/file${at}.ts`,
    text: Array.from({ length: 20 }, (_, line) => `export const v${line} = ${at * line};`).join('\n'),
  }));
  for (const source of sources) repo.write({ [source.path]: `${source.text}\n` });
  repo.commit('sources');
  const hashes = new Map(sources.map((source) => [source.path, sha16(`${source.text}\n`)]));
  const tree: Record<string, string> = {};
  for (let at = 0; at < documents; at += 1) {
    const a = sources[at % sources.length] as (typeof sources)[number];
    const b = sources[(at * 7 + 3) % sources.length] as (typeof sources)[number];
    const lines = [
      `# Report ${at}`,
      '',
      `Fresh: [${a.path}@${hashes.get(a.path)}, L2-4] and [${b.path}@${hashes.get(b.path)}, L5].`,
      at % 5 === 0 ? `Made up: [${a.path}@0123456789abcdef, L1].` : 'Nothing made up here.',
      at % 7 === 0 ? `Un-versioned: [${b.path}, L3].` : '',
      at % 11 === 0 ? `Gone: [src/removed/gone${at}.ts, L1].` : '',
      at % 13 === 0 ? 'As shown by Smith et al. (2019), 87% of runs pass (doi:10.1234/example.5678).' : '',
      at % 9 === 0 ? `<!-- aiwg-cite-disable-next-line -->\nSuppressed: [${a.path}@ffffffffffffffff, L1].` : '',
      '```ts',
      `// [${b.path}, L1]`,
      '```',
      '',
    ];
    tree[`docs/area${at % 4}/report-${at}.md`] = lines.join('\n');
  }
  repo.write(tree);
  repo.commit('documents');
  // Two sources change after the documents pinned them: their citations go stale.
  repo.write({ [(sources[1] as { path: string }).path]: 'changed\n', [(sources[4] as { path: string }).path]: 'changed too\n' });
  return repo;
}

/** Runs the full check and `count` shards, merges them, and expects the same bytes and code. */
function expectShardsMerge(
  root: string,
  count: number,
  format: 'json' | 'sarif',
  extra: readonly string[] = [],
  env: Record<string, string> = {},
) {
  const work = tempDir('aiwg-cite-shards-');
  const full = cli(['check', '--format', format, ...extra], root, env);
  expect(full.stderr).toBe('');
  expect([0, 1]).toContain(full.code);
  const files: string[] = [];
  let documents = 0;
  for (let index = 1; index <= count; index += 1) {
    const shard = cli(['check', '--format', format, '--shard', `${index}/${count}`, ...extra], root, env);
    expect([0, 1]).toContain(shard.code);
    if (format === 'json') documents += (JSON.parse(shard.stdout) as { summary: { files: number } }).summary.files;
    const file = join(work, `shard-${index}.${format}`);
    writeFileSync(file, shard.stdout);
    files.push(file);
  }
  const merged = cli(['merge', ...files], root, env);
  expect(merged.stderr).toBe('');
  expect(merged.code).toBe(full.code);
  expect(merged.stdout).toBe(full.stdout);
  if (format === 'json') expect(documents).toBe((JSON.parse(full.stdout) as { summary: { files: number } }).summary.files);
  return full;
}

describe('check --shard i/n and merge', () => {
  it('n shards merged give the full run, byte for byte, in JSON and SARIF, for n = 1, 3 and 4', () => {
    const repo = generatedRepo();
    const full = expectShardsMerge(repo.dir, 3, 'json');
    const report = JSON.parse(full.stdout) as { verdict: string; summary: { files: number; errors: number; warnings: number } };
    // The corpus is not trivially clean: there is something for the merge to get right.
    expect(report.verdict).toBe('FAIL');
    expect(report.summary.errors).toBeGreaterThan(5);
    expect(report.summary.warnings).toBeGreaterThan(5);
    expectShardsMerge(repo.dir, 4, 'json', ['--strict']);
    expectShardsMerge(repo.dir, 1, 'json');
    expectShardsMerge(repo.dir, 3, 'sarif');
  });

  it('merge keeps the verdict of --max-warnings over the shards together, not per shard', () => {
    const repo = gitRepo({ 'src/a.ts': 'a\n' });
    repo.write(Object.fromEntries(Array.from({ length: 8 }, (_, at) => [`docs/d${at}.md`, `See [src/a.ts, L1].\n`])));
    const full = cli(['check', '--format', 'json', '--max-warnings', '5'], repo.dir);
    expect(full.code).toBe(1);
    const work = tempDir();
    const files = [1, 2, 3, 4].map((index) => {
      const run = cli(['check', '--format', 'json', '--max-warnings', '5', '--shard', `${index}/4`], repo.dir);
      // No shard alone holds more than five of the eight warnings.
      expect(run.code).toBe(0);
      const file = join(work, `s${index}.json`);
      writeFileSync(file, run.stdout);
      return file;
    });
    const merged = cli(['merge', '--max-warnings', '5', ...files], repo.dir);
    expect(merged.code).toBe(1);
    expect(JSON.parse(merged.stdout)).toEqual(JSON.parse(full.stdout));
  });

  it('refuses overlapping shards, foreign files and bad --shard values with one line each', () => {
    const repo = generatedRepo(20);
    const work = tempDir();
    const one = join(work, 'one.json');
    writeFileSync(one, cli(['check', '--format', 'json', '--shard', '1/2'], repo.dir).stdout);
    const twice = cli(['merge', one, one], repo.dir);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/has findings in both .*one\.json and .*one\.json/);
    expect(twice.stderr.trim().split('\n')).toHaveLength(1);
    const foreign = join(work, 'foreign.json');
    writeFileSync(foreign, '{"version": 2}');
    const refused = cli(['merge', foreign], repo.dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('foreign.json: not an aiwg-cite JSON report');
    const bad = cli(['check', '--shard', '3/2'], repo.dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--shard takes i/n');
    const staged = cli(['check', '--staged', '--shard', '1/2'], repo.dir);
    expect(staged.code).toBe(2);
  });
});

/** The real-world snapshots: unpacked to a temporary git repository, never written in place. */
const REALWORLD = sharedCorpus('realworld', 'the shard-and-merge tests over real-world snapshots');
const AIWG = sharedCorpus('aiwg-2026.5.1', 'the shard-and-merge tests over the aiwg corpus');

describe.skipIf(REALWORLD === undefined || AIWG === undefined)('shards over real-world snapshots', () => {
  it.each(['adr', 'deep-review', 'aflack'])('%s: 3 shards merged give the full run', (name) => {
    const dir = tempDir(`aiwg-cite-rw-${name}-`);
    mkdirSync(dir, { recursive: true });
    execFileSync('tar', ['-xJf', join(REALWORLD as string, `${name}.tar.xz`), '-C', dir]);
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env: { ...process.env, ...GIT_ENV }, stdio: 'ignore' });
    git('init', '-q', '-b', 'main');
    git('add', '-A', '-f');
    git('commit', '-q', '--no-verify', '-m', 'snapshot');
    expectShardsMerge(dir, 3, 'json');
    expectShardsMerge(dir, 3, 'sarif');
  });

  it('the aiwg 2026.5.1 corpus (outside git): 4 shards merged give the full run', () => {
    expectShardsMerge(AIWG as string, 4, 'json', ['--root', AIWG as string]);
  });
});
