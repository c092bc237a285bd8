import { AiwgCiteError, type Finding, mergeReports, type NamedReport, type Report, RUN_LEVEL_RULES } from '@aiwg-cite/core';
import { parseChoice, parseCommandArgs, parseCount } from '../args.ts';
import type { CliContext, Command } from '../context.ts';
import { inputMessages, usageMessages } from '../messages.ts';
import { CHECK_FORMATS, render } from './check.ts';
import { HELD_NOTE, heldNote } from './check-scholarly.ts';
import { parseJsonInput, readInput, usageError } from './interop-io.ts';

const HELP = `Usage: aiwg-cite merge FILE... [options]

Merges the reports of the shards of one run (\`aiwg-cite check --shard i/n\`, i = 1..n) into the
report of the full run: the same findings, summary, verdict and exit code. Give every shard once.

Inputs are either all JSON reports (\`check --format json\`), which can be printed in any format,
or all SARIF logs (\`check --format sarif\`), which merge into one SARIF log.

Options:
  --format FORMAT      for JSON inputs: json (default), pretty, sarif, github, junit or source-check;
                       SARIF inputs always give SARIF
  --strict             warnings fail the merged run (as check --strict)
  --max-warnings N     fail when the shards together have more than N warnings (as check)
  -h, --help           show this help

Exit codes: 0 pass, 1 fail, 2 usage or tool error (unreadable input, not a report, overlapping shards).
`;

/** `aiwg-cite merge`. */
export const merge: Command = {
  summary: 'merge the JSON or SARIF reports of `check --shard i/n` into the full run’s report and verdict',
  async run(args: readonly string[], context: CliContext): Promise<number> {
    const { values, positionals } = parseCommandArgs('merge', args, {
      format: { type: 'string' },
      strict: { type: 'boolean' },
      'max-warnings': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help === true) {
      context.stdout.write(HELP);
      return 0;
    }
    if (positionals.length === 0) throw usageError('merge', usageMessages.mergeNeedsReports());
    const maxWarnings = parseCount('merge', 'max-warnings', values['max-warnings']);
    const verdictOptions = { strict: values.strict === true, ...(maxWarnings === undefined ? {} : { maxWarnings }) };
    const inputs: { name: string; value: unknown }[] = [];
    for (const name of positionals) inputs.push({ name, value: parseJsonInput(await readInput(name, context), name) });

    const sarif = inputs.filter((input) => isSarif(input.value));
    if (sarif.length > 0) {
      if (sarif.length !== inputs.length) throw usageError('merge', usageMessages.mergeMixedKinds());
      if (values.format !== undefined && values.format !== 'sarif') throw usageError('merge', usageMessages.mergeSarifOnly());
      const merged = mergeSarif(inputs.map((input) => ({ name: input.name, log: input.value as SarifLog })));
      context.stdout.write(`${JSON.stringify(merged.log, null, 2)}\n`);
      const failed = merged.errors > 0 || (verdictOptions.strict && merged.warnings > 0) || merged.warnings > (maxWarnings ?? Infinity);
      return failed ? 1 : 0;
    }
    const format = parseChoice('merge', 'format', values.format, CHECK_FORMATS, 'json');
    const reports: NamedReport[] = inputs.map(({ name, value }) => ({ name, report: asReport(value, name) }));
    const report = sumHeldNotes(mergeReports(reports, verdictOptions), reports);
    context.stdout.write(render(report, format, context));
    return report.verdict === 'PASS' ? 0 : 1;
  },
};

/**
 * Each shard counts the heuristic findings it held back; the full run's note carries the sum, so
 * the shards' notes become one, at the place of the first.
 */
function sumHeldNotes(report: Report, shards: readonly NamedReport[]): Report {
  let findings = 0;
  let documents = 0;
  // Counted over every shard's own notes: two shards may hold back the same counts.
  for (const { report: shard } of shards) {
    for (const note of shard.coverage.notes) {
      const counts = HELD_NOTE.exec(note);
      if (counts === null) continue;
      findings += Number(counts[1]);
      documents += Number(counts[2]);
    }
  }
  if (findings === 0) return report;
  // A full run writes the held note just before its notes on skipped copies (check-scholarly's
  // notePassOver): the merged report keeps that order.
  const notes = report.coverage.notes.filter((note) => !HELD_NOTE.test(note));
  const copies = notes.findIndex((note) => SKIPPED_COPIES_NOTE.test(note));
  notes.splice(copies === -1 ? notes.length : copies, 0, heldNote(findings, documents));
  return { ...report, coverage: { ...report.coverage, notes } };
}

const SKIPPED_COPIES_NOTE = /^\d+ (identical copies of other documents|files a tool deployed into agent folders) skipped /;

/** A JSON report as `check --format json` writes it, checked field by field; anything else is refused. */
function asReport(value: unknown, name: string): Report {
  const record = value as Partial<Report> | null;
  const ok =
    typeof record === 'object' &&
    record !== null &&
    record.version === 1 &&
    Array.isArray(record.citations) &&
    typeof record.summary?.files === 'number' &&
    typeof record.coverage?.skippedInCode === 'number' &&
    typeof record.coverage.suppressed === 'number' &&
    Array.isArray(record.coverage.notes) &&
    record.citations.every(isFinding);
  if (!ok) throw new AiwgCiteError('INPUT_UNREADABLE', inputMessages.notJsonReport(name));
  return record as Report;
}

function isFinding(value: unknown): value is Finding {
  const finding = value as Partial<Finding> | null;
  return (
    typeof finding === 'object' &&
    finding !== null &&
    typeof finding.file === 'string' &&
    typeof finding.line === 'number' &&
    typeof finding.column === 'number' &&
    typeof finding.kind === 'string' &&
    typeof finding.rule === 'string' &&
    typeof finding.severity === 'string'
  );
}

interface SarifResult {
  readonly ruleId: string;
  ruleIndex?: number;
  readonly level?: string;
  readonly properties?: { kind?: string };
  readonly locations?: readonly {
    physicalLocation?: { artifactLocation?: { uri?: string }; region?: { startLine?: number; startColumn?: number } };
  }[];
}
interface SarifRun {
  tool: { driver: { rules?: { id: string }[]; [key: string]: unknown }; [key: string]: unknown };
  results: SarifResult[];
  [key: string]: unknown;
}
interface SarifLog {
  runs: SarifRun[];
  [key: string]: unknown;
}

function isSarif(value: unknown): boolean {
  const log = value as Partial<SarifLog> | null;
  return typeof log === 'object' && log !== null && (log as { version?: unknown }).version === '2.1.0' && Array.isArray(log.runs);
}

/**
 * Merges the one-run SARIF logs of the shards: the first log's run with every shard's results,
 * grouped by file in the order the full run writes them (a file's results all come from one shard
 * and keep their order), and the union of the rules, each result's `ruleIndex` pointing into it.
 */
function mergeSarif(inputs: readonly { name: string; log: SarifLog }[]): { log: SarifLog; errors: number; warnings: number } {
  const rules = new Map<string, { id: string }>();
  const runLevel = new Map<string, SarifResult>();
  const byFile = new Map<string, { owner: string; results: SarifResult[] }>();
  for (const { name, log } of inputs) {
    const run = log.runs[0];
    if (log.runs.length !== 1 || run === undefined || !Array.isArray(run.results)) {
      throw new AiwgCiteError('INPUT_UNREADABLE', inputMessages.notSarifLog(name));
    }
    for (const rule of run.tool.driver.rules ?? []) if (!rules.has(rule.id)) rules.set(rule.id, rule);
    for (const result of run.results) {
      if (RUN_LEVEL_RULES.has(result.ruleId)) {
        const kept = runLevel.get(result.ruleId);
        if (kept === undefined || comparePlace(result, kept) < 0) runLevel.set(result.ruleId, result);
        continue;
      }
      const uri = uriOf(result);
      const group = byFile.get(uri);
      if (group === undefined) byFile.set(uri, { owner: name, results: [result] });
      else if (group.owner === name) group.results.push(result);
      else {
        throw new AiwgCiteError('USAGE', usageMessages.shardsOverlap(decodeUri(uri), group.owner, name));
      }
    }
  }
  // A run-level result goes back where the full run puts it: among its file's results, by position
  // and then kind (the order of compareFindings).
  for (const result of runLevel.values()) {
    const uri = uriOf(result);
    const group = byFile.get(uri) ?? { owner: '', results: [] };
    byFile.set(uri, group);
    const at = group.results.findIndex((other) => comparePlace(other, result) > 0);
    group.results.splice(at === -1 ? group.results.length : at, 0, result);
  }
  const ids = [...rules.keys()].sort();
  const files = [...byFile.keys()].sort((a, b) => {
    const left = decodeUri(a);
    const right = decodeUri(b);
    return left < right ? -1 : left > right ? 1 : 0;
  });
  const results = files.flatMap((uri) => byFile.get(uri)?.results ?? []);
  for (const result of results) result.ruleIndex = ids.indexOf(result.ruleId);
  const first = inputs[0]?.log as SarifLog;
  const run = first.runs[0] as SarifRun;
  const log: SarifLog = {
    ...first,
    runs: [
      { ...run, tool: { ...run.tool, driver: { ...run.tool.driver, rules: ids.map((id) => rules.get(id) as { id: string }) } }, results },
    ],
  };
  return {
    log,
    errors: results.filter((result) => result.level === 'error').length,
    warnings: results.filter((result) => result.level === 'warning').length,
  };
}

function uriOf(result: SarifResult): string {
  return result.locations?.[0]?.physicalLocation?.artifactLocation?.uri ?? '';
}

function comparePlace(a: SarifResult, b: SarifResult): number {
  const left = decodeUri(uriOf(a));
  const right = decodeUri(uriOf(b));
  if (left !== right) return left < right ? -1 : 1;
  const ra = a.locations?.[0]?.physicalLocation?.region;
  const rb = b.locations?.[0]?.physicalLocation?.region;
  const ka = a.properties?.kind ?? '';
  const kb = b.properties?.kind ?? '';
  return (ra?.startLine ?? 0) - (rb?.startLine ?? 0) || (ra?.startColumn ?? 0) - (rb?.startColumn ?? 0) || (ka < kb ? -1 : ka > kb ? 1 : 0);
}

function decodeUri(uri: string): string {
  try {
    return uri.split('/').map(decodeURIComponent).join('/');
  } catch {
    return uri;
  }
}
