import type { Command } from '../context.ts';

/** A subcommand, loaded only when it runs so that `check` never pays for `watch`'s modules. */
export interface CommandEntry {
  readonly summary: string;
  readonly load: () => Promise<Command>;
}

/** Every subcommand. */
export const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  check: {
    summary: 'check the citations in markdown files (default: every markdown file git does not ignore)',
    load: async () => (await import('./check.ts')).check,
  },
  merge: {
    summary: 'merge the JSON or SARIF reports of `check --shard i/n` into the full run’s report and exit code',
    load: async () => (await import('./merge.ts')).merge,
  },
  init: {
    summary: 'install the commit hook: husky, lint-staged, the pre-commit framework or a plain git hook',
    load: async () => (await import('./init.ts')).init,
  },
  watch: {
    summary: 'keep citations verified as files change, with a live dashboard (plain lines without a terminal)',
    load: async () => (await import('./watch.ts')).watch,
  },
  blame: {
    summary: 'name the commits that staled each stale citation, and how its lines drifted',
    load: async () => (await import('./blame.ts')).blame,
  },
  stamp: {
    summary: 'pin un-versioned citations; re-pin stale ones whose lines only moved or changed whitespace',
    load: async () => (await import('./stamp.ts')).stamp,
  },
  chunk: {
    summary: 'split markdown into block-aligned chunks with an offset table (citation-auditor JSON)',
    load: async () => (await import('./chunk.ts')).chunk,
  },
  aggregate: {
    summary: 'combine verifier verdicts by authority, checking verbatim quotes (citation-auditor JSON)',
    load: async () => (await import('./aggregate.ts')).aggregate,
  },
  annotate: {
    summary: 'insert verdict badges and an audit report into a markdown file (byte-exact insertions)',
    load: async () => (await import('./annotate.ts')).annotate,
  },
  rules: {
    summary: 'list every rule: id, severity, confidence, fixable (--format json)',
    load: async () => (await import('./rules.ts')).rules,
  },
  explain: {
    summary: 'explain one rule, with an example that raises it and one that passes',
    load: async () => (await import('./rules.ts')).explain,
  },
  refs: {
    summary: 'verify every entry of .bib files and markdown reference lists against the scholarly record',
    load: async () => (await import('./refs.ts')).refs,
  },
  certify: {
    summary: 'verify every tagged footnote of a memo and write a citation verification certificate (PASS/HARD_FAIL)',
    load: async () => (await import('./certify.ts')).certify,
  },
};
