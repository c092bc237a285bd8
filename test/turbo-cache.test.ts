import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_ENTRY, GIT_ENV, gitRepo, PROJECT_ROOT, sha16, tempDir } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';

/**
 * Issue 18: `aiwg-cite check` as a turbo task with declared inputs and outputs, run by turbo
 * itself (the devDependency), offline, in a temporary repository: turbo's cache skips a run whose
 * markdown, cited sources, configuration and environment did not change, and restores the report.
 * The turbo.json is the README's ("Large repositories and CI").
 */
const TURBO = join(PROJECT_ROOT, 'node_modules', '.bin', 'turbo');

const TURBO_JSON = `{
  "tasks": {
    "cite": {
      "inputs": ["**/*.md", "src/**", "aiwg-cite.config.json", ".aiwg/research/**"],
      "outputs": ["aiwg-cite-report.json"],
      "env": ["AIWG_CITE_DATE", "AIWG_CITE_STRICT"]
    }
  }
}
`;

describe.skipIf(!existsSync(TURBO))('a turbo task for aiwg-cite check', () => {
  it('is the turbo.json the README shows', () => {
    const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
    expect(readme).toContain(`\`\`\`json\n${TURBO_JSON}\`\`\``);
    expect(readme).toContain('"cite": "aiwg-cite check --format json > aiwg-cite-report.json"');
  });

  it('runs once, then replays from turbo’s cache until an input changes', () => {
    const source = 'export const answer = 42;\n';
    const repo = gitRepo({
      'src/answer.ts': source,
      'docs/guide.md': `# Guide\n\nThe answer is defined in [src/answer.ts@${sha16(source)}, L1].\n`,
      'notes.txt': 'not an input\n',
      'turbo.json': TURBO_JSON,
      '.gitignore': 'node_modules\n.turbo\naiwg-cite-report.json\n',
      'package.json': JSON.stringify(
        {
          name: 'docs-site',
          private: true,
          packageManager: 'npm@10.9.0',
          scripts: { cite: `node ${JSON.stringify(CLI_ENTRY)} check --format json > aiwg-cite-report.json` },
        },
        null,
        2,
      ),
    });
    const userCache = tempDir();
    const turbo = (env: Record<string, string> = {}) => {
      const result = spawnSync(TURBO, ['run', 'cite', '--output-logs=hash-only'], {
        cwd: repo.dir,
        env: {
          ...process.env,
          ...GIT_ENV,
          TURBO_TELEMETRY_DISABLED: '1',
          TURBO_NO_UPDATE_NOTIFIER: '1',
          DO_NOT_TRACK: '1',
          XDG_CACHE_HOME: userCache,
          AIWG_CITE_DATE: '2026-11-22',
          ...env,
        },
        encoding: 'utf8',
      });
      expect(result.status, result.stderr + result.stdout).toBe(0);
      const out = result.stdout + result.stderr;
      if (/cache hit/.test(out)) return 'hit';
      if (/cache miss/.test(out)) return 'miss';
      throw new Error(`turbo said neither hit nor miss:\n${out}`);
    };
    const reportPath = join(repo.dir, 'aiwg-cite-report.json');
    const report = () => JSON.parse(readFileSync(reportPath, 'utf8')) as { verdict: string; summary: { warnings: number } };

    expect(turbo()).toBe('miss');
    const first = readFileSync(reportPath, 'utf8');
    expect(report().verdict).toBe('PASS');
    // The output is restored from the cache, byte for byte.
    rmSync(reportPath);
    expect(turbo()).toBe('hit');
    expect(readFileSync(reportPath, 'utf8')).toBe(first);
    // A file that is no input changes nothing.
    appendFileSync(join(repo.dir, 'notes.txt'), 'more\n');
    expect(turbo()).toBe('hit');
    // A cited source changed: the task runs again and sees the stale citation.
    appendFileSync(join(repo.dir, 'src/answer.ts'), '// moved on\n');
    expect(turbo()).toBe('miss');
    expect(report().summary.warnings).toBe(1);
    expect(turbo()).toBe('hit');
    // The markdown, the configuration and the declared environment are inputs too.
    appendFileSync(join(repo.dir, 'docs/guide.md'), '\nOne more line.\n');
    expect(turbo()).toBe('miss');
    writeFileSync(join(repo.dir, 'aiwg-cite.config.json'), '{"rules": {"rlm/stale": "off"}}\n');
    expect(turbo()).toBe('miss');
    expect(report().summary.warnings).toBe(0);
    expect(turbo({ AIWG_CITE_STRICT: '1' })).toBe('miss');
    expect(turbo({ AIWG_CITE_STRICT: '1' })).toBe('hit');
  }, 300_000);
});
