import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RULE_LIST } from '@aiwg-cite/core';
import { PROJECT_ROOT } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';
import { formatRulesMarkdown } from '../src/commands/rules.ts';

const README = join(PROJECT_ROOT, 'README.md');
const START = '<!-- rules:start (generated from the rule registry; UPDATE=1 pnpm vitest run packages/cli/test/readme-rules.test.ts) -->';
const END = '<!-- rules:end -->';

describe('the README rule table', () => {
  it('is the table generated from the registry (UPDATE=1 rewrites it)', () => {
    const text = readFileSync(README, 'utf8');
    const start = text.indexOf(START);
    const end = text.indexOf(END);
    expect(start, 'the README has the rules markers').toBeGreaterThan(-1);
    expect(end).toBeGreaterThan(start);
    const expected = `${START}\n${formatRulesMarkdown(RULE_LIST)}\n${END}`;
    if (process.env.UPDATE === '1') writeFileSync(README, text.slice(0, start) + expected + text.slice(end + END.length));
    const current = readFileSync(README, 'utf8');
    expect(current.slice(current.indexOf(START), current.indexOf(END) + END.length)).toBe(expected);
  });

  it('has one anchor per rule, the one SARIF helpUri and explain point at', () => {
    const text = readFileSync(README, 'utf8');
    for (const rule of RULE_LIST) expect(text, rule.id).toContain(`<a id="rule-${rule.id.replace(/[^a-z0-9]+/g, '-')}"></a>`);
  });
});
