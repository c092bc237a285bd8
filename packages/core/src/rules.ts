import { editDistance } from './edit-distance.ts';
import type { Finding, FindingCore, Severity } from './report.ts';
import { CORPUS_RULES } from './rules/corpus.ts';
import type { Rule } from './rules/define.ts';
import { FOOTNOTE_RULES } from './rules/footnotes.ts';
import { IDENTIFIER_RULES } from './rules/identifiers.ts';
import { PROSE_RULES } from './rules/prose.ts';
import { REFS_RULES } from './rules/refs.ts';
import { RLM_RULES } from './rules/rlm.ts';

/**
 * Every rule aiwg-cite reports, in report order. Adding a rule means adding it to one of the
 * per-kind modules in `rules/`; SARIF, `aiwg-cite rules`, `explain`, configuration validation,
 * `--fix` and the README table all read this list.
 */
export const RULE_LIST = [...RLM_RULES, ...CORPUS_RULES, ...IDENTIFIER_RULES, ...PROSE_RULES, ...FOOTNOTE_RULES, ...REFS_RULES] as const;

/** One rule of the registry, with its literal id, kinds and status. */
export type RegisteredRule = (typeof RULE_LIST)[number];

/** A rule id aiwg-cite reports. Ids are stable; renamed ones live on as aliases. */
export type RuleId = RegisteredRule['id'];

/** The finding kinds (`rlm`, `doi`, `grade`, …). */
export type FindingKind = RegisteredRule['kinds'][number];

/** The rules of one kind. */
export type RuleOfKind<K extends FindingKind> = RegisteredRule extends infer R
  ? R extends { readonly kinds: readonly (infer RK)[] }
    ? K extends RK
      ? R
      : never
    : never
  : never;

/** The JSON statuses a finding of kind `K` can have. */
export type StatusOf<K extends FindingKind> = RuleOfKind<K>['status'];

/**
 * A finding whose kind, status and rule agree with the registry: a discriminated union keyed by
 * `kind`, in which each status is tied to the rules that report it. `{ kind: 'rlm', status:
 * 'not-in-corpus' }` fails to type-check.
 */
export type KnownFinding = {
  [K in FindingKind]: RuleOfKind<K> extends infer R
    ? R extends RegisteredRule
      ? Omit<FindingCore, 'kind' | 'status' | 'rule'> & {
          readonly kind: K;
          readonly status: R['status'];
          readonly rule: R['id'];
          readonly [field: string]: unknown;
        }
      : never
    : never;
}[FindingKind];

/** A finding of one kind, typed by the registry. */
export type FindingOf<K extends FindingKind> = Extract<KnownFinding, { readonly kind: K }>;

/** The registry by id. */
export const RULES: { readonly [R in RegisteredRule as R['id']]: R } = Object.fromEntries(RULE_LIST.map((rule) => [rule.id, rule])) as {
  readonly [R in RegisteredRule as R['id']]: R;
};

/** A per-rule severity override from configuration. */
export type SeverityOverride = 'error' | 'warning' | 'info' | 'off';

/** Every id that shipped before and still works, with the id it stands for and why it changed. */
export const RULE_ALIASES: ReadonlyMap<string, { readonly id: RuleId; readonly note: string }> = new Map(
  RULE_LIST.flatMap((rule) => rule.aliases.map((alias) => [alias.id, { id: rule.id as RuleId, note: alias.note }] as const)),
);

/** The rule with this id, or `undefined`. */
export function findRule(id: string): Rule | undefined {
  return Object.hasOwn(RULES, id) ? (RULES as Record<string, Rule>)[id] : undefined;
}

/** Whether a string is a registered rule id (not an alias). */
export function isRuleId(id: string): id is RuleId {
  return Object.hasOwn(RULES, id);
}

/** The resolution of a name from configuration or a suppression comment. */
export type RuleResolution =
  | { readonly ok: true; readonly id: RuleId; readonly deprecated: string | null }
  | { readonly ok: false; readonly suggestion: string | null };

/**
 * Resolves a rule name: a registered id, or an alias (with its deprecation note). An unknown name
 * comes back with the nearest registered id, when one is close enough to be a typo.
 */
export function resolveRuleId(name: string): RuleResolution {
  if (isRuleId(name)) return { ok: true, id: name, deprecated: null };
  const alias = RULE_ALIASES.get(name);
  if (alias !== undefined) return { ok: true, id: alias.id, deprecated: alias.note };
  return {
    ok: false,
    suggestion: nearestName(
      name,
      RULE_LIST.map((rule) => rule.id),
    ),
  };
}

/** The rule ids a name applies to: an id or alias names one rule, a bare kind (`doi`) all of its rules. */
export function ruleIdsOf(name: string): readonly RuleId[] {
  const resolved = resolveRuleId(name);
  if (resolved.ok) return [resolved.id];
  return RULE_LIST.filter((rule) => (rule.kinds as readonly string[]).includes(name)).map((rule) => rule.id);
}

/** The default severity of a rule, or `null` for an id the registry does not know. */
export function defaultSeverity(id: string): Severity | null {
  return findRule(id)?.severity ?? null;
}

/** The README anchor of a rule's documentation (`rule-rlm-stale`). */
export function ruleAnchor(id: string): string {
  return `rule-${id.replace(/[^a-z0-9]+/g, '-')}`;
}

/** Whether `--fix` can edit a finding: its rule is fixable. */
export function isFixableFinding(finding: Pick<Finding, 'rule'>): boolean {
  return findRule(finding.rule)?.fixable === true;
}

/**
 * The nearest of `candidates` to `name` by edit distance, when it is close enough to be a typo
 * (at most a third of the longer name, at least 2); else `null`.
 */
export function nearestName(name: string, candidates: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = editDistance(name, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  if (best === null) return null;
  return bestDistance <= Math.max(2, Math.floor(Math.max(name.length, best.length) / 3)) ? best : null;
}

/**
 * Whether a name from a suppression comment (`aiwg-cite-disable-next-line NAME`) covers a finding:
 * its rule id, an alias of it, or its kind.
 */
export function namesFinding(name: string, finding: Pick<FindingCore, 'kind' | 'rule'>): boolean {
  return name === finding.rule || name === finding.kind || RULE_ALIASES.get(name)?.id === finding.rule;
}
