import { AiwgCiteError, nearestName, RULE_ALIASES, RULE_LIST, type Rule, resolveRuleId, ruleAnchor } from '@aiwg-cite/core';
import { parseChoice, parseCommandArgs } from '../args.ts';
import type { CliContext, Command } from '../context.ts';
import { cliMessages } from '../messages.ts';
import { ruleDocsUrl } from '../rule-docs.ts';

const RULES_HELP = `Usage: aiwg-cite rules [--format table|json]

Lists every rule aiwg-cite reports: its id (kind/status), default severity, confidence (certain:
a fact about files, git, the corpus or a service; heuristic: a reading of prose), whether --fix
edits it, and what it needs to run (corpus, git history, --online, certify).

Options:
  --format table|json  output format (default table)
  -h, --help           show this help

Exit codes: 0 done, 2 usage error.
`;

const EXPLAIN_HELP = `Usage: aiwg-cite explain RULE

Prints what a rule reports, why it matters, and an example that raises it and one that does not.
RULE is a rule id such as rlm/stale (see \`aiwg-cite rules\`); ids that were renamed still work.

Exit codes: 0 done, 2 unknown rule or usage error.
`;

/** The JSON form of a rule in `rules --format json`. */
export function ruleJson(rule: Rule): Record<string, unknown> {
  return {
    id: rule.id,
    kinds: rule.kinds,
    status: rule.status,
    ...(rule.refines === undefined ? {} : { refines: rule.refines }),
    severity: rule.severity,
    confidence: rule.confidence,
    fixable: rule.fixable,
    requires: rule.requires,
    profiles: rule.profiles,
    description: rule.description,
    aliases: rule.aliases.map((alias) => alias.id),
    ...docs(rule.id),
  };
}

/** `docs`: the rule's anchor in the published README, when package.json says where that is. */
function docs(id: string): { docs?: string } {
  const url = ruleDocsUrl(id);
  return url === null ? {} : { docs: url };
}

/** The `rules` table: one line per rule, columns padded to the longest value. */
export function formatRulesTable(rules: readonly Rule[]): string {
  const header = ['rule', 'severity', 'confidence', 'fixable', 'needs', 'description'];
  const rows = rules.map((rule) => [
    rule.id,
    rule.severity,
    rule.confidence,
    rule.fixable ? 'yes' : 'no',
    rule.requires === 'none' ? '-' : rule.requires,
    rule.description,
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] as string).length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] as number)))
      .join('  ')
      .trimEnd();
  return `${[line(header), ...rows.map(line)].join('\n')}\n`;
}

/** The `explain` text of one rule. */
export function formatExplanation(rule: Rule): string {
  const out = [
    `${rule.id}: ${rule.description}`,
    '',
    `  severity    ${rule.severity}${rule.severity === 'ok' ? cliMessages.okSeverity() : ''}`,
    `  confidence  ${rule.confidence}`,
    `  status      ${rule.kinds.join(', ')} \`${rule.status}\`${rule.refines === undefined ? '' : cliMessages.refines(rule.refines)}`,
    `  fixable     ${rule.fixable ? cliMessages.fixableYes() : 'no'}`,
    `  needs       ${rule.requires === 'none' ? cliMessages.needsNothing() : rule.requires}`,
    `  profiles    ${rule.profiles.join(', ')}`,
  ];
  if (rule.aliases.length > 0) out.push(`  formerly    ${rule.aliases.map((alias) => alias.id).join(', ')}`);
  out.push('', wrap(rule.help, 96), '');
  if (rule.bad !== '') out.push(cliMessages.raisesIt(), '', indent(rule.bad), '');
  out.push(
    rule.bad === '' ? cliMessages.example() : cliMessages.passes(),
    '',
    indent(rule.good),
    '',
    cliMessages.ruleDocs(ruleDocsUrl(rule.id), ruleAnchor(rule.id)),
  );
  return `${out.join('\n')}\n`;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}

function wrap(text: string, width: number): string {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(/\s+/)) {
    if (current !== '' && current.length + 1 + word.length > width) {
      lines.push(current);
      current = word;
    } else current = current === '' ? word : `${current} ${word}`;
  }
  if (current !== '') lines.push(current);
  return lines.join('\n');
}

/** `aiwg-cite rules`. */
export const rules: Command = {
  summary: 'list every rule: id, severity, confidence, fixable',
  async run(args: readonly string[], context: CliContext): Promise<number> {
    const { values, positionals } = parseCommandArgs('rules', args, {
      format: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help === true) {
      context.stdout.write(RULES_HELP);
      return 0;
    }
    if (positionals.length > 0) throw new AiwgCiteError('USAGE', cliMessages.rulesTakesNoArguments());
    const format = parseChoice('rules', 'format', values.format, ['table', 'json'], 'table');
    context.stdout.write(
      format === 'json' ? `${JSON.stringify({ rules: RULE_LIST.map(ruleJson) }, null, 2)}\n` : formatRulesTable(RULE_LIST),
    );
    return 0;
  },
};

/** `aiwg-cite explain RULE`. */
export const explain: Command = {
  summary: 'explain one rule, with an example that raises it and one that passes',
  async run(args: readonly string[], context: CliContext): Promise<number> {
    const { values, positionals } = parseCommandArgs('explain', args, { help: { type: 'boolean', short: 'h' } });
    if (values.help === true) {
      context.stdout.write(EXPLAIN_HELP);
      return 0;
    }
    const [name, ...extra] = positionals;
    if (name === undefined || extra.length > 0) throw new AiwgCiteError('USAGE', cliMessages.explainTakesOneRule());
    const resolved = resolveRuleId(name);
    if (!resolved.ok) {
      const suggestion = resolved.suggestion ?? nearestName(name, [...RULE_ALIASES.keys()]);
      throw new AiwgCiteError('USAGE', cliMessages.unknownRule(name, suggestion));
    }
    const rule = RULE_LIST.find((candidate) => candidate.id === resolved.id) as Rule;
    if (resolved.deprecated !== null) context.stderr.write(`${cliMessages.deprecatedRule(name, resolved.deprecated)}\n`);
    context.stdout.write(formatExplanation(rule));
    return 0;
  },
};

/** The README's rule table (between `<!-- rules:start -->` and `<!-- rules:end -->`), one anchored row per rule. */
export function formatRulesMarkdown(rules: readonly Rule[]): string {
  const rows = rules.map((rule) => {
    const formerly = rule.aliases.length === 0 ? '' : ` (formerly ${rule.aliases.map((alias) => `\`${alias.id}\``).join(', ')})`;
    const needs = rule.requires === 'none' ? '' : rule.requires;
    return `| <a id="${ruleAnchor(rule.id)}"></a>\`${rule.id}\`${formerly} | ${rule.severity} | ${rule.confidence} | ${rule.fixable ? 'yes' : ''} | ${needs} | ${rule.description.replace(/\|/g, '\\|')} |`;
  });
  return ['| rule | severity | confidence | fix | needs | reports |', '|---|---|---|---|---|---|', ...rows].join('\n');
}
