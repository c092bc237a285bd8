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
