import { execFileSync } from 'node:child_process';
import { GIT_ENV, tempDir, writeTree } from '@aiwg-cite/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeServices, startFakeServices } from '../packages/online/test/fake-services.ts';
import { runCliAsync } from './online-helpers.ts';

let fake: FakeServices;
beforeAll(async () => {
  fake = await startFakeServices();
});
afterAll(async () => {
  await fake.close();
});

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const LEVELS = ['none', 'note', 'warning', 'error'];

/**
 * The SARIF 2.1.0 requirements this log must meet, checked by hand (no network to fetch the OASIS
 * schema): the required properties of sarifLog, run, tool, toolComponent, reportingDescriptor,
 * multiformatMessageString, result, message, location and region, their types and enums, and an
 * absolute `helpUri` where there is one (it is left out when package.json names no homepage or
 * repository to point at). Returns the problems; empty means valid.
 */
function sarifProblems(log: unknown): string[] {
  const problems: string[] = [];
  const need = (condition: boolean, problem: string) => {
    if (!condition) problems.push(problem);
  };
  const text = (value: unknown) => isObject(value) && typeof value.text === 'string' && value.text.length > 0;
  if (!isObject(log)) return ['sarifLog is an object'];
  need(log.version === '2.1.0', 'sarifLog.version is "2.1.0"');
  need(Array.isArray(log.runs), 'sarifLog.runs is an array');
  for (const run of (log.runs as unknown[]) ?? []) {
    if (!isObject(run) || !isObject(run.tool) || !isObject(run.tool.driver)) {
      problems.push('run.tool.driver is required');
      continue;
    }
    const driver = run.tool.driver;
    need(typeof driver.name === 'string', 'toolComponent.name is required');
    const rules = (driver.rules as unknown[]) ?? [];
    for (const rule of rules) {
      if (!isObject(rule) || typeof rule.id !== 'string') {
        problems.push('reportingDescriptor.id is required');
        continue;
      }
      need(text(rule.shortDescription), `${rule.id}: shortDescription.text`);
      need(text(rule.fullDescription), `${rule.id}: fullDescription.text`);
      need(text(rule.help), `${rule.id}: help.text`);
      need(
        rule.helpUri === undefined || (typeof rule.helpUri === 'string' && /^https:\/\/[^\s#]+#rule-[a-z0-9-]+$/.test(rule.helpUri)),
        `${rule.id}: helpUri is absolute`,
      );
      need(
        isObject(rule.defaultConfiguration) && LEVELS.includes(rule.defaultConfiguration.level as string),
        `${rule.id}: defaultConfiguration.level`,
      );
      if (rule.deprecatedIds !== undefined)
        need(Array.isArray(rule.deprecatedIds) && rule.deprecatedIds.every((id) => typeof id === 'string'), `${rule.id}: deprecatedIds`);
    }
    need(Array.isArray(run.results), 'run.results is an array');
    for (const result of (run.results as unknown[]) ?? []) {
      if (!isObject(result) || !isObject(result.message)) {
        problems.push('result.message is required');
        continue;
      }
      need(typeof result.message.text === 'string', 'message.text');
      need(LEVELS.includes(result.level as string), 'result.level');
      const rule = rules[result.ruleIndex as number];
      need(isObject(rule) && rule.id === result.ruleId, `${String(result.ruleId)}: ruleIndex points at its descriptor`);
      for (const location of (result.locations as unknown[]) ?? []) {
        const physical = isObject(location) ? location.physicalLocation : undefined;
        need(
          isObject(physical) && isObject(physical.artifactLocation) && typeof physical.artifactLocation.uri === 'string',
          'artifactLocation.uri',
        );
        const region = isObject(physical) ? physical.region : undefined;
        need(isObject(region) && Number.isInteger(region.startLine) && (region.startLine as number) >= 1, 'region.startLine >= 1');
      }
    }
  }
  return problems;
}

describe('check --online --format sarif', () => {
  it('is SARIF 2.1.0 with a described rule, and help, for every ruleId, online ones included', async () => {
    const dir = tempDir();
    writeTree(dir, {
      'paper.md': [
        'Hashimoto et al. (2024), DOI 10.1145/3676932.3676933.',
        '',
        'Lewis et al. introduced GPT-3 (arXiv:2005.14165).',
        '',
        `The [old report](${fake.origin}/web/gone) is gone.`,
        '',
      ].join('\n'),
    });
    execFileSync('git', ['init', '-q'], { cwd: dir, env: { ...process.env, ...GIT_ENV } });
    const run = await runCliAsync(['check', '--online', '--format', 'sarif'], { cwd: dir, env: fake.env });
    expect(run.code).toBe(1);
    const log = JSON.parse(run.stdout);
    expect(sarifProblems(log)).toEqual([]);
    const ruleIds = log.runs[0].results.map((result: { ruleId: string }) => result.ruleId);
    expect(ruleIds).toEqual(expect.arrayContaining(['doi/fabricated', 'attribution/author-mismatch', 'url/dead']));
    const described = new Set(log.runs[0].tool.driver.rules.map((rule: { id: string }) => rule.id));
    for (const id of ruleIds) expect(described.has(id), id).toBe(true);
  });

  it('the validator catches a descriptor without help', () => {
    const log = {
      version: '2.1.0',
      runs: [
        { tool: { driver: { name: 'x', rules: [{ id: 'a/b', shortDescription: { text: 's' }, helpUri: 'README.md#b' }] } }, results: [] },
      ],
    };
    expect(sarifProblems(log)).toEqual([
      'a/b: fullDescription.text',
      'a/b: help.text',
      'a/b: helpUri is absolute',
      'a/b: defaultConfiguration.level',
    ]);
  });
});
