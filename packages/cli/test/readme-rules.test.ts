import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RULE_LIST, ruleAnchor } from '@aiwg-cite/core';
import { PROJECT_ROOT } from '@aiwg-cite/test-utils';
import { describe, expect, it } from 'vitest';
import { formatRulesMarkdown } from '../src/commands/rules.ts';
import { ruleDescriptor } from '../src/format/sarif.ts';
import { ruleDocsUrl } from '../src/rule-docs.ts';

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

  it('has one anchor per rule in the generated table, the one SARIF helpUri and explain point at', () => {
    const text = readFileSync(README, 'utf8');
    const table = text.slice(text.indexOf(START), text.indexOf(END));
    const anchors = [...table.matchAll(/<a id="([^"]+)"><\/a>/g)].map((match) => match[1]);
    expect(anchors).toEqual(RULE_LIST.map((rule) => ruleAnchor(rule.id)));
    const published = { repository: 'git+https://example.org/owner/aiwg-cite.git' };
    for (const rule of RULE_LIST) {
      const url = ruleDocsUrl(rule.id, published) as string;
      expect(url, rule.id).toBe(`https://example.org/owner/aiwg-cite#${ruleAnchor(rule.id)}`);
      expect(anchors, rule.id).toContain(url.slice(url.indexOf('#') + 1));
      // SARIF carries the same URL, or none when package.json does not say where the README is.
      const helpUri = ruleDescriptor(rule).helpUri;
      expect(helpUri === undefined || helpUri === ruleDocsUrl(rule.id), rule.id).toBe(true);
      if (helpUri !== undefined) expect(anchors).toContain(String(helpUri).slice(String(helpUri).indexOf('#') + 1));
    }
  });
});
