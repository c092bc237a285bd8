import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_ENTRY, type GitRepo, gitRepo, runCli, sha16, tempDir } from '@aiwg-cite/test-utils';
import { beforeAll, describe, expect, it } from 'vitest';

// The bin starts the commit hook's `git diff --cached` and bibliography listing before the bundle
// loads (cli/src/bin.ts); the bundle's git runner takes their output instead of running the same
// command again. Counted through a `git` on PATH that logs each command and runs the real one.

const CODE = 'export const one = 1;\nexport const two = 2;\n';
const DIFF = 'diff --cached --raw -z --no-abbrev --no-renames --ignore-submodules=all --no-ext-diff';
const LISTING = 'ls-files -z --cached --others --exclude-standard -- *.bib *.csl.json';

beforeAll(() => {
  if (!existsSync(CLI_ENTRY)) throw new Error(`build the CLI first: cd packages/cli && node build.mjs (${CLI_ENTRY} is missing)`);
});

/** A PATH whose `git` appends its arguments to `log` and runs the real git. */
function loggingGit(): { path: string; log: string } {
  const real = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
  const dir = tempDir('aiwg-cite-git-log-');
  const log = join(dir, 'log');
  writeFileSync(join(dir, 'git'), `#!/bin/sh\nprintf '%s\\n' "$*" >> "${log}"\nexec "${real}" "$@"\n`);
  chmodSync(join(dir, 'git'), 0o755);
  writeFileSync(log, '');
  return { path: `${dir}:${process.env.PATH ?? ''}`, log };
}

/** A repository with a tracked, an untracked and an ignored bibliography, a staged document and a staged change to a cited file. */
function repository(): GitRepo {
  const repo = gitRepo({
    '.gitignore': 'ignored/\n',
    'refs.bib': '@article{a, author = {Vaswani, Ashish}, year = 2017, doi = {10.5555/attention}}\n',
    'ignored/x.bib': '@article{c, doi = {10.5555/hidden}}\n',
    'src/a.ts': CODE,
    'docs/old.md': `Cites [src/a.ts@${sha16(CODE)}, L1-2].\n`,
  });
  repo.commit('initial');
  repo.write({
    'more.csl.json': JSON.stringify([{ id: 'b', DOI: '10.5555/Other', author: [{ family: 'Lewis' }], issued: { 'date-parts': [[2020]] } }]),
    'docs/new.md': 'See doi:10.5555/attention, doi:10.5555/other and doi:10.5555/hidden.\n\nCites [src/missing.ts, L1].\n',
    'src/a.ts': `${CODE}// changed\n`,
  });
  repo.git('add', 'docs/new.md', 'src/a.ts');
  return repo;
}

function commandsRun(log: string): string[] {
  return readFileSync(log, 'utf8').split('\n').filter(Boolean);
}

describe('check --staged: the git reads started by the bin', () => {
  it('are taken by the run (each command runs once) and give the report of a run without them', () => {
    const repo = repository();
    const git = loggingGit();
    // `--format=json`: every argument an option, so the bin starts its reads.
    const early = runCli(['check', '--staged', '--profile=research', '--format=json', '--no-cache'], {
      cwd: repo.dir,
      env: { PATH: git.path },
    });
    const commands = commandsRun(git.log);
    // Started before the bundle asked git anything (its first question is rev-parse).
    expect(commands.slice(0, 2).sort()).toEqual([DIFF, LISTING].sort());
    expect(commands.filter((command) => command === DIFF)).toHaveLength(1);
    expect(commands.filter((command) => command === LISTING)).toHaveLength(1);
    expect(early.stderr).toBe('');
    expect(early.code).toBe(1);
    const report = JSON.parse(early.stdout);
    expect(report.citations.map((finding: { text: string; status: string }) => `${finding.text}:${finding.status}`)).toEqual([
      '10.5555/attention:verified',
      '10.5555/other:verified',
      '10.5555/hidden:unverified',
      '[src/missing.ts, L1]:missing',
      expect.stringMatching(/^\[src\/a\.ts@[0-9a-f]{16}, L1-2\]:stale$/),
    ]);
    // A value as its own argument: the bin starts nothing, the run asks git itself.
    const plain = runCli(['check', '--staged', '--profile', 'research', '--format', 'json', '--no-cache'], { cwd: repo.dir });
    expect(plain).toEqual(early);
  });

  it('are left alone when the run asks elsewhere (from a subdirectory), with the same report', () => {
    const repo = repository();
    const git = loggingGit();
    const fromRoot = runCli(['check', '--staged', '--no-cache'], { cwd: repo.dir });
    const fromDocs = runCli(['check', '--staged', '--no-cache'], { cwd: join(repo.dir, 'docs'), env: { PATH: git.path } });
    expect(fromDocs).toEqual(fromRoot);
    expect(fromDocs.code).toBe(1);
    const commands = commandsRun(git.log);
    // The bin's two (in docs/, unused) and the run's own two (at the top level).
    expect(commands.filter((command) => command === DIFF)).toHaveLength(2);
    expect(commands.filter((command) => command === LISTING)).toHaveLength(2);
  });
});
