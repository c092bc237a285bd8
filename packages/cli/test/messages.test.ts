import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inlineErrorSentences, tempDir, writeTree } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';

describe('the cli package\'s sentences (STYLE §3, "Messages live in one place")', () => {
  it('are never written inline in an AiwgCiteError: they come from a messages module', () => {
    expect(inlineErrorSentences(fileURLToPath(new URL('../src', import.meta.url)))).toEqual([]);
  });
});

describe('inlineErrorSentences', () => {
  it('finds an inline sentence in a string, a template and a branch, and passes a message call with a path prefix', () => {
    const dir = tempDir();
    writeTree(dir, {
      'src/a.ts': [
        "throw new AiwgCiteError('USAGE', 'blame: --line counts from 1');",
        `throw new AiwgCiteError('USAGE', \`\${file}: cannot read (\${why})\`, { data: { file } });`,
        "throw new AiwgCiteError('USAGE', ok ? messages.first() : 'second thought');",
        `throw new AiwgCiteError('USAGE', \`\${path}: \${fileMessages.rootMissing()}\`);`,
        "throw new AiwgCiteError('USAGE', usageMessages.badDate(value));",
      ].join('\n'),
      'src/a.test.ts': "throw new AiwgCiteError('USAGE', 'tests may write sentences');\n",
    });
    expect(inlineErrorSentences(join(dir, 'src'))).toEqual([
      "a.ts:1: 'blame: --line counts from 1'",
      `a.ts:2: \`\${file}: cannot read (\${why})\``,
      "a.ts:3: ok ? messages.first() : 'second thought'",
    ]);
  });
});
