import { spawnSync } from 'node:child_process';
import { CLI_ENTRY, GIT_ENV, gitRepo, PROJECT_ROOT, runCli, tempDir, writeTree } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../src/commands/registry.ts';
import { main } from '../src/main.ts';
import { closest } from '../src/suggest.ts';

describe('did you mean', () => {
  it('suggests the nearest command and option, and nothing for a word that is not a typo', () => {
    const dir = tempDir();
    const command = runCli(['chek'], { cwd: dir });
    expect(command.stderr).toBe('aiwg-cite: unknown command `chek` (did you mean `check`?); run `aiwg-cite --help`\n');
    expect(command.code).toBe(2);
    const option = runCli(['check', '--stagd'], { cwd: dir });
    expect(option.stderr).toBe("aiwg-cite: check: Unknown option '--stagd' (did you mean `--staged`?); run `aiwg-cite check --help`\n");
    expect(option.code).toBe(2);
    expect(runCli(['deploy'], { cwd: dir }).stderr).toBe('aiwg-cite: unknown command `deploy`; run `aiwg-cite --help`\n');
    // A one-letter flag is no typo of another one letter: only a long option with that initial.
    expect(runCli(['check', '-f', 'json'], { cwd: dir }).stderr).toBe(
      "aiwg-cite: check: Unknown option '-f'; run `aiwg-cite check --help`\n",
    );
    expect(runCli(['stamp', '-d'], { cwd: dir }).stderr).toBe(
      "aiwg-cite: stamp: Unknown option '-d' (did you mean `--dry-run`?); run `aiwg-cite stamp --help`\n",
    );
    expect(closest('wacth', ['watch', 'check'])).toBe('watch');
    expect(closest('x', ['watch', 'check'])).toBeUndefined();
  });
});

describe('help', () => {
  it('`help CMD` prints what `CMD --help` prints, for every command', async () => {
    const dir = tempDir();
    const capture = async (argv: readonly string[]) => {
      let stdout = '';
      const code = await main(argv, {
        cwd: dir,
        env: { NO_COLOR: '1' },
        stdout: { write: (text: string) => (stdout += text) },
        stderr: { write: () => true },
      });
      return { code, stdout };
    };
    for (const name of Object.keys(COMMANDS)) {
      const viaHelp = await capture(['help', name]);
      const viaFlag = await capture([name, '--help']);
      expect(viaHelp.stdout, name).toBe(viaFlag.stdout);
      expect(viaHelp.stdout, name).toMatch(new RegExp(`^Usage: aiwg-cite ${name}\\b`));
      expect(viaHelp.code).toBe(0);
    }
  });
});

describe('colour', () => {
  it('--no-color wins over FORCE_COLOR; FORCE_COLOR colours a pipe', () => {
    const dir = tempDir();
    writeTree(dir, { 'doc.md': 'See [missing.ts, L1].\n' });
    const forced = runCli(['check'], { cwd: dir, env: { NO_COLOR: undefined, FORCE_COLOR: '1' } });
    expect(forced.stdout).toContain('\u001b[');
    const off = runCli(['check', '--no-color'], { cwd: dir, env: { NO_COLOR: undefined, FORCE_COLOR: '1' } });
    expect(off.stdout).not.toContain('\u001b[');
    expect(off.code).toBe(forced.code);
    const env = runCli(['check'], { cwd: dir, env: { NO_COLOR: '1', FORCE_COLOR: undefined } });
    expect(env.stdout).toBe(off.stdout);
  });
});

describe('a reader that closes early', () => {
  it('ends quietly with the exit code of the run: 0 for help, 1 for a failing check', () => {
    // The CLI's stdout is a pipe that closes after one byte; bash reports the CLI's own status.
    const run = (args: readonly string[]) => {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a bash script, not a template
      const result = spawnSync('bash', ['-c', 'node "$0" "$@" | head -c 1 >/dev/null; exit "${PIPESTATUS[0]}"', CLI_ENTRY, ...args], {
        cwd: PROJECT_ROOT,
        env: { ...process.env, ...GIT_ENV, NO_COLOR: '1' },
        encoding: 'utf8',
      });
      return { code: result.status, stderr: result.stderr };
    };
    const help = run(['help']);
    expect(help.stderr).toBe('');
    expect(help.code).toBe(0);
    const failing = run(['check', '--root', 'examples/rlm-demo', '--format', 'json']);
    expect(failing.stderr).toBe('');
    expect(failing.code).toBe(1);
  });
});

describe('without git on PATH', () => {
  it('says git is missing where a command needs it, and checks a checkout as a plain directory with a note', () => {
    const repo = gitRepo({ 'doc.md': 'See [src/a.ts, L1].\n', 'src/a.ts': 'a\n' });
    const env = { PATH: tempDir('aiwg-cite-no-git-') };
    for (const [args, what] of [
      [['check', '--staged'], 'check --staged'],
      [['check', '--changed'], '--changed'],
      [['init'], 'init'],
      [['blame', 'doc.md'], 'blame'],
    ] as const) {
      const run = runCli(args, { cwd: repo.dir, env });
      expect(run.stderr, what).toBe(`aiwg-cite: ${repo.dir}: ${what} needs git, which is not installed or not on PATH\n`);
      expect(run.code).toBe(2);
    }
    const check = runCli(['check'], { cwd: repo.dir, env });
    expect(check.code).toBe(0);
    expect(check.stdout).toContain('git is not installed or not on PATH: checked as a plain directory');
    // Outside any checkout nothing is said.
    const plain = tempDir();
    writeTree(plain, { 'doc.md': 'Plain.\n' });
    expect(runCli(['check'], { cwd: plain, env }).stdout).not.toContain('git is not installed');
  });
});
