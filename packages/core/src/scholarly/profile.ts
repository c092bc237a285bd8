/**
 * Profiles (issue 14): which findings a run reports where. A certain finding states a fact about a
 * file, the git index or history, the corpus or an API answer; a heuristic one is a reading of prose
 * (a number without a source, hedging, a name that looks like an author) that is right in research
 * writing and mostly noise elsewhere.
 */

import type { Profile } from '../rules/define.ts';
import { findRule } from '../rules.ts';

export type { Profile } from '../rules/define.ts';

/** What each profile does, for help and the README. */
export const PROFILE_SUMMARIES: Readonly<Record<Profile, string>> = {
  recommended: 'certain findings everywhere; heuristic ones only in research writing (the default)',
  research: 'heuristic findings in every document, as if all of it were research writing',
  strict: 'as research, and warnings fail the run',
  all: 'every finding in every document, generated copies included',
};

/**
 * Certain rules that the recommended profile still keeps to research writing: "not recorded in the
 * corpus" only means something where the writing is meant to cite the corpus.
 */
export const CORPUS_ONLY_IN_RESEARCH: ReadonlySet<string> = new Set(['doi/unverified', 'arxiv/unverified']);

/** True when the recommended profile reports findings of `rule` only in research writing: heuristic rules (the registry's `confidence`), and {@link CORPUS_ONLY_IN_RESEARCH}. */
export function isHeuristicRule(rule: string): boolean {
  return findRule(rule)?.confidence === 'heuristic' || CORPUS_ONLY_IN_RESEARCH.has(rule);
}

/** A heading that opens a list of works cited. */
const REFERENCES_HEADING =
  /^ {0,3}#{1,6}[ \t]+(?:\d+[.)]?[ \t]+)?(?:references?|bibliography|works cited|literature(?: cited)?|sources|citations|further reading|research (?:foundation|basis|references))\b/im;
/** A REF id as aiwg issues them, outside a range's template form. */
const REF_ID = /(?<![\w/.#{<$-])REF-(?:\d{3}|[1-9]\d{3,})(?![\w/])/;

/**
 * A template: a file in a `templates/` (or `template/`) folder, or named `template.md`,
 * `adr-template.md`, `TEMPLATE.md`. It shows the shape of documents still to be written, so its
 * numbers are examples, not findings; its citations (a REF id, an author-year) are real ones that
 * every document made from it will carry.
 */
const TEMPLATE = /(?:^|\/)templates?\/|(?:^|[/_.-])template\.(?:md|markdown)$/i;

/** The heuristic rules the recommended profile holds back in a template, research writing or not. */
export const EXAMPLES_IN_TEMPLATES: ReadonlySet<string> = new Set(['statistic/unsourced']);

/** True when `file` is a template (see {@link TEMPLATE}). */
export function isTemplate(file: string): boolean {
  return TEMPLATE.test(file);
}

/** Why a document counts as research writing, or `null`. */
export function researchReason(file: string, text: string, researchPaths: readonly string[]): string | null {
  for (const prefix of researchPaths) {
    const clean = prefix.replace(/\/+$/, '');
    if (clean === '' || clean === '.') return 'research path';
    if (file === clean || file.startsWith(`${clean}/`)) return 'research path';
  }
  if (REFERENCES_HEADING.test(text)) return 'references section';
  if (REF_ID.test(text)) return 'cites REF ids';
  return null;
}
