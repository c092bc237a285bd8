import { RULE_LIST, type RuleId } from '../rules.ts';

const SCHOLARLY_KIND_NAMES: ReadonlySet<string> = new Set([
  'corpus',
  'mention',
  'ref',
  'doi',
  'arxiv',
  'author-year',
  'quote',
  'statistic',
  'pages',
  'grade',
]);

type ScholarlyRule = Extract<
  (typeof RULE_LIST)[number],
  {
    readonly kinds: readonly ('corpus' | 'mention' | 'ref' | 'doi' | 'arxiv' | 'author-year' | 'quote' | 'statistic' | 'pages' | 'grade')[];
  }
>;

/** A rule id of the research-corpus and scholarly checks (SPEC §3-§5), the offline ones. */
export type ScholarlyRuleId = Exclude<ScholarlyRule['id'], `attribution/${string}`>;

/** The offline research-corpus and scholarly rules, by id: a view of the registry in `rules.ts`. */
export const SCHOLARLY_RULES: { readonly [R in ScholarlyRule as R['id'] extends ScholarlyRuleId ? R['id'] : never]: R } =
  Object.fromEntries(
    RULE_LIST.filter((rule) => rule.kinds.every((kind) => SCHOLARLY_KIND_NAMES.has(kind)) && !rule.id.startsWith('attribution/')).map(
      (rule) => [rule.id as RuleId, rule],
    ),
  ) as never;
