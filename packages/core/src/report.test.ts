import { describe, expect, it } from 'vitest';
import { fromOkKey, okKey } from './report.ts';

describe('okKey', () => {
  it('gives one key per kind, status and rule, and takes it apart again', () => {
    const fresh = okKey({ kind: 'rlm', status: 'fresh', rule: 'rlm/fresh' });
    expect(fresh).toBe('rlm\u0000fresh\u0000rlm/fresh');
    // Built afresh from strings of its own, the same triple gives the same key.
    const again = okKey({ kind: ['r', 'lm'].join(''), status: 'fre'.concat('sh'), rule: 'rlm/fresh' });
    expect(again).toBe(fresh);
    expect(okKey({ kind: 'rlm', status: 'fresh', rule: 'rlm/other' })).not.toBe(fresh);
    expect(okKey({ kind: 'ref', status: 'fresh', rule: 'rlm/fresh' })).not.toBe(fresh);
    expect(fromOkKey(fresh)).toEqual({ kind: 'rlm', status: 'fresh', rule: 'rlm/fresh' });
  });

  it('stays right past the keys it keeps (checkers with statuses of their own)', () => {
    for (let at = 0; at < 5000; at += 1) {
      const finding = { kind: 'custom', status: `status-${at}`, rule: `custom/rule-${at % 7}` };
      expect(okKey(finding)).toBe(`custom\u0000status-${at}\u0000custom/rule-${at % 7}`);
      expect(fromOkKey(okKey(finding))).toEqual(finding);
    }
  });
});
