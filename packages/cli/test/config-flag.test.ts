import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runCli, tempDir } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';

/** A project whose one document cites a statistic without a source (a heuristic warning under `--profile research`). */
function project(files: Record<string, string>): string {
  const dir = tempDir();
  for (const [path, text] of Object.entries({ 'paper.md': 'Uptake rose by 47% in 2024.\n', ...files })) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

function rulesOf(stdout: string): string[] {
  return (JSON.parse(stdout) as { citations: { rule: string; severity: string }[] }).citations.map(
    (finding) => `${finding.rule}:${finding.severity}`,
  );
}

const CHECK = ['check', '--root', '.', '--format', 'json', '--profile', 'research', '--no-history'];

describe('--config PATH (issue 16 item 5)', () => {
  it('reads the named file instead of the root one, before or after the command, relative to the working directory', () => {
    const dir = project({
      'aiwg-cite.config.json': '{"rules": {"statistic/unsourced": "error"}}',
      'ci/quiet.json': '{"rules": {"statistic/unsourced": "off"}}',
    });
    const plain = runCli(CHECK, { cwd: dir });
    expect(rulesOf(plain.stdout)).toEqual(['statistic/unsourced:error']);
    const before = runCli(['--config', 'ci/quiet.json', ...CHECK], { cwd: dir });
    expect(before.stderr).toBe('');
    expect(rulesOf(before.stdout)).toEqual([]);
    const after = runCli([...CHECK, '--config=ci/quiet.json'], { cwd: dir });
    expect(rulesOf(after.stdout)).toEqual([]);
    expect(after.code).toBe(0);
  });

  it('reads the "aiwg-cite" key of a package.json named by --config', () => {
    const dir = project({
      'elsewhere/package.json': JSON.stringify({ name: 'x', 'aiwg-cite': { rules: { 'statistic/unsourced': 'info' } } }),
    });
    const run = runCli([...CHECK, '--config', 'elsewhere/package.json'], { cwd: dir });
    expect(rulesOf(run.stdout)).toEqual(['statistic/unsourced:info']);
  });

  it.each([
    ['missing.json', null, 'aiwg-cite: missing.json: no such file (named by --config)\n'],
    [
      'ci/bad.json',
      '{"rules": {"statistics/unsourced": "off"}}',
      /^aiwg-cite: ci\/bad\.json: `rules`: unknown rule `statistics\/unsourced`; did you mean `statistic\/unsourced`\?/,
    ],
    ['ci/broken.json', '{', /^aiwg-cite: ci\/broken\.json: not valid JSON \(/],
    ['ci/package.json', '{"name": "x"}', 'aiwg-cite: ci/package.json: has no "aiwg-cite" key to read the configuration from\n'],
  ])('exits 2 with one line naming the file: %s', (name, text, expected) => {
    const dir = project(text === null ? {} : { [name]: text });
    const run = runCli([...CHECK, '--config', name], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    if (typeof expected === 'string') expect(run.stderr).toBe(expected);
    else expect(run.stderr).toMatch(expected);
    expect(run.stderr.split('\n').filter((line) => line !== '')).toHaveLength(1);
  });

  it('needs a path', () => {
    const run = runCli(['check', '--config'], { cwd: tempDir() });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('aiwg-cite: --config takes a path to a configuration file, such as `--config ci/aiwg-cite.json`\n');
  });

  it('leaves an argument after -- alone', () => {
    const dir = project({ 'ci/quiet.json': '{"rules": {"statistic/unsourced": "off"}}' });
    const run = runCli([...CHECK, '--', '--config'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--config/);
    expect(run.stderr).not.toMatch(/takes a path/);
  });
});
