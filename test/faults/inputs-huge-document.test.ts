/**
 * Issue 15 item 13: no recursion or argument spread that grows with the input. One document with
 * 150,000 code citations (one finding each) overflowed the stack at `push(...findings)`.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_ENTRY, tempDir } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';

describe('inputs-huge-document', () => {
  it('checks 150,000 citations in one file without overflowing the stack', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'lib.ts'), 'export const a = 1;\n');
    const count = 150_000;
    const lines: string[] = [];
    for (let index = 0; index < count; index += 1) lines.push(`- claim ${index} [lib.ts, L1]`);
    writeFileSync(join(dir, 'doc.md'), `${lines.join('\n')}\n`);
    const result = spawnSync(process.execPath, [CLI_ENTRY, 'check', 'doc.md', '--root', '.', '--format', 'json'], {
      cwd: dir,
      encoding: 'utf8',
      maxBuffer: 1024 * 1024 * 1024,
      timeout: 100_000,
      env: { ...process.env, NO_COLOR: '1' },
    });
    expect(result.stderr).not.toMatch(/Maximum call stack|RangeError/);
    expect([0, 1]).toContain(result.status);
    const report = JSON.parse(result.stdout) as { citations: unknown[] };
    expect(report.citations.length).toBe(count);
  });
});
