import type { BatchShare, OkJson } from '@aiwg-cite/core';
import { describe, expect, it } from 'vitest';
import { postable } from './check-helper.ts';

/** A share whose one cached result holds `json` as its texts. */
function shareWith(json: string | Uint8Array): BatchShare {
  const texts: OkJson = { lines: [1], columns: [1], kinds: ['rlm'], keys: ['rlm\u0000fresh\u0000rlm/fresh'], json, ends: [json.length] };
  const result = { findings: [], skippedInCode: 0, suppressed: 0, okJson: texts };
  return { early: [], verified: [], cached: [['a.md', result]], notes: [], bodies: [] };
}

describe('postable: what a helper thread posts of its share', () => {
  it('copies texts that view a larger buffer alone, so that a post carries their bytes and not the whole segment', () => {
    const segment = new TextEncoder().encode(`${'x'.repeat(100_000)}{"text":1}${'y'.repeat(100_000)}`);
    const view = segment.subarray(100_000, 100_010);
    const textsOf = (share: BatchShare) => share.cached[0]?.[1].okJson?.json as Uint8Array;
    const posted = textsOf(structuredClone(postable(shareWith(view))));
    expect(new TextDecoder().decode(posted)).toBe('{"text":1}');
    expect(posted.buffer.byteLength).toBe(10);
    // Without the copy, the post takes the whole buffer along.
    expect(textsOf(structuredClone(shareWith(view))).buffer.byteLength).toBe(segment.length);
  });

  it('hands on a share whose texts are strings as it is', () => {
    const share = shareWith('{"text":1}');
    expect(postable(share)).toBe(share);
  });
});
