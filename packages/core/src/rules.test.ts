import * as v from 'valibot';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type FindingOf,
  findRule,
  isFixableFinding,
  type KnownFinding,
  namesFinding,
  RULE_ALIASES,
  RULE_LIST,
  RULES,
  resolveRuleId,
  ruleIdsOf,
  type StatusOf,
} from './rules.ts';

describe('the rule registry', () => {
  it('names every rule kind/status, or declares the kind/status a sub-case reports under', () => {
    for (const rule of RULE_LIST) {
      const reportsAs = `${rule.kinds[0]}/${rule.status}`;
      if (rule.refines === undefined) expect(rule.id, rule.id).toBe(reportsAs);
      else expect(rule.refines, rule.id).toBe(reportsAs);
    }
  });

  it('has unique ids, and aliases that name no current rule', () => {
    const ids = RULE_LIST.map((rule) => rule.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const alias of RULE_ALIASES.keys()) expect(ids).not.toContain(alias);
  });

  it('gives every rule a sentence, help, a passing example, and a failing one unless it reports success', () => {
    for (const rule of RULE_LIST) {
      expect(rule.description, rule.id).toMatch(/^[a-z`]/);
      expect(rule.description.endsWith('.'), rule.id).toBe(false);
      expect(rule.help.length, rule.id).toBeGreaterThan(40);
      expect(rule.good, rule.id).not.toBe('');
      expect(rule.bad === '', rule.id).toBe(rule.severity === 'ok');
      expect(rule.profiles, rule.id).toContain('all');
      expect(v.safeParse(rule.options, {}).success, rule.id).toBe(true);
      expect(v.safeParse(rule.options, { unknown: true }).success, rule.id).toBe(false);
    }
  });

  it('keeps heuristic rules out of the recommended profile', () => {
    for (const rule of RULE_LIST) expect(rule.profiles.includes('recommended'), rule.id).toBe(rule.confidence === 'certain');
    expect(RULES['statistic/unsourced'].confidence).toBe('heuristic');
    expect(RULES['author-year/author-not-in-corpus'].confidence).toBe('heuristic');
    expect(RULES['quote/not-found'].confidence).toBe('heuristic');
    expect(RULES['grade/overclaim'].confidence).toBe('heuristic');
    expect(RULES['rlm/unknown-hash'].confidence).toBe('certain');
    expect(RULES['doi/fabricated'].confidence).toBe('certain');
  });

  it('resolves renamed ids with a deprecation note, and suggests the nearest id for a typo', () => {
    expect(resolveRuleId('rlm/stale')).toEqual({ ok: true, id: 'rlm/stale', deprecated: null });
    for (const [old, now] of [
      ['ref/missing', 'ref/not-in-corpus'],
      ['rlm/range', 'rlm/invalid-range'],
      ['rlm/un-versioned', 'rlm/unversioned'],
      ['pages/invalid', 'pages/invalid-pages'],
      ['url/unknown', 'url/unconfirmed'],
      ['stat/unsourced', 'statistic/unsourced'],
    ]) {
      const resolved = resolveRuleId(old as string);
      expect(resolved.ok && resolved.id, old).toBe(now);
      expect(resolved.ok && resolved.deprecated, old).toMatch(/\w/);
    }
    expect(resolveRuleId('statistics/unsourced')).toEqual({ ok: false, suggestion: 'statistic/unsourced' });
    expect(resolveRuleId('doi/verifed')).toEqual({ ok: false, suggestion: 'doi/verified' });
    expect(resolveRuleId('completely/else')).toEqual({ ok: false, suggestion: null });
  });

  it('matches suppression names by id, alias or kind', () => {
    const finding = { kind: 'ref', rule: 'ref/not-in-corpus' };
    expect(namesFinding('ref/not-in-corpus', finding)).toBe(true);
    expect(namesFinding('ref/missing', finding)).toBe(true);
    expect(namesFinding('ref', finding)).toBe(true);
    expect(namesFinding('ref/found', finding)).toBe(false);
    expect(ruleIdsOf('doi')).toContain('attribution/year');
  });

  it('decides fixability from the registry', () => {
    // `--fix` only makes mechanical, reversible edits (issue 14): re-pinning code citations.
    expect(RULE_LIST.filter((rule) => rule.fixable).map((rule) => rule.id)).toEqual(['rlm/stale', 'rlm/unversioned']);
    expect(isFixableFinding({ rule: 'rlm/stale' })).toBe(true);
    expect(isFixableFinding({ rule: 'rlm/missing' })).toBe(false);
    expect(isFixableFinding({ rule: 'not/registered' })).toBe(false);
    expect(findRule('toString')).toBeUndefined();
  });

  it('types findings as a union keyed by kind, so a status the kind cannot have fails to compile', () => {
    expectTypeOf<StatusOf<'rlm'>>().toEqualTypeOf<
      | 'fresh'
      | 'stale'
      | 'unversioned'
      | 'missing'
      | 'not-a-file'
      | 'outside-root'
      | 'invalid-range'
      | 'malformed'
      | 'unknown-hash'
      | 'unstaged'
      | 'unchecked'
    >();
    expectTypeOf<FindingOf<'ref'>['status']>().toEqualTypeOf<'found' | 'not-in-corpus' | 'malformed' | 'duplicate'>();
    const base = { file: 'a.md', line: 1, column: 1, text: 'x', severity: 'error', message: 'm', fix: null } as const;
    const good: KnownFinding = { ...base, kind: 'ref', status: 'not-in-corpus', rule: 'ref/not-in-corpus' };
    // @ts-expect-error: `not-in-corpus` is a status of `ref`, not of `rlm`
    const wrongStatus: KnownFinding = { ...base, kind: 'rlm', status: 'not-in-corpus', rule: 'rlm/missing' };
    // @ts-expect-error: the rule must report the status it is paired with
    const wrongPair: KnownFinding = { ...base, kind: 'rlm', status: 'stale', rule: 'rlm/missing' };
    const refinement: KnownFinding = { ...base, kind: 'arxiv', status: 'misattributed', rule: 'attribution/year' };
    expect([good, wrongStatus, wrongPair, refinement].map((finding) => finding.kind)).toEqual(['ref', 'rlm', 'rlm', 'arxiv']);
  });
});
