import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CLI_ENTRY,
  type CliRun,
  GIT_ENV,
  type GitRepo,
  gitRepo,
  PROJECT_ROOT,
  runAsync,
  sha16,
  sharedCorpus,
  snapshotRepo,
  tempDir,
} from '@aiwg-cite/test-utils';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Issue 18: a run split with `--shard i/n` and joined with `merge` gives the full run's findings,
 * bytes and exit code, in JSON and in SARIF.
 */

/** The user cache of these tests (the result cache's signing key lives there), never the real one. */
const USER_CACHE = mkdtempSync(join(tmpdir(), 'aiwg-cite-user-cache-'));
afterAll(() => rmSync(USER_CACHE, { recursive: true, force: true }));

/** One process, run asynchronously, with these tests' user cache and date. */
function run(command: string, args: readonly string[], cwd: string, env: Record<string, string> = {}): Promise<CliRun> {
  return runAsync(command, args, { cwd, env: { AIWG_CITE_DATE: '2026-11-22', XDG_CACHE_HOME: USER_CACHE, ...env } });
}

/** One CLI process, as {@link run}. */
function cli(args: readonly string[], cwd: string, env: Record<string, string> = {}): Promise<CliRun> {
  return run(process.execPath, [CLI_ENTRY, ...args], cwd, env);
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
async function expectShardsMerge(
  root: string,
  count: number,
  format: 'json' | 'sarif',
  extra: readonly string[] = [],
  env: Record<string, string> = {},
) {
  const work = tempDir('aiwg-cite-shards-');
  const full = await cli(['check', '--format', format, ...extra], root, env);
  expect(full.stderr).toBe('');
  expect([0, 1]).toContain(full.code);
  const files: string[] = [];
  let documents = 0;
  for (let index = 1; index <= count; index += 1) {
    const shard = await cli(['check', '--format', format, '--shard', `${index}/${count}`, ...extra], root, env);
    expect([0, 1]).toContain(shard.code);
    if (format === 'json') documents += (JSON.parse(shard.stdout) as { summary: { files: number } }).summary.files;
    const file = join(work, `shard-${index}.${format}`);
    writeFileSync(file, shard.stdout);
    files.push(file);
  }
  const merged = await cli(['merge', ...files], root, env);
  expect(merged.stderr).toBe('');
  expect(merged.code).toBe(full.code);
  expect(merged.stdout).toBe(full.stdout);
  if (format === 'json') expect(documents).toBe((JSON.parse(full.stdout) as { summary: { files: number } }).summary.files);
  return full;
}

describe('check --shard i/n and merge', { timeout: 300_000 }, () => {
  it('n shards merged give the full run, byte for byte, in JSON and SARIF, for n = 1, 3 and 4', async () => {
    const repo = generatedRepo();
    const full = await expectShardsMerge(repo.dir, 3, 'json');
    const report = JSON.parse(full.stdout) as { verdict: string; summary: { files: number; errors: number; warnings: number } };
    // The corpus is not trivially clean: there is something for the merge to get right.
    expect(report.verdict).toBe('FAIL');
    expect(report.summary.errors).toBeGreaterThan(5);
    expect(report.summary.warnings).toBeGreaterThan(5);
    await expectShardsMerge(repo.dir, 4, 'json', ['--strict']);
    await expectShardsMerge(repo.dir, 1, 'json');
    await expectShardsMerge(repo.dir, 3, 'sarif');
  });

  it('merge keeps the verdict of --max-warnings over the shards together, not per shard', async () => {
    const repo = gitRepo({ 'src/a.ts': 'a\n' });
    repo.write(Object.fromEntries(Array.from({ length: 8 }, (_, at) => [`docs/d${at}.md`, `See [src/a.ts, L1] from document ${at}.\n`])));
    const full = await cli(['check', '--format', 'json', '--max-warnings', '5'], repo.dir);
    expect(full.code).toBe(1);
    const work = tempDir();
    const files: string[] = [];
    for (const index of [1, 2, 3, 4]) {
      const run = await cli(['check', '--format', 'json', '--max-warnings', '5', '--shard', `${index}/4`], repo.dir);
      // No shard alone holds more than five of the eight warnings.
      expect(run.code).toBe(0);
      const file = join(work, `s${index}.json`);
      writeFileSync(file, run.stdout);
      files.push(file);
    }
    const merged = await cli(['merge', '--max-warnings', '5', ...files], repo.dir);
    expect(merged.code).toBe(1);
    expect(JSON.parse(merged.stdout)).toEqual(JSON.parse(full.stdout));
  });

  it('refuses overlapping shards, foreign files and bad --shard values with one line each', async () => {
    const repo = generatedRepo(20);
    const work = tempDir();
    const one = join(work, 'one.json');
    writeFileSync(one, (await cli(['check', '--format', 'json', '--shard', '1/2'], repo.dir)).stdout);
    const twice = await cli(['merge', one, one], repo.dir);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/has findings in both .*one\.json and .*one\.json/);
    expect(twice.stderr.trim().split('\n')).toHaveLength(1);
    const foreign = join(work, 'foreign.json');
    writeFileSync(foreign, '{"version": 2}');
    const refused = await cli(['merge', foreign], repo.dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('foreign.json: not an aiwg-cite JSON report');
    const bad = await cli(['check', '--shard', '3/2'], repo.dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--shard takes i/n');
    const staged = await cli(['check', '--staged', '--shard', '1/2'], repo.dir);
    expect(staged.code).toBe(2);
  });
});

describe('the README’s CI cache', { timeout: 300_000 }, () => {
  it('its two directories, restored into a fresh clone, answer every document from the cache with the uncached report', async () => {
    const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Large repositories and CI'));
    const step = section.slice(
      section.indexOf('- uses: actions/cache@'),
      section.indexOf('key:', section.indexOf('- uses: actions/cache@')),
    );
    const paths = [...step.matchAll(/^\s+([.~][^\s]*)$/gm)].map((match) => match[1] as string);
    expect(paths).toEqual(['.git/aiwg-cite', '~/.cache/aiwg-cite']);
    const repo = generatedRepo(20);
    repo.commit('the sources as they are now');
    const home = tempDir('aiwg-cite-ci-home-');
    const first = await cli(['check', '--format', 'json'], repo.dir, { XDG_CACHE_HOME: join(home, '.cache') });
    expect([0, 1]).toContain(first.code);
    // The next job: a fresh clone (new inodes, no stamps that hold), the two directories restored.
    const clone = join(tempDir('aiwg-cite-ci-clone-'), 'repo');
    execFileSync('git', ['clone', '-q', repo.dir, clone], { env: { ...process.env, ...GIT_ENV } });
    const restoredHome = tempDir('aiwg-cite-ci-home-');
    for (const path of paths) {
      const from = path.startsWith('~/') ? join(home, path.slice(2)) : join(repo.dir, path);
      const to = path.startsWith('~/') ? join(restoredHome, path.slice(2)) : join(clone, path);
      cpSync(from, to, { recursive: true });
    }
    const env = { XDG_CACHE_HOME: join(restoredHome, '.cache'), AIWG_CITE_RESULT_CACHE_STATS: '1' };
    const restored = await cli(['check', '--format', 'json'], clone, env);
    expect(restored.stderr).toContain('result cache: 20 from the cache, 0 checked');
    const uncached = await cli(['check', '--format', 'json', '--no-cache'], clone, { XDG_CACHE_HOME: join(restoredHome, '.cache') });
    expect(restored.stdout).toBe(uncached.stdout);
    expect(restored.code).toBe(uncached.code);
    // Without the key the restored pack does not verify: every document is checked again.
    const keyless = await cli(['check', '--format', 'json'], clone, { ...env, XDG_CACHE_HOME: join(tempDir(), '.cache') });
    expect(keyless.stderr).toContain('result cache: 0 from the cache, 20 checked');
    expect(keyless.stdout).toBe(uncached.stdout);
  });
});

describe('generated copies in a run over every document', { timeout: 300_000 }, () => {
  interface JsonReport {
    readonly summary: { readonly files: number };
    readonly citations: readonly { readonly file: string }[];
    readonly coverage: { readonly notes: readonly string[] };
  }
  const reportOf = (run: CliRun) => JSON.parse(run.stdout) as JsonReport;
  const filesOf = (report: JsonReport) => new Set(report.citations.map((citation) => citation.file));

  it('leaves out the same copies cold, warm, without the cache and as merged shards', async () => {
    const repo = generatedRepo(30);
    const original = readFileSync(join(repo.dir, 'docs/area0/report-0.md'), 'utf8');
    // A deployed copy (front matter of its own) and a plain copy at a path that sorts first.
    repo.write({ '.claude/agents/report-0.md': `---\nname: deployed\n---\n${original}`, 'aaa/copy.md': original });
    const cold = await cli(['check', '--format', 'json'], repo.dir);
    const report = reportOf(cold);
    expect(filesOf(report).has('aaa/copy.md')).toBe(true);
    expect(filesOf(report).has('docs/area0/report-0.md')).toBe(false);
    expect(filesOf(report).has('.claude/agents/report-0.md')).toBe(false);
    expect(report.coverage.notes).toContain('2 identical copies of other documents skipped (checked once, at the first)');
    expect(report.summary.files).toBe(30);
    const warm = await cli(['check', '--format', 'json'], repo.dir, { AIWG_CITE_RESULT_CACHE_STATS: '1' });
    expect(warm.stdout).toBe(cold.stdout);
    // The warm run knew every document unread, copies included (their identity is stamped too).
    expect(warm.stderr).toContain('result cache: 32 from the cache, 0 checked');
    expect((await cli(['check', '--format', 'json', '--no-cache'], repo.dir)).stdout).toBe(cold.stdout);
    await expectShardsMerge(repo.dir, 3, 'json');
    // A copy whose body changes is a document of its own again.
    repo.write({ 'aaa/copy.md': `${original}\nOne more line.\n` });
    const changed = reportOf(await cli(['check', '--format', 'json'], repo.dir));
    expect(filesOf(changed).has('aaa/copy.md')).toBe(true);
    expect(filesOf(changed).has('docs/area0/report-0.md')).toBe(true);
    expect(changed.coverage.notes).toContain('1 identical copies of other documents skipped (checked once, at the first)');
  });
});

describe('the README’s GitHub Actions matrix', { timeout: 300_000 }, () => {
  it('its check and merge lines, run as written, give the full run’s report and exit code', async () => {
    const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Large repositories and CI'));
    // The section's workflow with a matrix (the pull request job of `--since` is tested beside `--changed`).
    const from = section.indexOf('```yaml', section.indexOf('**Sharding.**'));
    const workflow = section.slice(from, section.indexOf('```', from + 3));
    expect(workflow).toContain('matrix:');
    const commands = [...workflow.matchAll(/- run: (npx aiwg-cite .*)$/gm)].map((match) => match[1] as string);
    expect(commands.length).toBe(3);
    const repo = generatedRepo(40);
    const shell = (command: string) =>
      run('sh', ['-c', command.replaceAll('npx aiwg-cite', `node ${JSON.stringify(CLI_ENTRY)}`)], repo.dir, {});
    const [check, sarif, github] = commands as [string, string, string];
    const placeholder = ['$', '{{ matrix.shard }}'].join('');
    for (const shard of [1, 2, 3, 4]) expect((await shell(check.replaceAll(placeholder, String(shard)))).code).toBe(0);
    const merged = await shell(sarif);
    expect(merged.code).toBe(1);
    expect(readFileSync(join(repo.dir, 'cite.sarif'), 'utf8')).toBe((await cli(['check', '--format', 'sarif'], repo.dir)).stdout);
    const annotations = await shell(github);
    const full = await cli(['check', '--format', 'github'], repo.dir);
    expect(annotations.code).toBe(full.code);
    expect(annotations.stdout).toBe(full.stdout);
  });
});

/** The segments of a result cache directory's pack. */
function segments(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => /^pack-\d\d$/.test(name))
    .map((name) => join(dir, name))
    .sort();
}

/** The entries of a result cache directory's pack: the lines of its segments before their signatures. */
function entries(dir: string): string[] {
  return segments(dir).flatMap((path) => readFileSync(path, 'utf8').split('\n').slice(0, -2));
}

const statsOf = (run: CliRun) => {
  const match = /result cache: (\d+) from the cache, (\d+) checked/.exec(run.stderr);
  expect(match).not.toBeNull();
  return { hits: Number(match?.[1]), checked: Number(match?.[2]) };
};

/**
 * Removes the answers the last runs kept (see "a kept answer" below), so that the next run looks
 * its documents up in the cache: for the tests of the entries themselves.
 */
function forgetAnswers(repoDir: string): void {
  const dir = join(repoDir, '.git/aiwg-cite/results');
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) if (name.startsWith('answer-')) rmSync(join(dir, name));
}

describe('the helper thread (AIWG_CITE_THREADS)', { timeout: 300_000 }, () => {
  it('gives the one-thread bytes and exit code cold, warm and without the cache; the next run knows every document', async () => {
    const repo = generatedRepo(80);
    const original = readFileSync(join(repo.dir, 'docs/area0/report-0.md'), 'utf8');
    // A deployed copy (left out before any document is read); sorted first, so in the helper's first
    // batch: an identical copy (the copies port's content identity), and heuristic findings outside
    // research writing (held back: the run's note counts them).
    repo.write({
      '.claude/agents/report-0.md': `---\nname: deployed\n---\n${original}`,
      'aaa/copy.md': original,
      'aab/plain.md': 'Our build is 3x faster, and 87% of users agree.\n',
    });
    // Each run on one thread or with a helper, with a result cache of its own.
    const threads = (count: '1' | '2') => ({
      AIWG_CITE_RESULT_CACHE_STATS: '1',
      AIWG_CITE_THREADS: count,
      AIWG_CITE_RESULT_CACHE: tempDir(),
    });
    const helped = (run: CliRun) => Number(/helper thread: (\d+) documents/.exec(run.stderr)?.[1] ?? 0);
    let two = threads('2');
    for (const args of [['--format', 'json'], [], ['--format', 'sarif', '--strict'], ['--format', 'json', '--profile', 'all']]) {
      const one = threads('1');
      two = threads('2');
      const alone = await cli(['check', ...args], repo.dir, one);
      const cold = await cli(['check', ...args], repo.dir, two);
      expect(cold.stdout, args.join(' ')).toBe(alone.stdout);
      expect(cold.code).toBe(alone.code);
      expect(helped(cold)).toBeGreaterThan(0);
      expect(helped(alone)).toBe(0);
      expect(statsOf(cold)).toEqual(statsOf(alone));
      // What the helper checked was stored and stamped: the next run reads and checks nothing.
      const warm = await cli(['check', ...args], repo.dir, two);
      expect(warm.stdout).toBe(alone.stdout);
      expect(statsOf(warm)).toEqual({ hits: statsOf(alone).checked, checked: 0 });
      expect(statsOf(alone).checked).toBeGreaterThanOrEqual(82);
      expect(Number(/file stamps: (\d+) files known unread/.exec(warm.stderr)?.[1])).toBeGreaterThanOrEqual(82 + 12);
    }
    const json = JSON.parse((await cli(['check', '--format', 'json'], repo.dir, two)).stdout) as { coverage: { notes: string[] } };
    expect(json.coverage.notes.some((note) => /^\d+ heuristic findings? in \d+ documents? that are not research writing/.test(note))).toBe(
      true,
    );
    expect(json.coverage.notes).toContain('2 identical copies of other documents skipped (checked once, at the first)');
    for (const args of [
      ['--format', 'json', '--no-cache'],
      ['--no-cache', '--profile', 'all'],
    ]) {
      const alone = await cli(['check', ...args], repo.dir, threads('1'));
      const helper = await cli(['check', ...args], repo.dir, two);
      expect(helper.stdout, args.join(' ')).toBe(alone.stdout);
      expect(helper.code).toBe(alone.code);
    }
    const bad = await cli(['check'], repo.dir, { AIWG_CITE_THREADS: 'many' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('aiwg-cite: AIWG_CITE_THREADS: expected 1, 2 or auto, not `many`\n');
  });
});

describe('the result cache', { timeout: 300_000 }, () => {
  it('cached, uncached and sharded-then-merged runs give the same bytes; a warm run checks nothing again', async () => {
    const repo = generatedRepo();
    const env = { XDG_CACHE_HOME: tempDir(), AIWG_CITE_RESULT_CACHE_STATS: '1' };
    const uncached = await cli(['check', '--format', 'json', '--no-cache'], repo.dir, env);
    expect(uncached.stderr).toBe('');
    const cold = await cli(['check', '--format', 'json'], repo.dir, env);
    expect(statsOf(cold)).toEqual({ hits: 0, checked: 60 });
    forgetAnswers(repo.dir);
    const warm = await cli(['check', '--format', 'json'], repo.dir, env);
    expect(statsOf(warm)).toEqual({ hits: 60, checked: 0 });
    // Unchanged files are known by their stamps: no document and no cited source was read again.
    expect(Number(/file stamps: (\d+) files known unread/.exec(warm.stderr)?.[1])).toBeGreaterThanOrEqual(60 + 12);
    for (const run of [cold, warm]) {
      expect(run.code).toBe(uncached.code);
      expect(run.stdout).toBe(uncached.stdout);
    }
    expect(entries(join(repo.dir, '.git/aiwg-cite/results')).length).toBe(60);
    // Shards read the same cache; merged they still give the full run.
    await expectShardsMerge(repo.dir, 3, 'json', [], { XDG_CACHE_HOME: env.XDG_CACHE_HOME });
    const pretty = await cli(['check'], repo.dir, env);
    expect(pretty.stdout).toBe((await cli(['check', '--no-cache'], repo.dir, env)).stdout);
  });

  it('a counting run stores no texts of the citations that checked out; a JSON run then checks again and stores them', async () => {
    const repo = generatedRepo();
    const env = { XDG_CACHE_HOME: tempDir(), AIWG_CITE_RESULT_CACHE_STATS: '1' };
    const uncachedPretty = await cli(['check', '--no-cache'], repo.dir, env);
    const uncachedJson = await cli(['check', '--format', 'json', '--no-cache'], repo.dir, env);
    const cold = await cli(['check'], repo.dir, env);
    expect(statsOf(cold)).toEqual({ hits: 0, checked: 60 });
    const texts = () => readdirSync(join(repo.dir, '.git/aiwg-cite/results')).filter((name) => /^text-\d\d$/.test(name));
    expect(texts()).toEqual([]);
    // Each run below looks its documents up: none prints the answer the run before it kept.
    const forget = () => forgetAnswers(repo.dir);
    forget();
    expect(statsOf(await cli(['check'], repo.dir, env))).toEqual({ hits: 60, checked: 0 });
    const json = await cli(['check', '--format', 'json'], repo.dir, env);
    expect(statsOf(json)).toEqual({ hits: 0, checked: 60 });
    expect(json.stdout).toBe(uncachedJson.stdout);
    expect(texts().length).toBeGreaterThan(0);
    forget();
    const warmJson = await cli(['check', '--format', 'json'], repo.dir, env);
    expect(statsOf(warmJson)).toEqual({ hits: 60, checked: 0 });
    expect(warmJson.stdout).toBe(uncachedJson.stdout);
    // Entries with their texts serve a counting run too.
    forget();
    const pretty = await cli(['check'], repo.dir, env);
    expect(statsOf(pretty)).toEqual({ hits: 60, checked: 0 });
    for (const run of [cold, pretty]) expect(run.stdout).toBe(uncachedPretty.stdout);
  });

  it('re-checks only the edited document and the documents citing a changed artifact', async () => {
    const repo = generatedRepo();
    const env = { XDG_CACHE_HOME: tempDir(), AIWG_CITE_RESULT_CACHE_STATS: '1' };
    await cli(['check', '--format', 'json'], repo.dir, env);
    appendFileSync(join(repo.dir, 'docs/area1/report-5.md'), '\nOne more line.\n');
    const edited = await cli(['check', '--format', 'json'], repo.dir, env);
    expect(statsOf(edited)).toEqual({ hits: 59, checked: 1 });
    expect(edited.stdout).toBe((await cli(['check', '--format', 'json', '--no-cache'], repo.dir, env)).stdout);
    // src/m0/file0.ts is cited by report-0, -12, -24, -36, -48 (at % 12 === 0) and by b = (7at + 3) % 12 === 0 for none.
    writeFileSync(join(repo.dir, 'src/m0/file0.ts'), 'rewritten\n');
    const artifact = await cli(['check', '--format', 'json'], repo.dir, env);
    const citing = Array.from({ length: 60 }, (_, at) => at).filter((at) => at % 12 === 0 || (at * 7 + 3) % 12 === 0).length;
    expect(statsOf(artifact)).toEqual({ hits: 60 - citing, checked: citing });
    const fresh = await cli(['check', '--format', 'json', '--no-cache'], repo.dir, env);
    expect(artifact.stdout).toBe(fresh.stdout);
    // The document now cites a stale version: the findings did change, and the cache did not hide it.
    expect(artifact.stdout).not.toBe(edited.stdout);
    // A configuration change re-checks everything.
    writeFileSync(join(repo.dir, 'aiwg-cite.config.json'), '{"rules": {"rlm/unversioned": "off"}}\n');
    const configured = await cli(['check', '--format', 'json'], repo.dir, env);
    expect(statsOf(configured)).toEqual({ hits: 0, checked: 60 });
    expect(configured.stdout).toBe((await cli(['check', '--format', 'json', '--no-cache'], repo.dir, env)).stdout);
  });

  it('answers no run from the entries of a run with another profile', async () => {
    const repo = gitRepo();
    // Not research writing (by path or headings): the recommended profile holds its statistic back; `all` shows it.
    repo.write({ 'notes/plan.md': '# Plan\n\nAdoption rose by 70% last year.\n', 'src/a.ts': 'export {};\n' });
    repo.write({ 'docs/guide.md': '# Guide\n\nSee [src/a.ts, L1].\n' });
    repo.commit('docs');
    const env = { XDG_CACHE_HOME: tempDir(), AIWG_CITE_RESULT_CACHE_STATS: '1' };
    const recommended = (await cli(['check', '--no-cache'], repo.dir, env)).stdout;
    const all = (await cli(['check', '--no-cache', '--profile', 'all'], repo.dir, env)).stdout;
    expect(recommended).toContain('not research writing not shown');
    expect(all).toContain('statistic/unsourced');
    for (const profile of [[], ['--profile', 'all'], [], ['--profile', 'all']]) {
      const run = await cli(['check', ...profile], repo.dir, env);
      expect(run.stdout).toBe(profile.length === 0 ? recommended : all);
    }
  });

  it('ignores and rewrites a corrupt, truncated, foreign or hand-written pack segment, never trusting it', async () => {
    const repo = generatedRepo(20);
    const mine = { XDG_CACHE_HOME: tempDir(), AIWG_CITE_RESULT_CACHE_STATS: '1' };
    const expected = (await cli(['check', '--format', 'json', '--no-cache'], repo.dir, mine)).stdout;
    await cli(['check', '--format', 'json'], repo.dir, mine);
    const dir = join(repo.dir, '.git/aiwg-cite/results');
    expect(entries(dir)).toHaveLength(20);
    // Three segments: one with findings, emptied under the old signature; the two fullest of the
    // others, one cut short, one a clean result signed with a guess. (Which segment holds what
    // follows from the keys, which change with every build.)
    const bySize = segments(dir)
      .map((path) => ({ path, text: readFileSync(path, 'utf8') }))
      .sort((a, b) => b.text.split('\n').length - a.text.split('\n').length);
    const corrupt = bySize.find((segment) => /"findings":\[\[/.test(segment.text));
    if (corrupt === undefined) throw new Error('no cached document has findings');
    const [truncated, forged] = bySize.filter((segment) => segment !== corrupt) as [
      { path: string; text: string },
      { path: string; text: string },
    ];
    const fullest = [corrupt, truncated, forged];
    const clean = (text: string) => text.replace(/"findings":\[.*?\],"skippedInCode"/, '"findings":[],"skippedInCode"');
    writeFileSync(corrupt.path, clean(corrupt.text));
    writeFileSync(truncated.path, truncated.text.slice(0, 70));
    writeFileSync(forged.path, `${clean(forged.text.slice(0, -65))}${'0'.repeat(64)}\n`);
    const tampered = fullest.reduce((sum, segment) => sum + segment.text.split('\n').length - 2, 0);
    forgetAnswers(repo.dir);
    const after = await cli(['check', '--format', 'json'], repo.dir, mine);
    expect(statsOf(after)).toEqual({ hits: 20 - tampered, checked: tampered });
    expect(after.stdout).toBe(expected);
    forgetAnswers(repo.dir);
    expect(statsOf(await cli(['check', '--format', 'json'], repo.dir, mine))).toEqual({ hits: 20, checked: 0 });
    // A pack another user's key signed (a copied cache) is foreign: all checked again, then rewritten.
    const theirs = { XDG_CACHE_HOME: tempDir(), AIWG_CITE_RESULT_CACHE_STATS: '1' };
    const foreign = await cli(['check', '--format', 'json'], repo.dir, theirs);
    expect(statsOf(foreign)).toEqual({ hits: 0, checked: 20 });
    expect(foreign.stdout).toBe(expected);
  });

  it('survives concurrent runs: every run gives the uncached bytes and the cache stays whole', async () => {
    const repo = generatedRepo(40);
    const env = { XDG_CACHE_HOME: tempDir() };
    const expected = (await cli(['check', '--format', 'json', '--no-cache'], repo.dir, env)).stdout;
    const runOnce = async () => (await cli(['check', '--format', 'json'], repo.dir, env)).stdout;
    const outputs = await Promise.all([runOnce(), runOnce(), runOnce(), runOnce()]);
    for (const out of outputs) expect(out).toBe(expected);
    const dir = join(repo.dir, '.git/aiwg-cite/results');
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect(entries(dir)).toHaveLength(40);
    const warm = await cli(['check', '--format', 'json'], repo.dir, { ...env, AIWG_CITE_RESULT_CACHE_STATS: '1' });
    expect(statsOf(warm)).toEqual({ hits: 40, checked: 0 });
    expect(warm.stdout).toBe(expected);
  });

  it('keeps partial runs in the journal, which full runs fold, concurrent runs included: every run gives the uncached bytes', async () => {
    const repo = generatedRepo(40);
    const env = { XDG_CACHE_HOME: tempDir() };
    const dir = join(repo.dir, '.git/aiwg-cite/results');
    const files = ['docs/area0/report-0.md', 'docs/area1/report-1.md', 'docs/area2/report-2.md', 'docs/area3/report-3.md'];
    const full = (await cli(['check', '--format', 'json', '--no-cache'], repo.dir, env)).stdout;
    const one = await Promise.all(
      files.map(async (file) => (await cli(['check', file, '--format', 'json', '--no-cache'], repo.dir, env)).stdout),
    );
    // A partial run alone: its entry goes to the journal; the full run after it folds the journal.
    expect((await cli(['check', files[0] as string, '--format', 'json'], repo.dir, env)).stdout).toBe(one[0]);
    expect(
      readdirSync(dir)
        .filter((name) => name.startsWith('journal-'))
        .sort(),
    ).toEqual(['journal-pack', 'journal-text']);
    expect(segments(dir)).toEqual([]);
    const folding = await cli(['check', '--format', 'json'], repo.dir, { ...env, AIWG_CITE_RESULT_CACHE_STATS: '1' });
    expect(statsOf(folding)).toEqual({ hits: 1, checked: 39 });
    expect(folding.stdout).toBe(full);
    expect(readdirSync(dir).filter((name) => name.startsWith('journal-'))).toEqual([]);
    // Edits, then partial and full runs at once: journal writes and folds race; no run gives other bytes.
    for (const file of files) appendFileSync(join(repo.dir, file), '\nA line more.\n');
    const fullAfter = (await cli(['check', '--format', 'json', '--no-cache'], repo.dir, env)).stdout;
    const oneAfter = await Promise.all(
      files.map(async (file) => (await cli(['check', file, '--format', 'json', '--no-cache'], repo.dir, env)).stdout),
    );
    const runs = await Promise.all([
      ...files.map(async (file) => (await cli(['check', file, '--format', 'json'], repo.dir, env)).stdout),
      (async () => (await cli(['check', '--format', 'json'], repo.dir, env)).stdout)(),
      (async () => (await cli(['check', '--format', 'json'], repo.dir, env)).stdout)(),
    ]);
    expect(runs).toEqual([...oneAfter, fullAfter, fullAfter]);
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    // Whatever the race left, the cache answers with the same bytes, and a full run makes it whole.
    expect((await cli(['check', '--format', 'json'], repo.dir, env)).stdout).toBe(fullAfter);
    const warm = await cli(['check', '--format', 'json'], repo.dir, { ...env, AIWG_CITE_RESULT_CACHE_STATS: '1' });
    expect(statsOf(warm)).toEqual({ hits: 40, checked: 0 });
    expect(warm.stdout).toBe(fullAfter);
  });

  it('check --staged uses the same cache, on the staged bytes', async () => {
    const repo = generatedRepo(30);
    repo.commit('stale sources');
    const env = { XDG_CACHE_HOME: tempDir(), AIWG_CITE_RESULT_CACHE_STATS: '1' };
    for (const at of [1, 2, 3]) appendFileSync(join(repo.dir, `docs/area${at % 4}/report-${at}.md`), '\nStaged line.\n');
    repo.git('add', 'docs');
    const expected = await cli(['check', '--staged', '--format', 'json', '--no-cache'], repo.dir, env);
    const cold = await cli(['check', '--staged', '--format', 'json'], repo.dir, env);
    expect(statsOf(cold)).toEqual({ hits: 0, checked: 3 });
    const warm = await cli(['check', '--staged', '--format', 'json'], repo.dir, env);
    expect(statsOf(warm)).toEqual({ hits: 3, checked: 0 });
    expect(cold.stdout).toBe(expected.stdout);
    expect(warm.stdout).toBe(expected.stdout);
    expect(warm.code).toBe(expected.code);
    // The work tree differs from the index: the staged bytes are what counts.
    appendFileSync(join(repo.dir, 'docs/area1/report-1.md'), `\nUnstaged: [src/removed/nowhere.ts, L1].\n`);
    const unstaged = await cli(['check', '--staged', '--format', 'json'], repo.dir, env);
    expect(statsOf(unstaged)).toEqual({ hits: 3, checked: 0 });
    expect(unstaged.stdout).toBe(expected.stdout);
  });

  it('outside git it lives in node_modules/.cache/aiwg-cite; AIWG_CITE_RESULT_CACHE names another place', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.ts'), 'a\n');
    writeFileSync(join(dir, 'doc.md'), `See [a.ts@${sha16('a\n')}, L1].\n`);
    const env = { XDG_CACHE_HOME: tempDir() };
    expect((await cli(['check', '--root', dir], dir, env)).code).toBe(0);
    expect(entries(join(dir, 'node_modules/.cache/aiwg-cite/results'))).toHaveLength(1);
    const elsewhere = tempDir();
    expect((await cli(['check', '--root', dir], dir, { ...env, AIWG_CITE_RESULT_CACHE: elsewhere })).code).toBe(0);
    expect(entries(elsewhere)).toHaveLength(1);
  });
});

/** The real-world snapshots: unpacked to a temporary git repository, never written in place. */
describe('a kept answer (the last identical run over every document)', { timeout: 300_000 }, () => {
  const ANSWERED = /result cache: the last run's answer, its (\d+) documents unchanged/;
  const answered = (run: CliRun) => Number(ANSWERED.exec(run.stderr)?.[1] ?? -1);
  const pinnedStatus = (run: CliRun) =>
    (JSON.parse(run.stdout) as { citations: { file: string; status: string }[] }).citations.find(
      (citation) => citation.file === 'docs/pinned.md',
    )?.status;

  /**
   * Runs `check` after a change until it prints a kept answer: the first run builds its answer
   * (the change is seen); the first that answers every document from the cache keeps it (that run
   * or the next), and the next prints it. Every run gives what a run without the cache gives.
   */
  async function expectSeenThenKept(repo: GitRepo, env: Record<string, string>, args: readonly string[] = ['--format', 'json']) {
    const built = await cli(['check', ...args], repo.dir, env);
    expect(answered(built), built.stderr).toBe(-1);
    let again = await cli(['check', ...args], repo.dir, env);
    const uncached = await cli(['check', ...args, '--no-cache'], repo.dir, env);
    for (const run of [built, again]) {
      expect(run.stdout).toBe(uncached.stdout);
      expect(run.code).toBe(uncached.code);
    }
    if (answered(again) === -1) {
      expect(statsOf(again).checked).toBe(0);
      again = await cli(['check', ...args], repo.dir, env);
    }
    expect(answered(again)).toBeGreaterThan(0);
    expect(again.stdout).toBe(uncached.stdout);
    expect(again.code).toBe(uncached.code);
    return { built, again, uncached };
  }

  /** A commit on a new ref, made with plumbing (as a fetch brings one): neither the index nor the working tree moves. */
  function commitOnSideRef(repo: GitRepo, path: string, text: string): void {
    const gitEnv = { ...process.env, ...GIT_ENV, GIT_INDEX_FILE: join(tempDir(), 'index') };
    const git = (args: readonly string[], input?: string) =>
      execFileSync('git', args, { cwd: repo.dir, env: gitEnv, encoding: 'utf8', ...(input === undefined ? {} : { input }) }).trim();
    const blob = git(['hash-object', '-w', '--stdin'], text);
    git(['read-tree', 'HEAD']);
    git(['update-index', '--add', '--cacheinfo', `100644,${blob},${path}`]);
    const commit = git(['commit-tree', git(['write-tree']), '-p', 'HEAD', '-m', 'side']);
    git(['update-ref', 'refs/heads/side', commit]);
  }

  it('answers an identical run with the bytes of the last, and builds its answer again after each change it depends on', async () => {
    const repo = generatedRepo(30);
    // A document pins a version of a source that no ref holds yet: an unknown hash, until a ref brings it.
    const later = 'export const later = 1;\n';
    repo.write({ 'docs/pinned.md': `# Pinned\n\nSee [src/m1/file1.ts@${sha16(later)}, L1].\n` });
    const env = { XDG_CACHE_HOME: tempDir(), AIWG_CITE_RESULT_CACHE_STATS: '1' };
    const uncached = await cli(['check', '--format', 'json', '--no-cache'], repo.dir, env);
    // The first run that answers every document from the cache keeps its answer; the next prints it.
    const cold = await cli(['check', '--format', 'json'], repo.dir, env);
    expect(statsOf(cold)).toEqual({ hits: 0, checked: 31 });
    const warm = await cli(['check', '--format', 'json'], repo.dir, env);
    expect(statsOf(warm)).toEqual({ hits: 31, checked: 0 });
    const kept = await cli(['check', '--format', 'json'], repo.dir, env);
    expect(answered(kept)).toBe(31);
    for (const run of [cold, warm, kept]) {
      expect(run.stdout).toBe(uncached.stdout);
      expect(run.code).toBe(uncached.code);
    }
    expect(pinnedStatus(uncached)).toBe('unknown-hash');

    // A document edited.
    appendFileSync(join(repo.dir, 'docs/area1/report-5.md'), '\nAlso [src/m0/file0.ts, L1].\n');
    const edited = await expectSeenThenKept(repo, env);
    expect(statsOf(edited.built)).toEqual({ hits: 30, checked: 1 });
    expect(edited.built.stdout).not.toBe(uncached.stdout);
    // A cited source edited, one that a citation named and that did not exist, a document added.
    for (const change of [
      () => writeFileSync(join(repo.dir, 'src/m0/file0.ts'), 'rewritten\n'),
      () => repo.write({ 'src/removed/gone0.ts': 'here now\n' }),
      () => repo.write({ 'docs/added.md': '# Added\n\nSee [src/m2/file2.ts, L1].\n' }),
    ]) {
      const before = (await cli(['check', '--format', 'json'], repo.dir, env)).stdout;
      change();
      const changed = await expectSeenThenKept(repo, env);
      expect(changed.built.stdout).not.toBe(before);
    }
    // A cited source edited, then read by a run over one document citing it, which stamps its new
    // bytes: the full run knows them unread, and that they are not the bytes the answer was of.
    const beforeStamped = (await cli(['check', '--format', 'json'], repo.dir, env)).stdout;
    writeFileSync(join(repo.dir, 'src/m2/file2.ts'), 'rewritten too\n');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await cli(['check', 'docs/area2/report-2.md'], repo.dir, env);
    const stamped = await expectSeenThenKept(repo, env);
    expect(stamped.built.stdout).not.toBe(beforeStamped);
    // A ref that brings the pinned version: no file changed, but git's answer did.
    const beforeRef = (await cli(['check', '--format', 'json'], repo.dir, env)).stdout;
    commitOnSideRef(repo, 'src/m1/file1.ts', later);
    const fetched = await expectSeenThenKept(repo, env);
    expect(statsOf(fetched.built).checked).toBe(0);
    expect(fetched.built.stdout).not.toBe(beforeRef);
    expect(pinnedStatus(fetched.built)).toBe('stale');
    // The configuration, the format, the colours, the flags: each answer is its own.
    writeFileSync(join(repo.dir, 'aiwg-cite.config.json'), '{"rules": {"rlm/unversioned": "off"}}\n');
    await expectSeenThenKept(repo, env);
    await expectSeenThenKept(repo, env, ['--format', 'sarif']);
    await expectSeenThenKept(repo, env, []);
    const coloured = await expectSeenThenKept(repo, { ...env, NO_COLOR: '', FORCE_COLOR: '1' }, []);
    expect(coloured.again.stdout).toContain('\u001b[');
    await expectSeenThenKept(repo, env, ['--strict']);
    expect(answered(await cli(['check', '--format', 'json'], repo.dir, env))).toBe(32);
  });

  it('follows what the run-level stages read besides the findings: a corpus root that git starts to ignore', async () => {
    const repo = gitRepo({
      'docs/d.md': '# D\n\nAs REF-001 shows, and REF-002 too.\n',
      'research/REF-001-study.md': '---\nref_id: REF-001\ntitle: A study\nauthors: [Smith]\nyear: 2020\n---\n# A study\n',
      'aiwg-cite.config.json': '{"corpus": ["research", "private"]}\n',
    });
    const env = { XDG_CACHE_HOME: tempDir(), AIWG_CITE_RESULT_CACHE_STATS: '1' };
    const tracked = await expectSeenThenKept(repo, env, []);
    expect(tracked.built.code).toBe(1);
    // Nothing the documents cite changed; the absent root is now one this checkout cannot judge.
    repo.write({ '.gitignore': 'private\n' });
    const ignored = await expectSeenThenKept(repo, env, []);
    expect(ignored.built.code).toBe(0);
    expect(ignored.built.stdout).toContain('corpus/absent');
  });

  it('covers documents whose results are never stored: held back, with @-mentions (what they resolve to), reached through a link', async () => {
    const repo = gitRepo({
      'docs/guide.md': '# Guide\n\nRun @scripts/run.sh first, then see [src/a.ts, L1].\n',
      'docs/link.md': { symlink: '../data/notes.txt' },
      'data/notes.txt': '# Notes\n\nSee [src/a.ts, L1].\n',
      'notes/plan.md': '# Plan\n\nAdoption rose by 70% last year.\n',
      'src/a.ts': 'a\n',
    });
    const env = { XDG_CACHE_HOME: tempDir(), AIWG_CITE_RESULT_CACHE_STATS: '1' };
    const first = await expectSeenThenKept(repo, env, []);
    expect(first.built.stdout).toContain('mention/missing');
    expect(first.built.stdout).toContain('1 heuristic finding in 1 document that are not research writing not shown');
    expect(answered(first.again)).toBe(3);
    expect(first.built.stdout).not.toContain('identical copies');
    // The mention's target created: no document and no cited file changed, what the mention resolves to did.
    repo.write({ 'scripts/run.sh': 'echo\n' });
    const created = await expectSeenThenKept(repo, env, []);
    expect(created.built.stdout).not.toContain('mention/missing');
    // The document whose finding is held back, edited: the run's note counts two.
    repo.write({ 'notes/plan.md': '# Plan\n\nAdoption rose by 70% last year.\n\nChurn fell by 20% this year.\n' });
    const held = await expectSeenThenKept(repo, env, []);
    expect(held.built.stdout).toContain('2 heuristic findings in 1 document');
    // The file a linked document leads to, edited (a link is never stamped: it is read and compared).
    writeFileSync(join(repo.dir, 'data/notes.txt'), '# Notes\n\nSee [src/a.ts, L1] and [src/b.ts, L1].\n');
    const linked = await expectSeenThenKept(repo, env, []);
    expect(linked.built.code).toBe(1);
  });

  it('with a helper thread: kept by a run the cache answered whole, never by one the helper shared', async () => {
    const repo = generatedRepo(30);
    const env = { XDG_CACHE_HOME: tempDir(), AIWG_CITE_RESULT_CACHE_STATS: '1', AIWG_CITE_THREADS: '2' };
    const helped = (run: CliRun) => Number(/helper thread: (\d+) documents/.exec(run.stderr)?.[1] ?? 0);
    const head = join(repo.dir, '.git/aiwg-cite/results/answer-json');
    const expectUncached = async (runs: readonly CliRun[]) => {
      const uncached = await cli(['check', '--format', 'json', '--no-cache'], repo.dir, { ...env, AIWG_CITE_THREADS: '1' });
      for (const run of runs) {
        expect(run.stdout).toBe(uncached.stdout);
        expect(run.code).toBe(uncached.code);
      }
    };
    const cold = await cli(['check', '--format', 'json'], repo.dir, env);
    expect(helped(cold)).toBeGreaterThan(0);
    expect(existsSync(head)).toBe(false);
    // Every document answered by the cache: no helper starts, and the run keeps its answer.
    const warm = await cli(['check', '--format', 'json'], repo.dir, env);
    expect(helped(warm)).toBe(0);
    expect(answered(warm)).toBe(-1);
    const kept = readFileSync(head);
    const printed = await cli(['check', '--format', 'json'], repo.dir, env);
    expect(answered(printed)).toBe(30);
    await expectUncached([cold, warm, printed]);
    // One edited document: the splice checks it on this thread (check-splice.ts), no helper starts,
    // and a run that checked a document keeps nothing: the old answer stays.
    appendFileSync(join(repo.dir, 'docs/area2/report-6.md'), '\nAlso [src/m0/file0.ts, L1].\n');
    const edited = await cli(['check', '--format', 'json'], repo.dir, env);
    expect(helped(edited)).toBe(0);
    expect(statsOf(edited)).toEqual({ hits: 29, checked: 1 });
    expect(readFileSync(head).equals(kept)).toBe(true);
    // More than a quarter of the documents edited: no splice; the helper (forced to take the first
    // batch) checks some, and the run, which its thread's cache did not answer whole, keeps nothing.
    for (let at = 0; at < 8; at += 1) appendFileSync(join(repo.dir, `docs/area${at % 4}/report-${at}.md`), '\nEdited.\n');
    const many = await cli(['check', '--format', 'json'], repo.dir, env);
    expect(helped(many)).toBeGreaterThan(0);
    expect(answered(many)).toBe(-1);
    expect(readFileSync(head).equals(kept)).toBe(true);
    const again = await cli(['check', '--format', 'json'], repo.dir, env);
    expect(helped(again)).toBe(0);
    expect(answered(again)).toBe(-1);
    expect(readFileSync(head).equals(kept)).toBe(false);
    const printedAgain = await cli(['check', '--format', 'json'], repo.dir, env);
    expect(answered(printedAgain)).toBe(30);
    await expectUncached([edited, many, again, printedAgain]);
    expect(printedAgain.stdout).not.toBe(printed.stdout);
  });

  it('is neither kept nor printed for a run over some documents, a shard, --changed or --report, and a corrupt or foreign one is ignored', async () => {
    const repo = generatedRepo(20);
    const env = { XDG_CACHE_HOME: tempDir(), AIWG_CITE_RESULT_CACHE_STATS: '1' };
    const expected = (await cli(['check', '--format', 'json', '--no-cache'], repo.dir, env)).stdout;
    for (const args of [['docs'], ['--shard', '1/2'], ['--changed'], ['--report', join(tempDir(), 'report.md')]]) {
      for (let round = 0; round < 3; round += 1) {
        const run = await cli(['check', '--format', 'json', ...args], repo.dir, env);
        expect(answered(run), args.join(' ')).toBe(-1);
      }
    }
    const dir = join(repo.dir, '.git/aiwg-cite/results');
    expect(existsSync(join(dir, 'answer-json'))).toBe(false);
    await cli(['check', '--format', 'json'], repo.dir, env);
    expect(existsSync(join(dir, 'answer-json'))).toBe(true);
    // One byte of the kept output changed, then one of the head (their signatures no longer
    // hold): each is ignored, and the answer kept anew by the next run that answers every document.
    for (const name of ['answer-json.output', 'answer-json']) {
      const file = join(dir, name);
      const bytes = readFileSync(file);
      const at = bytes.indexOf(name === 'answer-json' ? '"documents"' : '"verdict"');
      expect(at).toBeGreaterThan(-1);
      bytes[at + 1] = 'X'.charCodeAt(0);
      writeFileSync(file, bytes);
      const corrupt = await cli(['check', '--format', 'json'], repo.dir, env);
      expect(answered(corrupt)).toBe(-1);
      expect(statsOf(corrupt)).toEqual({ hits: 20, checked: 0 });
      expect(corrupt.stdout).toBe(expected);
      expect(answered(await cli(['check', '--format', 'json'], repo.dir, env))).toBe(20);
    }
    // Another user's key (a copied cache directory): not theirs to print.
    const theirs = await cli(['check', '--format', 'json'], repo.dir, { ...env, XDG_CACHE_HOME: tempDir() });
    expect(answered(theirs)).toBe(-1);
    expect(theirs.stdout).toBe(expected);
  });
});

describe('a spliced answer (a kept answer built again after some documents changed)', { timeout: 600_000 }, () => {
  const SPLICED = /result cache: the last run's answer, built again with (\d+) documents checked/;
  const spliced = (run: CliRun) => Number(SPLICED.exec(run.stderr)?.[1] ?? -1);
  const ANSWERED = /result cache: the last run's answer, its (\d+) documents unchanged/;

  /** Runs `check` with the cache and without it: the same bytes on stdout, the same exit code. */
  async function expectUncached(repo: GitRepo, env: Record<string, string>, args: readonly string[]): Promise<CliRun> {
    const cached = await cli(['check', ...args], repo.dir, env);
    const uncached = await cli(['check', ...args, '--no-cache'], repo.dir, env);
    expect(cached.stdout, `${args.join(' ')}\n${cached.stderr}`).toBe(uncached.stdout);
    expect(cached.code).toBe(uncached.code);
    return cached;
  }

  /** Edits a writer makes to a document (`other`: another document's text), each changing what the report says of it. */
  const EDITS: readonly ((text: string, other: string) => string)[] = [
    (text) => `${text}\nUn-versioned: [src/m0/file0.ts, L2].\n`,
    (text) => `${text}\nGone: [src/removed/nowhere.ts, L1].\n`,
    (text) => `${text}\nMade up: [src/m2/file2.ts@0123456789abcdef, L1].\n`,
    () => '# Nothing cited here any more\n',
    (text) => `${text}\nAs Jones et al. (2021) found, 93% of builds pass (doi:10.5555/new.1).\n`,
    (_text, other) => other,
    (text) => `${text}\nSee @docs/area0/report-0.md and @docs/nowhere.md.\n`,
    (text) => text.replace(/\[src\/[^\]]*\]/, 'no citation'),
    (text) => `${text}\n<!-- aiwg-cite-disable-next-line -->\nHidden: [src/removed/hidden.ts, L1].\n`,
  ];

  it('gives the bytes and exit code of a run without the cache after each edit, in every format it builds, and keeps its answer on the next run', async () => {
    const repo = generatedRepo(40);
    // Heuristic findings outside research writing, held back (never stored: each splice checks it again for the run's note).
    repo.write({ 'aab/plain.md': 'Our build is 3x faster, and 87% of users agree.\n' });
    const env = { XDG_CACHE_HOME: tempDir(), AIWG_CITE_RESULT_CACHE_STATS: '1' };
    const formats = [['--format', 'json'], [], ['--format', 'sarif', '--strict'], ['--format', 'github']];
    // Each format's answer kept, then printed.
    for (const args of formats) {
      await cli(['check', ...args], repo.dir, env);
      await cli(['check', ...args], repo.dir, env);
      expect(Number(ANSWERED.exec((await expectUncached(repo, env, args)).stderr)?.[1])).toBe(41);
    }
    const documents = readdirSync(join(repo.dir, 'docs'), { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`)
      .sort();
    let splices = 0;
    for (const [round, edit] of EDITS.entries()) {
      // One document edited each round, two in every third.
      const chosen = round % 3 === 2 ? [documents[(round * 7) % 40], documents[(round * 7 + 13) % 40]] : [documents[(round * 7) % 40]];
      for (const document of chosen as string[]) {
        const path = join(repo.dir, document);
        writeFileSync(path, edit(readFileSync(path, 'utf8'), readFileSync(join(repo.dir, documents[(round + 1) % 40] as string), 'utf8')));
      }
      for (const args of round < 3 ? formats : formats.slice(0, 2)) {
        const first = await expectUncached(repo, env, args);
        if (spliced(first) > 0) splices += 1;
        // The next run: the cache answers what the last one checked; a splice then keeps its answer.
        const next = await expectUncached(repo, env, args);
        expect(spliced(next) === -1 || /from the cache, 0 checked/.test(next.stderr)).toBe(true);
      }
    }
    // Most runs after an edit were spliced (a copy changes the copies left out: a JSON run declines it).
    expect(splices).toBeGreaterThanOrEqual(EDITS.length * 2 - 3);
  });

  it('checks again only the documents citing an artifact that was edited, created or removed, and a document edited with it', async () => {
    const repo = generatedRepo(40);
    const env = { XDG_CACHE_HOME: tempDir(), AIWG_CITE_RESULT_CACHE_STATS: '1' };
    const formats = [['--format', 'json'], [], ['--format', 'sarif', '--strict']];
    for (const args of formats) {
      await cli(['check', ...args], repo.dir, env);
      await cli(['check', ...args], repo.dir, env);
      expect(Number(ANSWERED.exec((await expectUncached(repo, env, args)).stderr)?.[1])).toBe(40);
    }
    // The documents that cite source `k` outside code (generatedRepo: sources `at % 12` and `(at * 7 + 3) % 12`).
    const citers = (k: number) => Array.from({ length: 40 }, (_, at) => at).filter((at) => at % 12 === k || (at * 7 + 3) % 12 === k).length;
    const changes: [string, () => void, number][] = [
      ['a cited source rewritten', () => writeFileSync(join(repo.dir, 'src/m0/file0.ts'), 'rewritten\n'), citers(0)],
      ['a missing file a citation names created', () => repo.write({ 'src/removed/gone11.ts': 'here now\n' }), 1],
      ['a cited source removed', () => rmSync(join(repo.dir, 'src/m2/file5.ts')), citers(5)],
      [
        'a cited source and a document that does not cite it edited',
        () => {
          writeFileSync(join(repo.dir, 'src/m1/file7.ts'), 'export const seven = 7;\n');
          appendFileSync(join(repo.dir, 'docs/area0/report-0.md'), '\nUn-versioned: [src/m2/file2.ts, L1].\n');
        },
        citers(7) + 1,
      ],
      // The edited document cites it now (the spliced answer kept what each document depends on).
      ['a source the edited document cites now removed', () => rmSync(join(repo.dir, 'src/m2/file2.ts')), citers(2) + 1],
    ];
    for (const [name, change, checked] of changes) {
      change();
      for (const args of formats) {
        const first = await expectUncached(repo, env, args);
        expect(spliced(first), `${name}, ${args.join(' ')}\n${first.stderr}`).toBe(checked);
        // The first run the cache answers keeps the spliced answer (git's state for the new stale
        // pins joined to the kept one's: the JSON run stored every checked document, so the other
        // formats' first runs keep theirs); the one after prints it.
        const next = await expectUncached(repo, env, args);
        expect(next.stderr, `${name}, ${args.join(' ')}\n${next.stderr}`).toMatch(/from the cache, 0 checked|its 40 documents unchanged/);
        const third = await expectUncached(repo, env, args);
        expect(Number(ANSWERED.exec(third.stderr)?.[1]), `${name}, ${args.join(' ')}\n${third.stderr}`).toBe(40);
      }
    }
    // Artifacts that more than a quarter of the documents cite: the run looks every document up (each cites one of them).
    for (let k = 0; k < 12; k += 1) if (k !== 5) writeFileSync(join(repo.dir, `src/m${k % 3}/file${k}.ts`), `export const k = ${k};\n`);
    const many = await expectUncached(repo, env, ['--format', 'json']);
    expect(spliced(many)).toBe(-1);
    expect(statsOf(many)).toEqual({ hits: 0, checked: 40 });
  });

  it('checks a document that came since and drops one that went, in every format it builds, with the bytes of a run without the cache', async () => {
    const repo = generatedRepo(40);
    const env = { XDG_CACHE_HOME: tempDir(), AIWG_CITE_RESULT_CACHE_STATS: '1' };
    const formats = [['--format', 'json'], [], ['--format', 'sarif', '--strict'], ['--format', 'github']];
    for (const args of formats) {
      await cli(['check', ...args], repo.dir, env);
      await cli(['check', ...args], repo.dir, env);
      expect(Number(ANSWERED.exec((await expectUncached(repo, env, args)).stderr)?.[1])).toBe(40);
    }
    const report = (at: number) => join(repo.dir, `docs/area${at % 4}/report-${at}.md`);
    // Each change, the documents discovery finds after it, and how many documents the first run after it checks (`null`: it may look every document up).
    const changes: [string, () => void, number, number | null][] = [
      [
        'a new document with findings of each kind',
        () =>
          repo.write({
            'docs/area1/report-13b.md':
              '# New\n\nGone: [src/removed/new.ts, L1]. Un-versioned: [src/m0/file0.ts, L2]. Made up: [src/m1/file1.ts@0123456789abcdef, L1].\n',
          }),
        41,
        1,
      ],
      // Report 10 has a made-up hash, between documents with findings: the JSON splice copies the runs around it.
      ['a document with findings removed', () => rmSync(report(10)), 40, 0],
      ['a document renamed', () => renameSync(report(22), join(repo.dir, 'docs/area2/renamed-22.md')), 40, 1],
      [
        'two documents added and one removed, one of them edited too',
        () => {
          appendFileSync(report(1), '\nSee @docs/area2/mentioned.md for more.\n');
          repo.write({
            'docs/area0/added-a.md': '# A\n\nGone: [src/removed/a.ts, L1].\n',
            'docs/zz/added-b.md': '# B\n\nNothing cited.\n',
          });
          rmSync(report(33));
          appendFileSync(report(35), '\nGone: [src/removed/edited.ts, L1].\n');
        },
        41,
        4,
      ],
      // What another document's `@`-mention names, or a copy of one (the copies left out change: a JSON run declines).
      ['a document another mentions', () => repo.write({ 'docs/area2/mentioned.md': '# Mentioned\n\nNothing cited.\n' }), 42, null],
      ['a copy of a document', () => cpSync(report(7), join(repo.dir, 'docs/area3/copy-of-7.md')), 43, null],
      [
        'the new documents removed again',
        () => {
          for (const name of ['docs/area0/added-a.md', 'docs/zz/added-b.md', 'docs/area2/mentioned.md', 'docs/area3/copy-of-7.md']) {
            rmSync(join(repo.dir, name));
          }
        },
        39,
        null,
      ],
    ];
    for (const [name, change, documents, checked] of changes) {
      change();
      for (const args of formats) {
        const first = await expectUncached(repo, env, args);
        if (checked !== null) expect(spliced(first), `${name}, ${args.join(' ')}\n${first.stderr}`).toBe(checked);
        // The run the cache answers keeps the spliced answer; the one after prints it.
        await expectUncached(repo, env, args);
        const third = await expectUncached(repo, env, args);
        expect(Number(ANSWERED.exec(third.stderr)?.[1]), `${name}, ${args.join(' ')}\n${third.stderr}`).toBe(documents);
      }
    }
  });

  it("after git's history moved (a commit) checks again only the documents with stale pins, with the bytes of a run without the cache", async () => {
    const source = 'export const now = 1;\n';
    // A pin of a version src/a.ts never had yet: unknown-hash until a commit gives it that version.
    const later = 'export const later = 1;\n';
    const repo = gitRepo({
      'src/a.ts': source,
      'docs/pinned.md': `# Pinned\n\nLater: [src/a.ts@${sha16(later)}, L1].\n`,
      'docs/made-up.md': '# Made up\n\nSee [src/a.ts@0123456789abcdef, L1].\n',
      'docs/stale.md': '# Stale\n\nSee [src/a.ts@ffffffffffffffff, L1].\n',
      ...Object.fromEntries(
        Array.from({ length: 12 }, (_, at) => [`docs/fresh-${at}.md`, `# ${at}\n\nSee [src/a.ts@${sha16(source)}, L1].\n`]),
      ),
    });
    const env = { XDG_CACHE_HOME: tempDir(), AIWG_CITE_RESULT_CACHE_STATS: '1' };
    const formats = [['--format', 'json'], []];
    for (const args of formats) {
      await cli(['check', ...args], repo.dir, env);
      await cli(['check', ...args], repo.dir, env);
      expect(Number(ANSWERED.exec((await expectUncached(repo, env, args)).stderr)?.[1])).toBe(15);
    }
    const status = (run: CliRun) =>
      (JSON.parse(run.stdout) as { citations: { file: string; status: string }[] }).citations.find((c) => c.file === 'docs/pinned.md')
        ?.status;
    // The documents with stale pins (three of fifteen: a splice checks at most a quarter).
    const pinned = 3;
    const file = join(repo.dir, 'src/a.ts');
    const changes: [string, () => void, string][] = [
      [
        'a commit that touches no cited file',
        () => {
          repo.write({ 'notes.txt': 'unrelated\n' });
          repo.commit('unrelated');
        },
        'unknown-hash',
      ],
      [
        'the pinned version committed, then the file as it was',
        () => {
          writeFileSync(file, later);
          repo.commit('the later version');
          writeFileSync(file, source);
          repo.commit('back');
        },
        'stale',
      ],
    ];
    for (const [name, change, expected] of changes) {
      change();
      for (const args of formats) {
        const first = await expectUncached(repo, env, args);
        expect(spliced(first), `${name}, ${args.join(' ')}\n${first.stderr}`).toBe(pinned);
        if (args[1] === 'json') expect(status(first), name).toBe(expected);
        // The run the cache answers keeps the spliced answer (git's state as its lookups found it); the one after prints it.
        await expectUncached(repo, env, args);
        const third = await expectUncached(repo, env, args);
        expect(Number(ANSWERED.exec(third.stderr)?.[1]), `${name}, ${args.join(' ')}\n${third.stderr}`).toBe(15);
      }
    }
  });

  it('checks again the document that cites an edited file, whatever order the cache answered the documents in', async () => {
    // docs/a.md names a file that is not there (its lookup waits for a read) and the only citation
    // of src/z.ts; docs/b.md cites src/y.ts (answered at once): the cache meets src/z.ts after src/y.ts.
    const repo = gitRepo({
      'src/y.ts': 'y\n',
      'src/z.ts': 'z\n',
      'docs/a.md': '# A\n\nSee [src/x.ts, L1] and [src/z.ts, L1].\n',
      'docs/b.md': '# B\n\nSee [src/y.ts, L1].\n',
      ...Object.fromEntries(['c', 'd', 'e', 'f', 'g', 'h'].map((name) => [`docs/${name}.md`, `# ${name}\n\nNothing cited.\n`])),
    });
    const env = { XDG_CACHE_HOME: tempDir(), AIWG_CITE_RESULT_CACHE_STATS: '1' };
    await cli(['check', '--format', 'json'], repo.dir, env);
    await cli(['check', '--format', 'json'], repo.dir, env);
    writeFileSync(join(repo.dir, 'src/z.ts'), '');
    const run = await expectUncached(repo, env, ['--format', 'json']);
    expect(spliced(run)).toBe(1);
    expect(run.stdout).toContain('"status":"invalid-range"');
  });

  it('in a large repository takes the tree from git and stats only what git lists, with the bytes of a run without the cache after each change', async () => {
    const repo = generatedRepo(40);
    // Besides the tracked documents: an untracked one, markdown git ignores, and a document reached through a link.
    repo.write({
      '.gitignore': 'scratch/\n',
      'scratch/notes.md': '# Scratch\n\nSee [src/nowhere.ts, L1].\n',
      'docs/untracked.md': '# Untracked\n\nSee [src/m0/file0.ts, L1].\n',
    });
    symlinkSync('area0/report-0.md', join(repo.dir, 'docs/linked.md'));
    // AIWG_CITE_GIT_VIEW=on: a view whatever the size of the index.
    const env = { XDG_CACHE_HOME: tempDir(), AIWG_CITE_RESULT_CACHE_STATS: '1', AIWG_CITE_GIT_VIEW: 'on' };
    const args = ['--format', 'json'];
    const VIEWED = /git's index: the tree of the last run's answer, its (\d+) documents listed by git/;
    const viewed = (run: CliRun) => Number(VIEWED.exec(run.stderr)?.[1] ?? -1);
    const documents = (run: CliRun) => (JSON.parse(run.stdout) as { summary: { files: number } }).summary.files;
    /** Runs until a run takes the tree from git and prints the kept answer whole (at most four), each giving the uncached bytes. */
    const settle = async (name: string) => {
      for (let attempt = 0; attempt < 4; attempt += 1) {
        const run = await expectUncached(repo, env, args);
        if (viewed(run) !== -1 && ANSWERED.test(run.stderr)) return run;
      }
      throw new Error(`${name}: no run took the tree from git`);
    };
    await cli(['check', ...args], repo.dir, env);
    // Forty generated documents, the untracked one and the link (a copy the report leaves out).
    expect(viewed(await settle('the first runs'))).toBe(42);
    // Each change, whether the next run may take the tree from git (the index is the same), and how many documents it checks.
    const changes: [string, () => void, boolean, number | null][] = [
      [
        'a tracked document edited',
        () => appendFileSync(join(repo.dir, 'docs/area1/report-1.md'), '\nGone: [src/removed/a.ts, L1].\n'),
        true,
        1,
      ],
      ['a tracked document touched, its bytes the same', () => utimesSync(join(repo.dir, 'docs/area2/report-2.md'), 2e9, 2e9), true, null],
      ['a cited tracked source edited', () => writeFileSync(join(repo.dir, 'src/m0/file0.ts'), 'rewritten\n'), true, null],
      [
        'an untracked document edited',
        () => appendFileSync(join(repo.dir, 'docs/untracked.md'), '\nGone: [src/removed/b.ts, L1].\n'),
        true,
        1,
      ],
      ['a file a citation names created, untracked', () => repo.write({ 'src/removed/gone11.ts': 'here now\n' }), true, 1],
      [
        'the file a linked document leads to edited',
        () => appendFileSync(join(repo.dir, 'docs/area0/report-0.md'), '\nGone: [src/removed/c.ts, L1].\n'),
        true,
        2,
      ],
      ['markdown written where git ignores it', () => repo.write({ 'scratch/more.md': '# More\n\n[src/nowhere.ts, L1]\n' }), true, null],
      // A document that came or went: git lists it, and a splice checks or drops it.
      ['a new untracked document', () => repo.write({ 'docs/area3/new.md': '# New\n\nSee [src/m1/file1.ts, L1].\n' }), true, 1],
      ['a tracked document removed', () => rmSync(join(repo.dir, 'docs/area1/report-5.md')), true, 0],
      ['a document staged', () => repo.git('add', 'docs/area1/report-1.md'), false, null],
      ['a document git assumes unchanged', () => repo.git('update-index', '--assume-unchanged', 'docs/area2/report-6.md'), false, null],
      [
        'that document edited',
        () => appendFileSync(join(repo.dir, 'docs/area2/report-6.md'), '\nGone: [src/removed/d.ts, L1].\n'),
        true,
        1,
      ],
      ['the removed document restored', () => repo.git('checkout', '--', 'docs/area1/report-5.md'), false, null],
      [
        'a document marked skip-worktree and removed',
        () => {
          repo.git('update-index', '--skip-worktree', 'docs/area3/report-3.md');
          rmSync(join(repo.dir, 'docs/area3/report-3.md'));
        },
        false,
        null,
      ],
      // git lists no skip-worktree file, but discovery takes it when it stands in the tree (the view keeps such entries).
      [
        'that document written back',
        () => writeFileSync(join(repo.dir, 'docs/area3/report-3.md'), '# Back\n\nGone: [src/removed/e.ts, L1].\n'),
        true,
        1,
      ],
    ];
    for (const [name, change, fromGit, checked] of changes) {
      change();
      const run = await expectUncached(repo, env, args);
      expect(viewed(run) !== -1, `${name}\n${run.stderr}`).toBe(fromGit);
      if (checked !== null) expect(spliced(run), `${name}\n${run.stderr}`).toBe(checked);
      const settled = await settle(name);
      expect(viewed(settled)).toBeGreaterThanOrEqual(documents(settled));
    }
    // The report saw every change: the removed document came back, the new one is there, the ignored ones are not.
    const files = (JSON.parse((await settle('the end')).stdout) as { citations: { file: string }[] }).citations.map(
      (citation) => citation.file,
    );
    expect(files).toContain('docs/area3/new.md');
    expect(files).toContain('docs/area1/report-5.md');
    expect(files).toContain('docs/area3/report-3.md');
    expect(files.some((file) => file.startsWith('scratch/'))).toBe(false);
  });

  it('says that git has no commits yet while any document has a stale pin, the edited ones or the others', async () => {
    const repo = gitRepo();
    const source = 'export const one = 1;\n';
    const pin = `[src/one.ts@${sha16('export const two = 2;\n')}, L1]`;
    repo.write({
      'src/one.ts': source,
      'docs/a.md': `# A\n\nPinned: ${pin}.\n`,
      'docs/b.md': `# B\n\nPinned: ${pin}.\n`,
      'docs/c.md': '# C\n\nUn-versioned: [src/one.ts, L1].\n',
      'docs/d.md': '# D\n\nNothing cited.\n',
      ...Object.fromEntries(['e', 'f', 'g', 'h'].map((name) => [`docs/${name}.md`, `# ${name}\n\nNothing cited.\n`])),
    });
    const env = { XDG_CACHE_HOME: tempDir(), AIWG_CITE_RESULT_CACHE_STATS: '1' };
    const note = 'no commits yet: fabricated hashes (unknown-hash) were not checked';
    const notes = (run: CliRun) => (JSON.parse(run.stdout) as { coverage: { notes: string[] } }).coverage.notes;
    for (const args of [['--format', 'json'], []]) {
      await cli(['check', ...args], repo.dir, env);
      await cli(['check', ...args], repo.dir, env);
    }
    for (const [document, text, noted] of [
      ['docs/b.md', '# B\n\nNo pin now.\n', true],
      ['docs/a.md', '# A\n\nNo pin either.\n', false],
      ['docs/c.md', `# C\n\nPinned now: ${pin}.\n`, true],
    ] as const) {
      writeFileSync(join(repo.dir, document), text);
      const run = await expectUncached(repo, env, ['--format', 'json']);
      expect(spliced(run), document).toBe(1);
      expect(notes(run).includes(note), document).toBe(noted);
      expect(spliced(await expectUncached(repo, env, []))).toBe(1);
      // The next run, answered by the cache, keeps the spliced answer (unless git was asked of a pin).
      await expectUncached(repo, env, ['--format', 'json']);
    }
    // Parts that do not verify (a byte changed) are no parts: the run looks every document up.
    const partsFile = join(repo.dir, '.git/aiwg-cite/results/answer-json.parts');
    const bytes = readFileSync(partsFile);
    const at = bytes.indexOf(0x0a) + 5;
    bytes[at] = (bytes[at] as number) ^ 1;
    writeFileSync(partsFile, bytes);
    writeFileSync(join(repo.dir, 'docs/d.md'), '# D\n\nStill nothing cited.\n');
    const corrupt = await expectUncached(repo, env, ['--format', 'json']);
    expect(spliced(corrupt)).toBe(-1);
    expect(statsOf(corrupt)).toEqual({ hits: 7, checked: 1 });
  });

  it('builds a report whose run-level finding speaks for every document, and declines to copy JSON elements it may have changed', async () => {
    // No corpus: one `corpus/absent` warning at the first REF id, counting the ids of every document.
    const repo = gitRepo({
      'docs/a.md': '# A\n\nAs REF-001 shows.\n',
      'docs/b.md': '# B\n\nAs REF-001 says too.\n',
      ...Object.fromEntries(['c', 'd', 'e', 'f', 'g', 'h'].map((name) => [`docs/${name}.md`, `# ${name}\n\nNothing cited.\n`])),
    });
    const env = { XDG_CACHE_HOME: tempDir(), AIWG_CITE_RESULT_CACHE_STATS: '1' };
    for (const args of [['--format', 'json'], []]) {
      await cli(['check', ...args], repo.dir, env);
      await cli(['check', ...args], repo.dir, env);
    }
    writeFileSync(join(repo.dir, 'docs/b.md'), '# B\n\nAs REF-001 and REF-002 say.\n');
    const pretty = await expectUncached(repo, env, []);
    expect(spliced(pretty)).toBe(1);
    expect(pretty.stdout).toContain('REF-001, REF-002');
    // The warning stands in docs/a.md, which did not change: its kept JSON elements do not hold.
    const json = await expectUncached(repo, env, ['--format', 'json']);
    expect(spliced(json)).toBe(-1);
    expect(json.stdout).toContain('REF-001, REF-002');
  });
});

const REALWORLD = sharedCorpus('realworld', 'the shard-and-merge tests over real-world snapshots');
const AIWG = sharedCorpus('aiwg-2026.5.1', 'the shard-and-merge tests over the aiwg corpus');

describe.skipIf(REALWORLD === undefined || AIWG === undefined)('shards over real-world snapshots', { timeout: 300_000 }, () => {
  it.each(['adr', 'deep-review', 'aflack'])('%s: 3 shards merged give the full run', async (name) => {
    const dir = await snapshotRepo(REALWORLD as string, name);
    const env = { XDG_CACHE_HOME: tempDir() };
    const full = await expectShardsMerge(dir, 3, 'json', [], env);
    await expectShardsMerge(dir, 3, 'sarif', [], env);
    // The shards filled the cache: a whole warm run, and an uncached one, give the same bytes.
    expect((await cli(['check', '--format', 'json'], dir, env)).stdout).toBe(full.stdout);
    expect((await cli(['check', '--format', 'json', '--no-cache'], dir, env)).stdout).toBe(full.stdout);
  });

  it('the aiwg 2026.5.1 corpus (outside git, read in place): 4 shards merged, cached and uncached give the full run', async () => {
    // The corpus directory is read-only: the cache goes to a temporary directory.
    const env = { XDG_CACHE_HOME: tempDir(), AIWG_CITE_RESULT_CACHE: tempDir() };
    const full = await expectShardsMerge(AIWG as string, 4, 'json', ['--root', AIWG as string], env);
    expect((await cli(['check', '--format', 'json', '--root', AIWG as string], AIWG as string, env)).stdout).toBe(full.stdout);
    expect((await cli(['check', '--format', 'json', '--no-cache', '--root', AIWG as string], AIWG as string, env)).stdout).toBe(
      full.stdout,
    );
  });
});
