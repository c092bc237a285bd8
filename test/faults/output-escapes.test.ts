/**
 * Issue 15 item 18: control characters from file names, citation paths and file contents never
 * reach the terminal: pretty output shows them escaped (C0, ESC, C1, bidirectional overrides).
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_ENTRY, tempDir } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';

// biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for them
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/;

describe('output-escapes', () => {
  it('escapes ESC and C1 controls from a file name in pretty output', () => {
    const dir = tempDir();
    const name = 'evil\u001b]0;owned\u0007\u009b31m.md';
    // Since the markdown model (issue 13), a path with control characters is not a citation at all;
    // the file name still reaches every finding.
    writeFileSync(join(dir, name), 'See [gone.ts, L1] and [docs/x\u0085y.ts, L2].\n');
    const result = spawnSync(process.execPath, [CLI_ENTRY, 'check', '--root', '.'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined },
    });
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('evil\\e]0;owned\\u0007\\u009b31m.md');
    expect(RAW_CONTROL.test(result.stdout)).toBe(false);
  });
});
