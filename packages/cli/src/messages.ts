/**
 * The CLI's own sentences (STYLE §3, "Messages live in one place"): plain text, the offending
 * value in backticks, "did you mean" for near matches. Commands add only colour and layout.
 */
export const cliMessages = {
  unknownCommand: (name: string, hint: string) => `unknown command \`${name}\`${hint}; run \`aiwg-cite --help\``,
  configNeedsPath: () => '--config takes a path to a configuration file, such as `--config ci/aiwg-cite.json`',
  rulesTakesNoArguments: () => 'rules: takes no arguments; run `aiwg-cite explain RULE` for one rule',
  explainTakesOneRule: () => 'explain: takes exactly one rule id, such as `rlm/stale`; run `aiwg-cite rules` for the list',
  unknownRule: (name: string, suggestion: string | null) =>
    `explain: unknown rule \`${name}\`${suggestion === null ? '' : `; did you mean \`${suggestion}\`?`} (run \`aiwg-cite rules\` for the list)`,
  deprecatedRule: (name: string, note: string) => `aiwg-cite: \`${name}\` is deprecated: ${note}`,
} as const;

/** `1 file`, `2 files`, with the number as the report prints it (`1,234`). */
function counted(value: number, one: string, many: string): string {
  return `${value.toLocaleString('en-US')} ${value === 1 ? one : many}`;
}

/** The sentences of the human report (format/pretty.ts); it adds only colour and layout. */
export const prettyMessages = {
  groupHeader: (findings: number) => `${findings} findings, the first:`,
  alsoAt: () => 'also at:',
  andMore: (more: number) => `and ${more.toLocaleString('en-US')} more (--verbose lists them)`,
  infosListedWithVerbose: () => ' (--verbose lists them)',
  checked: (files: number, kinds: string) => `Checked ${files} ${files === 1 ? 'file' : 'files'}: ${kinds === '' ? 'no citations' : kinds}`,
  rlmExplained: () => 'rlm = code citations pinned to a file, lines and a content hash',
  skippedInCode: (skipped: number) => `${skipped} in code skipped (--include-code checks them)`,
  suppressed: (suppressed: number) => `${suppressed} suppressed by aiwg-cite-disable-next-line`,
  someNotChecked: () => 'some not checked',
  infos: (infos: number) => counted(infos, 'info', 'infos'),
  seeVerbose: (extra: readonly string[]) => (extra.length === 0 ? '' : `; ${extra.join(', ')} (--verbose)`),
  /** The one line of a passing run: `PASS (0 errors, 0 warnings)` is coloured by the caller. */
  passCounts: (errors: number, warnings: number) => `PASS (${errors} errors, ${warnings} warnings)`,
  passScope: (files: number, citations: number) =>
    `${files} ${files === 1 ? 'file' : 'files'}, ${counted(citations, 'citation', 'citations')}`,
  verdict: (pass: boolean, errors: number, warnings: number) =>
    `${pass ? 'PASS' : 'FAIL'} (${errors} ${errors === 1 ? 'error' : 'errors'}, ${warnings} ${warnings === 1 ? 'warning' : 'warnings'})`,
} as const;
