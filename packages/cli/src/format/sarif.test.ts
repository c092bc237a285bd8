import { buildReport, type Finding, RULE_LIST } from '@aiwg-cite/core';
import { describe, expect, it } from 'vitest';
import { sampleFindings, sampleReport } from './sample-report.ts';
import { formatSarif } from './sarif.ts';

const LEVELS = ['none', 'note', 'warning', 'error'];
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The structural rules of SARIF 2.1.0 that SPEC §13 relies on (OASIS sarif-schema-2.1.0.json):
 * required properties, their types and enums. Returns the problems found; empty means valid.
 */
function validateSarif(log: unknown): string[] {
  const problems: string[] = [];
  const need = (condition: boolean, problem: string) => {
    if (!condition) problems.push(problem);
  };
  if (!isObject(log)) return ['log is not an object'];
  need(
    Object.keys(log).every((key) => ['$schema', 'version', 'runs', 'inlineExternalProperties', 'properties'].includes(key)),
    'unknown sarifLog property',
  );
  need(log.version === '2.1.0', 'version must be 2.1.0');
  need(typeof log.$schema === 'string', '$schema must be a string');
  need(Array.isArray(log.runs) && log.runs.length === 1, 'one run');
  for (const run of (log.runs as unknown[]) ?? []) {
    if (!isObject(run) || !isObject(run.tool) || !isObject(run.tool.driver)) {
      problems.push('run.tool.driver is required');
      continue;
    }
    const driver = run.tool.driver;
    need(typeof driver.name === 'string' && driver.name.length > 0, 'driver.name is required');
    need(['utf16CodeUnits', 'unicodeCodePoints'].includes(run.columnKind as string), 'columnKind enum');
    need(run.columnKind === 'utf16CodeUnits', 'columnKind must be utf16CodeUnits (SPEC §13)');
    const rules = driver.rules as unknown[];
    need(Array.isArray(rules), 'driver.rules is an array');
    for (const rule of rules ?? []) {
      need(isObject(rule) && typeof rule.id === 'string', 'rule.id is required');
      need(
        isObject(rule) && isObject(rule.shortDescription) && typeof rule.shortDescription.text === 'string',
        'rule.shortDescription.text is required',
      );
      need(
        isObject(rule) && isObject(rule.defaultConfiguration) && LEVELS.includes(rule.defaultConfiguration.level as string),
        'defaultConfiguration.level enum',
      );
    }
    need(Array.isArray(run.results), 'results is an array');
    for (const result of (run.results as unknown[]) ?? []) {
      if (!isObject(result)) {
        problems.push('result is an object');
        continue;
      }
      need(typeof result.ruleId === 'string', 'result.ruleId');
      need(LEVELS.includes(result.level as string), 'result.level enum');
      need(isObject(result.message) && typeof result.message.text === 'string' && result.message.text.length > 0, 'result.message.text');
      const index = result.ruleIndex as number;
      need(
        Number.isInteger(index) && isObject(rules[index]) && (rules[index] as { id: unknown }).id === result.ruleId,
        'ruleIndex points at ruleId',
      );
      need(
        isObject(result.partialFingerprints) && Object.values(result.partialFingerprints).every((value) => typeof value === 'string'),
        'partialFingerprints',
      );
      need(Array.isArray(result.locations) && result.locations.length > 0, 'locations');
      for (const location of (result.locations as unknown[]) ?? []) {
        const physical = isObject(location) ? location.physicalLocation : undefined;
        if (!isObject(physical) || !isObject(physical.artifactLocation) || !isObject(physical.region)) {
          problems.push('physicalLocation.artifactLocation and region');
          continue;
        }
        const uri = physical.artifactLocation.uri;
        need(typeof uri === 'string' && !/[\s]/.test(uri) && !uri.startsWith('/'), 'artifactLocation.uri is a relative URI reference');
        const region = physical.region;
        for (const key of ['startLine', 'startColumn', 'endLine', 'endColumn'])
          need(Number.isInteger(region[key]) && (region[key] as number) >= 1, `region.${key} >= 1`);
        need(
          (region.endLine as number) > (region.startLine as number) || (region.endColumn as number) >= (region.startColumn as number),
          'region ends after it starts',
        );
      }
    }
  }
  return problems;
}

describe('formatSarif', () => {
  it('writes a valid SARIF 2.1.0 log with one result per finding that needs attention', () => {
    const log = JSON.parse(formatSarif(sampleReport(), { version: '1.2.3' }));
    expect(validateSarif(log)).toEqual([]);
    const run = log.runs[0];
    expect(run.tool.driver.version).toBe('1.2.3');
    expect(run.results.map((result: { ruleId: string; level: string }) => `${result.ruleId} ${result.level}`)).toEqual([
      'rlm/missing error',
      'rlm/stale warning',
      'statistic/unsourced note',
    ]);
    const ids = run.tool.driver.rules.map((rule: { id: string }) => rule.id);
    expect(ids).toEqual(RULE_LIST.map((rule) => rule.id).sort());
    expect(ids).toContain('url/dead');
    expect(run.results.map((result: { ruleIndex: number }) => ids[result.ruleIndex])).toEqual([
      'rlm/missing',
      'rlm/stale',
      'statistic/unsourced',
    ]);
    expect(run.results[0].locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: 'docs/a%20b.md', uriBaseId: '%SRCROOT%' },
      region: { startLine: 3, startColumn: 5, endLine: 3, endColumn: 19 },
    });
    expect(run.results[1].properties.cause).toBe('staged-change');
  });

  it('is caught by the validator when a required field is wrong', () => {
    const log = JSON.parse(formatSarif(sampleReport(), { version: '1' }));
    log.runs[0].results[0].level = 'fatal';
    delete log.runs[0].tool.driver.rules[0].shortDescription;
    expect(validateSarif(log)).toEqual(['rule.shortDescription.text is required', 'result.level enum']);
  });

  it('keeps fingerprints independent of the line and distinct for repeated citations', () => {
    const findings = sampleFindings();
    const moved = findings.map((finding) => ({ ...finding, line: finding.line + 10 }));
    const twice = [...findings, { ...(findings[0] as Finding), line: 40 }];
    const prints = (list: Finding[]) =>
      JSON.parse(formatSarif(buildReport(list, 2, { skippedInCode: 0, suppressed: 0, notes: [] }), { version: '1' })).runs[0].results.map(
        (result: { partialFingerprints: Record<string, string> }) => result.partialFingerprints['aiwgCite/v1'],
      );
    expect(prints(moved)).toEqual(prints(findings));
    const repeated = prints(twice);
    expect(new Set(repeated).size).toBe(repeated.length);
  });
});
