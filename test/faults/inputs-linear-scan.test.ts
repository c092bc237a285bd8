/**
 * Issue 15 item 12: every pattern that sees document text is linear. One document per
 * pathological shape (a 100 KB line of one character or unit, as a pull request could bring), each
 * checked by the real CLI with the scholarly checks: before the fix, runs of `.`, `?`, `[`, `“`,
 * `[a](` and `](` followed by blanks each took minutes. The bound here is generous (a loaded CI
 * machine); the 1 MB timings are in `pnpm bench` (bench/pathological.bench.mjs).
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_ENTRY, tempDir } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';

const SHAPES: readonly [string, string, string][] = [
  ['dots', '.', 'x'],
  ['question marks', '?', 'x'],
  ['open brackets', '[', 'x'],
  ['curly quotes', '\u201c', 'x'],
  ['unclosed links', '[a', '](x'],
  ['blanks after a link', ' ', 'x'],
  ['blanks opening a paragraph line', ' ', 'x'],
];
const LINE = 100 * 1024;

/** The real CLI checks `doc.md` in `dir` within the bound and prints its JSON report. */
function expectCheckedInTime(dir: string, args: readonly string[] = []): void {
  const result = spawnSync(process.execPath, [CLI_ENTRY, 'check', 'doc.md', '--root', '.', ...args, '--format', 'json'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...process.env, NO_COLOR: '1' },
  });
  expect(result.signal).toBeNull();
  expect([0, 1]).toContain(result.status);
  expect(JSON.parse(result.stdout).summary).toBeDefined();
}

describe('inputs-linear-scan', () => {
  it.each(SHAPES)('a 100 KB line of %s checks in seconds', (name, unit, tail) => {
    const dir = tempDir();
    const prefix = name === 'blanks after a link' ? '[a](' : name === 'blanks opening a paragraph line' ? '\n' : '';
    const line = `Smith et al. (2020) found ${prefix}${unit.repeat(Math.ceil(LINE / unit.length))}${tail} (doi:10.1234/x).\n`;
    writeFileSync(join(dir, 'doc.md'), `# Shape\n\n${line}\nLee (2021) agrees.\n`);
    expectCheckedInTime(dir);
  });

  // Numbers the statistic check passes over one by one (a chart's line, splits, parenthesised
  // lists): each test reads a window around its number, so a 400 KB sentence of them takes well
  // under a second; a test that read the whole sentence per number took minutes.
  it.each([
    ['a chart line of percentages', '\u2588 5% '],
    ['splits', '50%/50% '],
    ['percentages in parentheses', '(5%, 6%) '],
    ['a condition', 'when 5% '],
  ])('a 400 KB sentence of %s checks in seconds', (_name, unit) => {
    const dir = tempDir();
    writeFileSync(join(dir, 'doc.md'), `# Shape\n\n${unit.repeat(Math.ceil((400 * 1024) / unit.length))}\n`);
    expectCheckedInTime(dir, ['--profile', 'research']);
  });
});
