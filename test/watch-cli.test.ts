/**
 * `aiwg-cite watch` as a real process without a terminal: one plain line per change of verdict,
 * a summary line at the start, clean exits on SIGINT and SIGTERM, usage errors exit 2; and the
 * bundle keeps ink, React and chokidar off `check`'s path. Needs the built CLI.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CLI_ENTRY, GIT_ENV, gitRepo, runCli, sha16, tempDir, writeTree } from '@aiwg-cite/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';

const A1 = 'export const a = 1;\n';

interface Watching {
  readonly child: ChildProcess;
  readonly stdout: string[];
  readonly stderr: string[];
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function startWatch(cwd: string, args: string[] = [], extraEnv: Record<string, string> = {}): Watching {
  const child = spawn(process.execPath, [CLI_ENTRY, 'watch', ...args], {
    cwd,
    env: { ...process.env, ...GIT_ENV, NO_COLOR: '1', FORCE_COLOR: undefined, ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  const collect = (into: string[]) => {
    let partial = '';
    return (chunk: Buffer) => {
      partial += chunk.toString('utf8');
      const lines = partial.split('\n');
      partial = lines.pop() ?? '';
      into.push(...lines);
    };
  };
  child.stdout?.on('data', collect(stdout));
  child.stderr?.on('data', collect(stderr));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return { child, stdout, stderr, exit };
}

async function waitForLine(lines: string[], predicate: (line: string) => boolean, deadlineMs = 15_000): Promise<string> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const found = lines.find(predicate);
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`no matching line within ${deadlineMs} ms; got:\n${lines.join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function waitFor(condition: () => boolean, deadlineMs = 15_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not so within ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function project() {
  return gitRepo({
    'src/a.ts': A1,
    'docs/guide.md': `# Guide\n\nSee [src/a.ts@${sha16(A1)}, L1] and [src/gone.ts, L1].\n`,
  });
}

describe('aiwg-cite watch without a terminal', () => {
  it('prints a summary, then one line per change of verdict, and stops cleanly on SIGTERM', async () => {
    const repo = project();
    const watching = startWatch(repo.dir);
    const summary = await waitForLine(watching.stdout, (line) => line.startsWith('FAIL: '));
    expect(summary).toMatch(/^FAIL: Fresh 1 {2}Stale 0 {2}Un-versioned 0 {2}Missing 1 in 1 document \(\d+ ms\)$/);
    expect(watching.stderr).toContain(`watching ${repo.dir} (Ctrl-C to stop)`);

    const temporary = join(repo.dir, 'src/.a.ts.swp');
    writeFileSync(temporary, `${A1}// edited\n`);
    renameSync(temporary, join(repo.dir, 'src/a.ts'));
    const stale = `docs/guide.md:3:5 FRESH -> STALE [src/a.ts@${sha16(A1)}, L1]`;
    await waitForLine(watching.stdout, (line) => line === stale);

    writeFileSync(join(repo.dir, 'src/gone.ts'), 'back\n');
    await waitForLine(watching.stdout, (line) => line === 'docs/guide.md:3:41 MISSING -> UN-VERSIONED [src/gone.ts, L1]');

    writeFileSync(join(repo.dir, 'src/a.ts'), A1);
    await waitForLine(watching.stdout, (line) => line === `docs/guide.md:3:5 STALE -> FRESH [src/a.ts@${sha16(A1)}, L1]`);
    await waitForLine(watching.stdout, (line) => /^PASS: Fresh 1 {2}Stale 0 {2}Un-versioned 1 {2}Missing 0 in 1 document/.test(line));

    watching.child.kill('SIGTERM');
    expect(await watching.exit).toEqual({ code: 0, signal: null });
    // Every line is a summary or a verdict change: nothing else reaches stdout.
    for (const line of watching.stdout) expect(line).toMatch(/^(PASS|FAIL): |^docs\/guide\.md:\d+:\d+ \S+ -> \S+ \[/);
  });

  it('works outside git too: documents found by walking the tree', async () => {
    const dir = tempDir();
    writeTree(dir, { 'src/a.ts': A1, 'notes/guide.md': `See [src/a.ts@${sha16(A1)}, L1].\n` });
    const watching = startWatch(dir, ['--no-tui'], { GIT_CEILING_DIRECTORIES: dirname(dir) });
    await waitForLine(watching.stdout, (line) => line.startsWith('PASS: Fresh 1 '));
    writeFileSync(join(dir, 'src/a.ts'), `${A1}// edited\n`);
    await waitForLine(watching.stdout, (line) => line === `notes/guide.md:1:5 FRESH -> STALE [src/a.ts@${sha16(A1)}, L1]`);
    writeFileSync(join(dir, 'notes/more.md'), `More [src/a.ts, L1].\n`);
    await waitForLine(watching.stdout, (line) => line === 'notes/more.md:1:6 (none) -> UN-VERSIONED [src/a.ts, L1]');
    watching.child.kill('SIGINT');
    expect(await watching.exit).toEqual({ code: 0, signal: null });
  });

  it('speaks NDJSON with --format ndjson', async () => {
    const repo = project();
    const watching = startWatch(repo.dir, ['--format', 'ndjson']);
    const first = JSON.parse(await waitForLine(watching.stdout, (line) => line.includes('"type":"summary"')));
    expect(first).toMatchObject({
      type: 'summary',
      reason: 'load',
      verdict: 'FAIL',
      documents: 1,
      summary: { rlm: { fresh: 1, missing: 1 } },
    });
    writeFileSync(join(repo.dir, 'src/a.ts'), `${A1}// edited\n`);
    const change = JSON.parse(await waitForLine(watching.stdout, (line) => line.includes('"type":"change"')));
    expect(change).toEqual({
      type: 'change',
      file: 'docs/guide.md',
      line: 3,
      column: 5,
      kind: 'rlm',
      text: `[src/a.ts@${sha16(A1)}, L1]`,
      before: 'fresh',
      after: 'stale',
    });
    await waitForLine(watching.stdout, (line) => line.includes('"reason":"change"') && line.includes('"stale":1'));
    for (const line of watching.stdout) expect(() => JSON.parse(line)).not.toThrow();
    watching.child.kill('SIGTERM');
    expect(await watching.exit).toEqual({ code: 0, signal: null });
  });

  it('reads a configuration named by --config again when it changes, and answers check --rlm by it', async () => {
    const repo = project();
    writeTree(repo.dir, { 'ci/aiwg.json': '{}\n' });
    const watching = startWatch(repo.dir, ['--config', 'ci/aiwg.json']);
    await waitForLine(watching.stdout, (line) => /^FAIL: Fresh 1 .*Missing 1 in 1 document/.test(line));
    // Watching (it answers), and past its first look at the settings: the edit is an event of its own.
    await waitFor(() => existsSync(join(repo.dir, '.git/aiwg-cite/watch.sock')));
    await new Promise((resolve) => setTimeout(resolve, 500));
    writeFileSync(join(repo.dir, 'ci/aiwg.json'), '{"rules": {"rlm/missing": "warning"}}\n');
    await waitForLine(watching.stdout, (line) => /^PASS: Fresh 1 .*Missing 1 in 1 document/.test(line));
    const served = runCli(['check', '--rlm', '--config', 'ci/aiwg.json'], { cwd: repo.dir, env: { AIWG_CITE_WATCH: 'trace' } });
    expect(served.stderr).toBe('aiwg-cite: answered by the running watch\n');
    expect(served.stdout).toBe(runCli(['check', '--rlm', '--no-watch', '--config', 'ci/aiwg.json'], { cwd: repo.dir }).stdout);
    expect(served.code).toBe(0);
    watching.child.kill('SIGTERM');
    expect((await watching.exit).code).toBe(0);
  });

  it('stops with exit code 0 on SIGINT', async () => {
    const repo = project();
    const watching = startWatch(repo.dir, ['--no-tui']);
    await waitForLine(watching.stdout, (line) => line.startsWith('FAIL: '));
    watching.child.kill('SIGINT');
    expect(await watching.exit).toEqual({ code: 0, signal: null });
  });

  it('rejects an unknown flag and a missing path with exit code 2', () => {
    const repo = project();
    const flag = runCli(['watch', '--bogus'], { cwd: repo.dir });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain("Unknown option '--bogus'");
    const path = runCli(['watch', 'nope.md'], { cwd: repo.dir });
    expect(path.code).toBe(2);
    expect(path.stderr).toBe('aiwg-cite: nope.md: no such file or directory\n');
    const format = runCli(['watch', '--format', 'xml'], { cwd: repo.dir });
    expect(format.code).toBe(2);
    expect(format.stderr).toBe('aiwg-cite: watch: --format must be one of lines, ndjson, not `xml`\n');
    const help = runCli(['watch', '--help'], { cwd: repo.dir });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--no-tui');
  });

  it('keeps ink, React and chokidar off the static import graph of `check`', () => {
    // The libraries are bundled into dist/chunks (the package installs with no dependencies);
    // esbuild marks each bundled module with a `// …/node_modules/…/<name>@…` comment.
    const heavy = ['ink', 'react', 'react-reconciler', 'chokidar', 'yoga-layout', 'ink-testing-library'];
    const bundled = new RegExp(`node_modules/(?:\\.pnpm/)?(?:${heavy.join('|')})[@/]`);
    const seen = new Set<string>();
    const bare = new Set<string>();
    const lazy: string[] = [];
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const source = readFileSync(file, 'utf8');
      expect(bundled.exec(source)?.[0], file).toBeUndefined();
      // The entry imports the CLI lazily (after turning on the compile cache), and the CLI imports `check`.
      for (const match of source.matchAll(/import\("(\.\/(?:chunks\/)?(?:main|check)-[^"]+)"\)/g))
        lazy.push(join(dirname(file), match[1] as string));
      // Static imports only: `import … from "x"` and `import "x"`; dynamic `import("x")` is lazy.
      for (const match of source.matchAll(/(?:^|[;\n])\s*(?:import|export)\s*(?:[^'"();]*?\sfrom\s*)?["']([^"']+)["']/g)) {
        const specifier = match[1] as string;
        if (specifier.startsWith('.')) visit(join(dirname(file), specifier));
        else bare.add(specifier);
      }
    };
    visit(CLI_ENTRY);
    for (let index = 0; index < lazy.length; index += 1) visit(lazy[index] as string);
    expect(lazy.map((file) => /(main|check)-[^/]*$/.exec(file)?.[1])).toEqual(['main', 'check']);
    expect(seen.size).toBeGreaterThan(2);
    expect([...bare].filter((name) => heavy.some((heavyName) => name === heavyName || name.startsWith(`${heavyName}/`)))).toEqual([]);
    // The watch chunk does bundle ink: the marker this test looks for is really there.
    const all = readdirSync(join(dirname(CLI_ENTRY), 'chunks')).map((name) =>
      readFileSync(join(dirname(CLI_ENTRY), 'chunks', name), 'utf8'),
    );
    expect(all.some((source) => bundled.test(source))).toBe(true);
  });
});

describe('aiwg-cite watch --scholarly', () => {
  const files = {
    'docs/references/REF-001-real.md': '# REF-001: A real paper\n\n**Authors**: Smith, J.\n**Year**: 2020\n',
    'src/a.ts': A1,
    'notes.md': `# Notes\n\nSee REF-001 and REF-999 for details [src/a.ts@${sha16(A1)}, L1].\n`,
  };

  it("runs check's corpus checks too: a fabricated REF id is another kind's error until it is removed", async () => {
    const repo = gitRepo(files);
    const watching = startWatch(repo.dir, ['--scholarly']);
    const summary = await waitForLine(watching.stdout, (line) => line.startsWith('FAIL: '));
    expect(summary).toMatch(
      /^FAIL: Fresh 1 {2}Stale 0 {2}Un-versioned 0 {2}Missing 0 {2}Other errors 1 {2}Other warnings 0 in 2 documents/,
    );
    writeFileSync(join(repo.dir, 'notes.md'), `# Notes\n\nSee REF-001 for details [src/a.ts@${sha16(A1)}, L1].\n`);
    await waitForLine(watching.stdout, (line) => line === 'notes.md:3:17 NOT-IN-CORPUS -> (none) REF-999');
    await waitForLine(watching.stdout, (line) => line.startsWith('PASS: Fresh 1'));
    watching.child.kill('SIGTERM');
    expect((await watching.exit).code).toBe(0);
  });

  it('an @-mention follows its target: found once the file is written, missing again once it is removed', async () => {
    const repo = gitRepo({ 'docs/a.md': '# A\n\nThe parser is in @src/parse.ts and the notes @notes.md beside this file.\n' });
    const watching = startWatch(repo.dir, ['--scholarly']);
    const summary = await waitForLine(watching.stdout, (line) => line.startsWith('PASS: '));
    expect(summary).toMatch(/Other warnings 2 in 1 document/);
    // A folder that did not exist, then the file in it; then a file beside the document.
    writeTree(repo.dir, { 'src/parse.ts': 'export {};\n' });
    await waitForLine(watching.stdout, (line) => line === 'docs/a.md:3:18 MISSING -> FOUND @src/parse.ts');
    writeTree(repo.dir, { 'docs/notes.md': '# Notes\n' });
    await waitForLine(watching.stdout, (line) => line === 'docs/a.md:3:46 MISSING -> FOUND @notes.md');
    rmSync(join(repo.dir, 'src/parse.ts'));
    await waitForLine(watching.stdout, (line) => line === 'docs/a.md:3:18 FOUND -> MISSING @src/parse.ts');
    // The summary follows the line of the change, maybe read a moment later (no earlier summary has these counts).
    await waitForLine(watching.stdout, (line) => /Other warnings 1 in 2 documents/.test(line));
    // What check says of the same tree.
    const check = runCli(['check', '--format', 'json'], { cwd: repo.dir });
    const report = JSON.parse(check.stdout) as { citations: { text: string; status: string }[] };
    expect(report.citations.map((citation) => `${citation.text} ${citation.status}`)).toEqual(['@src/parse.ts missing', '@notes.md found']);
    watching.child.kill('SIGTERM');
    expect((await watching.exit).code).toBe(0);
  });

  it('reads the corpus and the configuration again when they change, a git-ignored corpus too, and answers check by them', async () => {
    const repo = gitRepo({
      '.gitignore': '.aiwg/\n',
      'aiwg-cite.config.json': '{"corpus": [".aiwg/research/sources"]}\n',
      '.aiwg/research/sources/REF-001-real.md': '# REF-001: A real paper\n\n**Authors**: Smith, J.\n**Year**: 2020\n',
      'notes.md': '# Notes\n\nSee REF-001 and REF-002 for details.\n',
    });
    const watching = startWatch(repo.dir, ['--scholarly']);
    await waitForLine(watching.stdout, (line) => /^FAIL: .*Other errors 1 {2}Other warnings 0 in 1 document/.test(line));
    // Watching (it answers), and past its first look at the settings: each edit is an event of its own.
    await waitFor(() => existsSync(join(repo.dir, '.git/aiwg-cite/watch.sock')));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const checked = (...args: string[]) => {
      const served = runCli(['check', ...args], { cwd: repo.dir, env: { AIWG_CITE_WATCH: 'trace' } });
      const alone = runCli(['check', '--no-watch', ...args], { cwd: repo.dir });
      expect(served.stderr).toBe('aiwg-cite: answered by the running watch\n');
      expect(served.stdout).toBe(alone.stdout);
      return served;
    };
    // A source written into the ignored corpus root: the id is found.
    writeTree(repo.dir, { '.aiwg/research/sources/REF-002-other.md': '# REF-002: Another\n\n**Authors**: Doe, A.\n**Year**: 2021\n' });
    await waitForLine(watching.stdout, (line) => line === 'notes.md:3:17 NOT-IN-CORPUS -> FOUND REF-002');
    await waitForLine(watching.stdout, (line) => /^PASS: .*Other errors 0 {2}Other warnings 0 in 1 document/.test(line));
    expect(checked('--format', 'json').code).toBe(0);
    // A configuration that does not read: said once, and the watch keeps what it had.
    writeFileSync(join(repo.dir, 'aiwg-cite.config.json'), '{"corpus": [".aiwg/research/sources"], "rulez": {}}\n');
    await waitForLine(watching.stderr, (line) => line.includes('unknown key `rulez`'));
    // A configuration that reads again, then the source removed: the id is not found.
    writeFileSync(join(repo.dir, 'aiwg-cite.config.json'), '{"corpus": [".aiwg/research/sources"]}\n');
    await new Promise((resolve) => setTimeout(resolve, 300));
    rmSync(join(repo.dir, '.aiwg/research/sources/REF-002-other.md'));
    await waitForLine(watching.stdout, (line) => line === 'notes.md:3:17 FOUND -> NOT-IN-CORPUS REF-002');
    // A severity the configuration lowers: no verdict changes, the summary does.
    writeFileSync(
      join(repo.dir, 'aiwg-cite.config.json'),
      '{"corpus": [".aiwg/research/sources"], "rules": {"ref/not-in-corpus": "warning"}}\n',
    );
    await waitForLine(watching.stdout, (line) => /^PASS: .*Other errors 0 {2}Other warnings 1 in 1 document/.test(line));
    expect(watching.stderr.filter((line) => line.includes('unknown key'))).toHaveLength(1);
    expect(checked().stdout).toMatch(/PASS \(0 errors, 1 warning\)/);
    watching.child.kill('SIGTERM');
    expect((await watching.exit).code).toBe(0);
  });

  it('without --scholarly only code citations count, and --corpus alone is a usage error', async () => {
    const repo = gitRepo(files);
    const watching = startWatch(repo.dir);
    const summary = await waitForLine(watching.stdout, (line) => line.startsWith('PASS: '));
    expect(summary).toMatch(/^PASS: Fresh 1 {2}Stale 0 {2}Un-versioned 0 {2}Missing 0 in 2 documents/);
    watching.child.kill('SIGTERM');
    await watching.exit;
    const usage = runCli(['watch', '--corpus', 'docs/references'], { cwd: repo.dir });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toBe('aiwg-cite: watch: --corpus applies only with --scholarly; run `aiwg-cite watch --help`\n');
  });
});
