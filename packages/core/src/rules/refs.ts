import { REF_RULES, type RefRuleId } from '../refs/rules.ts';
import { defineRule } from './define.ts';

/** The verdict a rule's findings carry as their status: an error makes the entry hallucinated. */
function statusOf(id: RefRuleId): 'hallucinated' | 'uncertain' | 'valid' {
  if (id === 'refs/unverified') return 'uncertain';
  return REF_RULES[id].severity === 'error' ? 'hallucinated' : 'valid';
}

/**
 * The reference-verification rules (`aiwg-cite refs`, and reference lists in `check --online`),
 * from `refs/rules.ts`. Each decides from the services' answers, so each is `certain` in the
 * registry's sense; their findings have kind `refs` and the entry's verdict as status.
 */
export const REFS_RULES = (Object.keys(REF_RULES) as RefRuleId[]).map((id) =>
  defineRule({
    id,
    kinds: ['refs'],
    status: statusOf(id),
    refines: `refs/${statusOf(id)}`,
    severity: REF_RULES[id].severity,
    confidence: 'certain',
    description: REF_RULES[id].description,
    help: REF_RULES[id].help,
    bad: REF_RULES[id].bad,
    good: REF_RULES[id].good,
    requires: 'online',
  }),
);
