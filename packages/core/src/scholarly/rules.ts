import { RULE_LIST, type RuleId } from '../rules.ts';

/** Every finding kind of the scholarly checks, in report order. */
export const SCHOLARLY_KINDS = ['mention', 'ref', 'doi', 'arxiv', 'author-year', 'quote', 'statistic', 'pages', 'grade'] as const;

/** The finding kinds of the scholarly checks. */
export type ScholarlyKind = (typeof SCHOLARLY_KINDS)[number];

/** The kinds of the scholarly rules: the checks' own, and `corpus` for the corpus-wide notes. */
const RULE_KINDS: ReadonlySet<string> = new Set(['corpus', ...SCHOLARLY_KINDS]);

type ScholarlyRule = Extract<(typeof RULE_LIST)[number], { readonly kinds: readonly ('corpus' | ScholarlyKind)[] }>;

/** A rule id of the research-corpus and scholarly checks (SPEC §3-§5), the offline ones. */
export type ScholarlyRuleId = Exclude<ScholarlyRule['id'], `attribution/${string}`>;

/** The offline research-corpus and scholarly rules, by id: a view of the registry in `rules.ts`. */
export const SCHOLARLY_RULES: { readonly [R in ScholarlyRule as R['id'] extends ScholarlyRuleId ? R['id'] : never]: R } =
  Object.fromEntries(
    RULE_LIST.filter((rule) => rule.kinds.every((kind) => RULE_KINDS.has(kind)) && !rule.id.startsWith('attribution/')).map((rule) => [
      rule.id as RuleId,
      rule,
    ]),
  ) as never;
