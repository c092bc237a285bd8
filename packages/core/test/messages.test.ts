import { fileURLToPath } from 'node:url';
import { inlineErrorSentences } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';

describe('the core package\'s sentences (STYLE §3, "Messages live in one place")', () => {
  it('are never written inline in an AiwgCiteError: they come from a messages module', () => {
    expect(inlineErrorSentences(fileURLToPath(new URL('../src', import.meta.url)))).toEqual([]);
  });
});
