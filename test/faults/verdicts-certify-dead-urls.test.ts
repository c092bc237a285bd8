/**
 * Issue 15, item 5: `certify` left dead URLs out of the certificate's "unconfirmed" table. Every
 * claim the certificate makes must come from the verdicts `check --online` gives: each footnote
 * with a URL that `check --online` calls dead is UNCONFIRMED in the certificate, with that
 * verdict as its reason, whatever else the footnote holds (a statute, a verified arXiv id) and
 * however the URL is written (bare, in a link, an autolink, inside the tag, on a continuation line).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, writeTree } from '@aiwg-cite/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeServices, startFakeServices } from '../../packages/online/test/fake-services.ts';
import { runCliAsync } from '../online-helpers.ts';

let fake: FakeServices;
beforeAll(async () => {
  fake = await startFakeServices();
});
afterAll(async () => {
  await fake.close();
});

function memo(origin: string): string {
  const gone = `${origin}/web/gone`;
  const definitions = [
    `Old report ${gone} [VERIFIED: archived - 2019]`,
    `15 U.S.C. § 78j(b); agency page ${gone} [VERIFIED: CL-78]`,
    `[Old report](${gone}) [VERIFIED: archived]`,
    `Old report <${gone}> [VERIFIED: archived]`,
    `Old report [VERIFIED: ${gone}]`,
    `Vaswani et al. (2017), arXiv:1706.03762; mirror ${gone} [VERIFIED: arXiv - abs page]`,
    `Old report, archived [VERIFIED: archived]\n    at ${gone}`,
    `Live page ${origin}/web/ok-1 [VERIFIED: agency]`,
  ];
  const markers = definitions.map((_, index) => `Claim ${index + 1}.[^${index + 1}]`).join(' ');
  const notes = definitions.map((definition, index) => `[^${index + 1}]: ${definition}`).join('\n');
  return `# Memo\n\n## Findings\n\n${markers}\n\n## Footnotes\n\n${notes}\n`;
}

/** Footnote number → outcome and reason, from the certificate's table of unconfirmed and error citations. */
function failing(markdown: string): Map<string, { outcome: string; reason: string }> {
  const at = markdown.indexOf('## Unconfirmed and error citations');
  expect(at).toBeGreaterThanOrEqual(0);
  const out = new Map<string, { outcome: string; reason: string }>();
  for (const line of markdown.slice(at).split('\n').slice(1)) {
    if (line.startsWith('## ')) break;
    if (!line.startsWith('| ') || line.startsWith('| #') || line.startsWith('| ---')) continue;
    const cells = line
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((cell) => cell.trim());
    out.set(cells[0] as string, { outcome: cells[4] as string, reason: cells[6] as string });
  }
  return out;
}

describe('fault 15.5: certify takes its claims from the verdicts of check --online', () => {
  it('every footnote with a URL check --online calls dead is UNCONFIRMED in the certificate, for that reason', async () => {
    const dir = tempDir();
    writeTree(dir, { 'memo.md': memo(fake.origin) });

    const check = await runCliAsync(['check', 'memo.md', '--online', '--format', 'json'], { cwd: dir, env: fake.env });
    console.log('DEBUG', check.code, check.stderr.slice(0, 2000), check.stdout.slice(0, 3000));
    const findings = (JSON.parse(check.stdout) as { citations: { kind: string; status: string; line: number; text: string }[] }).citations;
    const lines = readFileSync(join(dir, 'memo.md'), 'utf8').split('\n');
    const footnoteOf = (line: number): string => {
      for (let at = line - 1; at >= 0; at -= 1) {
        const match = /^\[\^(\d+)\]:/.exec(lines[at] ?? '');
        if (match !== null) return match[1] as string;
      }
      return '?';
    };
    const dead = [
      ...new Set(
        findings.filter((finding) => finding.kind === 'url' && finding.status === 'dead').map((finding) => footnoteOf(finding.line)),
      ),
    ].sort();
    // check --online finds the dead page in each of the seven footnotes that cite it.
    expect(dead).toEqual(['1', '2', '3', '4', '5', '6', '7']);

    const run = await runCliAsync(['certify', 'memo.md', '--online'], { cwd: dir, env: fake.env });
    expect(run.stderr).not.toContain('internal error');
    const table = failing(readFileSync(join(dir, 'qa-outputs/citation-verification-certificate.md'), 'utf8'));
    for (const number of dead) {
      expect(table.get(number), `footnote ${number}`).toMatchObject({ outcome: 'UNCONFIRMED' });
      expect(table.get(number)?.reason, `footnote ${number}`).toContain('url/dead');
    }
    expect(table.has('8')).toBe(false);
  });
});
