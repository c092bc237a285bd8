import * as v from 'valibot';
import type { Severity } from '../report.ts';

/**
 * How sure a rule is when it fires. `certain`: a fact about files, git, the corpus or a service's
 * answer. `heuristic`: a reading of prose (statistics, hedging, author-year, quotes) that can be
 * wrong about what the writer meant.
 */
export type Confidence = 'certain' | 'heuristic';

/**
 * The rule sets a run can ask for (`--profile`). Every rule names the profiles it belongs to; which
 * profile is the default is the CLI's decision. `all` holds every rule.
 */
export type Profile = 'recommended' | 'research' | 'strict' | 'all';

/** Every profile, in order from the quietest to the loudest. */
export const PROFILES: readonly Profile[] = ['recommended', 'research', 'strict', 'all'];

/** What a rule needs before it can fire at all. */
export type RuleRequirement = 'none' | 'corpus' | 'history' | 'online' | 'certify';

/** A rule id that shipped earlier and still works in configuration and suppression comments. */
export interface RuleAlias {
  readonly id: string;
  /** Why it changed, shown when a configuration uses it. */
  readonly note: string;
}

/** One rule: everything users see about it (SARIF, `rules`, `explain`, config, README) is read from here. */
export interface Rule<Id extends string = string, Kind extends string = string, Status extends string = string> {
  /** `kind/status`: the finding's `kind` and its JSON `status` (a refinement names its sub-case instead). */
  readonly id: Id;
  /** The finding kinds this rule reports on (more than one only for the attribution rules). */
  readonly kinds: readonly Kind[];
  /** The JSON `status` of its findings. */
  readonly status: Status;
  /**
   * Set when the id names a sub-case instead of the status: the `kind/status` the rule reports
   * under. Several rules then share one status (`doi/is-notice` is a `verified` DOI that is a
   * notice; `attribution/year` is a `misattributed` DOI or arXiv id), and JSON consumers that count
   * statuses see no new values.
   */
  readonly refines?: string;
  /** The default severity; `ok` marks a citation that checked out. */
  readonly severity: Severity;
  readonly confidence: Confidence;
  /** One line: what it reports. */
  readonly description: string;
  /** A paragraph: why it matters and what to do. */
  readonly help: string;
  /** Markdown that raises the rule. */
  readonly bad: string;
  /** The same text written so the rule does not fire (or reports it as fine). */
  readonly good: string;
  /** Whether `check --fix` edits findings of this rule. */
  readonly fixable: boolean;
  /** The profiles this rule is on in. */
  readonly profiles: readonly Profile[];
  /** What must be available for the rule to run. */
  readonly requires: RuleRequirement;
  /** Ids this rule had before, accepted in configuration with a deprecation note. */
  readonly aliases: readonly RuleAlias[];
  /** The schema of the rule's options in configuration; no rule takes options yet. */
  readonly options: v.GenericSchema;
}

/** The option schema of a rule without options. */
export const NO_OPTIONS: v.GenericSchema = v.strictObject({});

type Definition<Id extends string, Kind extends string, Status extends string> = Omit<
  Rule<Id, Kind, Status>,
  'profiles' | 'aliases' | 'options' | 'requires' | 'fixable'
> & {
  readonly profiles?: readonly Profile[];
  readonly aliases?: readonly RuleAlias[];
  readonly options?: v.GenericSchema;
  readonly requires?: RuleRequirement;
  readonly fixable?: boolean;
};

/**
 * Defines a rule. Profiles default from confidence: a `certain` rule is on in every profile, a
 * `heuristic` one from `research` up, so the quiet default never guesses about prose.
 */
export function defineRule<const Id extends string, const Kind extends string, const Status extends string>(
  definition: Definition<Id, Kind, Status>,
): Rule<Id, Kind, Status> {
  return {
    profiles: definition.confidence === 'certain' ? PROFILES : ['research', 'strict', 'all'],
    aliases: [],
    options: NO_OPTIONS,
    requires: 'none',
    fixable: false,
    ...definition,
  };
}
