import { RULE_LIST } from '@aiwg-cite/core';
import { runCli, tempDir } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';

describe('aiwg-cite rules and explain', () => {
  it('rules lists every registered rule with severity, confidence and fixable', () => {
    const run = runCli(['rules'], { cwd: tempDir() });
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^rule\s+severity\s+confidence\s+fixable\s+needs\s+description$/);
    expect(lines.slice(1).map((line) => line.split(/\s+/)[0])).toEqual(RULE_LIST.map((rule) => rule.id));
    expect(lines.find((line) => line.startsWith('rlm/stale '))).toMatch(
      /^rlm\/stale\s+warning\s+certain\s+yes\s+-\s+the cited file changed/,
    );
    expect(lines.find((line) => line.startsWith('url/dead '))).toMatch(/\s+error\s+certain\s+no\s+online\s+/);
  });

  it('rules --format json gives every rule and its metadata', () => {
    const run = runCli(['rules', '--format', 'json'], { cwd: tempDir() });
    expect(run.code).toBe(0);
    const { rules } = JSON.parse(run.stdout) as { rules: { id: string; confidence: string; aliases: string[] }[] };
    expect(rules.map((rule) => rule.id)).toEqual(RULE_LIST.map((rule) => rule.id));
    expect(rules.find((rule) => rule.id === 'ref/not-in-corpus')?.aliases).toEqual(['ref/missing']);
  });

  it('explain rlm/stale prints the help and both examples', () => {
    const run = runCli(['explain', 'rlm/stale'], { cwd: tempDir() });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^rlm\/stale: the cited file changed since the citation was written\n/);
    expect(run.stdout).toContain('aiwg-cite stamp');
    expect(run.stdout).toContain('Raises it:\n\n    See `[src/auth.ts@0000000000000000, L10-24]`');
    expect(run.stdout).toContain('Passes:\n\n    See `[src/auth.ts@3f2a9c1d0b8e7f65, L10-24]`.');
    expect(run.stdout).toContain('#rule-rlm-stale');
  });

  it('explain of a renamed id explains the current rule and says it is deprecated', () => {
    const run = runCli(['explain', 'rlm/range'], { cwd: tempDir() });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^rlm\/invalid-range: /);
    expect(run.stderr).toBe('aiwg-cite: `rlm/range` is deprecated: renamed to `rlm/invalid-range`, the status it reports\n');
  });

  it('explain of an unknown id exits 2 with the nearest id', () => {
    const run = runCli(['explain', 'statistics/unsourced'], { cwd: tempDir() });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'aiwg-cite: explain: unknown rule `statistics/unsourced`; did you mean `statistic/unsourced`? (run `aiwg-cite rules` for the list)\n',
    );
    expect(run.stdout).toBe('');
  });
});
