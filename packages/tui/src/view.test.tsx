import type { Finding } from '@aiwg-cite/core';
import { renderToString } from 'ink';
import { render } from 'ink-testing-library';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { finding, snapshotOf } from '../test/fixtures.ts';
import { createDashboardStore, WatchApp } from './app.tsx';
import { layoutDashboard, plainText } from './layout.ts';
import { type DashboardAction, type DashboardState, explanationKey, initialDashboardState, reduceDashboard } from './state.ts';
import { Dashboard } from './view.tsx';

const UPDATE = { clock: '10:00:00', durationMs: 3.4, rechecked: 2 };
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

function stateWith(rows: number, attention = defaultAttention(), actions: DashboardAction[] = []): DashboardState {
  const start = initialDashboardState({ rows, columns: 72, color: false });
  return [{ type: 'snapshot', snapshot: snapshotOf(attention, 12), update: UPDATE } as DashboardAction, ...actions].reduce(
    reduceDashboard,
    start,
  );
}

function defaultAttention() {
  return [finding('docs/a.md', 3, 'stale'), finding('docs/a.md', 9, 'missing'), finding('docs/b.md', 1, 'unversioned')];
}

async function until(condition: () => boolean, deadlineMs = 2000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
}

function frame(state: DashboardState): string {
  return renderToString(<Dashboard state={state} />, { columns: state.columns })
    .replace(ANSI, '')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n');
}

describe('Dashboard view', () => {
  it('draws the counts, the last update and the citations grouped by document', () => {
    expect(frame(stateWith(20))).toBe(
      [
        'aiwg-cite watch  Fresh 12  Stale 1  Un-versioned 1  Missing 1',
        'updated 10:00:00 in 3 ms (2 documents checked)  2 documents',
        'docs/a.md',
        '› 3:5      STALE         [src/stale.ts@0123456789abcdef, L1]  src/stale…',
        '  9:5      MISSING       [src/missing.ts@0123456789abcdef, L1]  src/mis…',
        'docs/b.md',
        '  1:5      UN-VERSIONED  [src/unversioned.ts@0123456789abcdef, L1]  src…',
        '↑↓/jk move  Enter details  f filter  / path  a re-verify  h help  q quit',
      ].join('\n'),
    );
  });

  it('never draws more than rows − 1 lines and says how many are hidden', () => {
    const many = Array.from({ length: 40 }, (_, index) => finding(`docs/d${Math.floor(index / 10)}.md`, index + 1, 'stale'));
    for (const rows of [6, 10, 30]) {
      const lines = frame(stateWith(rows, many)).split('\n');
      expect(lines.length).toBeLessThanOrEqual(rows - 1);
    }
    expect(frame(stateWith(10, many))).toBe(
      [
        'aiwg-cite watch  Fresh 12  Stale 40  Un-versioned 0  Missing 0',
        'updated 10:00:00 in 3 ms (2 documents checked)  2 documents',
        'docs/d0.md',
        '› 1:5      STALE         [src/stale.ts@0123456789abcdef, L1]  src/stale…',
        '  2:5      STALE         [src/stale.ts@0123456789abcdef, L1]  src/stale…',
        '  3:5      STALE         [src/stale.ts@0123456789abcdef, L1]  src/stale…',
        '  4:5      STALE         [src/stale.ts@0123456789abcdef, L1]  src/stale…',
        '… 36 more',
        '↑↓/jk move  Enter details  f filter  / path  a re-verify  h help  q quit',
      ].join('\n'),
    );
    const scrolled = frame(stateWith(10, many, [{ type: 'move', delta: 20 }])).split('\n');
    expect(scrolled).toHaveLength(9);
    expect(scrolled.slice(2, 8)).toEqual([
      '… 18 above',
      '  19:5     STALE         [src/stale.ts@0123456789abcdef, L1]  src/stale…',
      '  20:5     STALE         [src/stale.ts@0123456789abcdef, L1]  src/stale…',
      'docs/d2.md',
      '› 21:5     STALE         [src/stale.ts@0123456789abcdef, L1]  src/stale…',
      '… 19 more',
    ]);
  });

  it('shows the details of the selected citation', () => {
    const text = frame(stateWith(20, defaultAttention(), [{ type: 'open' }]));
    expect(text).toBe(
      [
        'aiwg-cite watch  Fresh 12  Stale 1  Un-versioned 1  Missing 1',
        'updated 10:00:00 in 3 ms (2 documents checked)  2 documents',
        'docs/a.md:3:5',
        'STALE  warning  rlm/stale',
        '[src/stale.ts@0123456789abcdef, L1]',
        '',
        '`src/stale.ts` is stale',
        'fix: fix the stale one',
        '',
        'artifact src/stale.ts  lines L1  cited hash 0123456789abcdef  current',
        'hash fedcba9876543210',
        'Esc/Enter back  q quit',
      ].join('\n'),
    );
  });

  it('shows the filter, the path prompt and the empty states', () => {
    const filtered = frame(
      stateWith(20, defaultAttention(), [{ type: 'cycle-filter' }, { type: 'cycle-filter' }, { type: 'cycle-filter' }]),
    );
    expect(filtered.split('\n')[1]).toBe('updated 10:00:00 in 3 ms (2 documents checked)  2 documents  filter: mi…');
    expect(frame({ ...stateWith(20, defaultAttention(), [{ type: 'cycle-filter' }]), columns: 100 }).split('\n')[1]).toBe(
      'updated 10:00:00 in 3 ms (2 documents checked)  2 documents  filter: stale',
    );
    const prompt = frame(stateWith(20, defaultAttention(), [{ type: 'path-start' }, { type: 'path-input', text: 'zz' }])).split('\n');
    expect(prompt.slice(2)).toEqual(['No citation matches the filter.', 'path: zz▏  (Enter keep, Esc clear)']);
    const clean = frame(stateWith(20, [])).split('\n');
    expect(clean[2]).toBe('Nothing needs attention.');
    expect(clean.join('\n')).not.toContain('Code citations only');
    // A watch without --scholarly says what it leaves out, where a clean list could mislead.
    const codeOnly = frame({ ...stateWith(20, []), codeOnly: true }).split('\n');
    expect(codeOnly[2]).toBe('Nothing needs attention.');
    expect(codeOnly[3]).toMatch(/^Code citations only: `watch --scholarly` also checks REF ids/);
    const waiting = frame(initialDashboardState({ rows: 20, columns: 72, color: false })).split('\n');
    expect(waiting.slice(0, 3)).toEqual(['aiwg-cite watch', 'checking…', 'checking…']);
  });

  it('uses colour only when it is on', () => {
    const plain = renderToString(<Dashboard state={stateWith(20)} />, { columns: 72 });
    expect(plain).not.toMatch(ANSI);
    const coloured = layoutDashboard({ ...stateWith(20), color: true });
    expect(coloured[0]?.find((segment) => segment.text === '1' && segment.tone === 'yellow')).toBeDefined();
    expect(plainText(coloured)).toBe(plainText(layoutDashboard(stateWith(20))));
  });

  it('turns keys into actions through the live app', async () => {
    const store = createDashboardStore(stateWith(20));
    let quits = 0;
    let reverifies = 0;
    const app = render(<WatchApp store={store} onQuit={() => (quits += 1)} onReverify={() => (reverifies += 1)} />);
    const press = async (input: string) => {
      app.stdin.write(input);
      await new Promise((resolve) => setImmediate(resolve));
    };
    await press('j');
    expect(store.getState().cursor).toBe(1);
    await press('\u001b[B');
    expect(store.getState().cursor).toBe(2);
    await press('k');
    expect(store.getState().cursor).toBe(1);
    await press('\r');
    expect(store.getState().mode).toBe('details');
    await press('\u001b');
    // Ink waits briefly to tell a lone Escape from the start of an escape sequence: poll for it.
    await until(() => store.getState().mode === 'list');
    expect(store.getState().mode).toBe('list');
    await press('f');
    expect(store.getState().filter).toBe('stale');
    await press('/');
    await press('b');
    expect(store.getState().pathFilter).toBe('b');
    await press('\r');
    expect(store.getState().mode).toBe('list');
    await press('?');
    expect(store.getState().mode).toBe('help');
    await press('x');
    expect(store.getState().mode).toBe('list');
    await press('h');
    expect(store.getState().mode).toBe('help');
    await press('h');
    expect(store.getState().mode).toBe('list');
    await press('a');
    expect(reverifies).toBe(1);
    await press('q');
    expect(quits).toBe(1);
    app.unmount();
  });

  it('takes keys that arrive in one chunk one at a time', async () => {
    const store = createDashboardStore(stateWith(20));
    const app = render(<WatchApp store={store} onQuit={() => undefined} onReverify={() => undefined} />);
    app.stdin.write('jj');
    await until(() => store.getState().cursor === 2);
    expect(store.getState().cursor).toBe(2);
    app.stdin.write('/b.m');
    await until(() => store.getState().pathFilter === 'b.m');
    expect(store.getState()).toMatchObject({ mode: 'path', pathFilter: 'b.m', cursor: 0 });
    app.unmount();
  });

  it('shows the staling commit in the details once it is known', () => {
    const opened = stateWith(20, defaultAttention(), [{ type: 'open' }]);
    const stale = defaultAttention()[0] as Finding;
    const key = explanationKey(stale);
    const loading = frame(reduceDashboard(opened, { type: 'explain-start', key }));
    expect(loading).toContain('staling commit: looking it up…');
    const staling = { sha: '0123456789abcdef0123', author: 'Ann Author', date: '2026-01-02T03:04:05Z', subject: 'rework the stale module' };
    const found = frame(
      [
        { type: 'explain-start', key } as DashboardAction,
        { type: 'explain-done', key, explanation: { staling, drift: 'changed' } } as DashboardAction,
      ].reduce(reduceDashboard, opened),
    ).split('\n');
    expect(found.slice(9, 11)).toEqual([
      'staling commit: 0123456789ab 2026-01-02 Ann Author',
      '    rework the stale module (drift: changed)',
    ]);
    const uncommitted = frame(
      [
        { type: 'explain-start', key } as DashboardAction,
        { type: 'explain-done', key, explanation: { staling: null, drift: 'uncommitted' } } as DashboardAction,
      ].reduce(reduceDashboard, opened),
    );
    expect(uncommitted).toContain('staling commit: none yet, the change is not committed');
  });

  it('escapes control characters from names, citations and messages', () => {
    const evil = finding('docs/evil\u001b]0;owned\u0007.md', 2, 'missing', '[a\u009b31m.ts, L1]');
    const state = stateWith(20, [{ ...evil, message: 'gone \u001b[2J now' }]);
    const text = plainText(layoutDashboard(state));
    expect(text).toContain('docs/evil\\e]0;owned\\u0007.md');
    expect(text).toContain('[a\\u009b31m.ts, L1]');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for them
    expect(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(text)).toBe(false);
    const details = plainText(layoutDashboard(reduceDashboard(state, { type: 'open' })));
    expect(details).toContain('gone \\e[2J now');
  });

  it('fits wide characters by display width and cuts long names in the middle, keeping their end', () => {
    const wide = finding('docs/wide.md', 1, 'missing', `[${'漢字'.repeat(40)}.ts, L1]`);
    const names = [1, 2].map((index) => finding(`docs/${'deep/'.repeat(12)}chapter-${index}.md`, 1, 'stale'));
    const emoji = finding(`docs/${'🙂'.repeat(60)}.md`, 1, 'missing');
    for (const columns of [20, 41, 72, 80]) {
      const state = reduceDashboard(stateWith(20, [wide, ...names, emoji]), { type: 'resize', rows: 20, columns });
      const lines = plainText(layoutDashboard(state)).split('\n');
      for (const line of lines) expect(stringWidth(line), line).toBeLessThanOrEqual(columns);
      if (columns === 41 || columns === 72) {
        expect(lines.filter((line) => /^docs\/deep\/.*….*chapter-\d\.md$/.test(line))).toHaveLength(2);
        expect(lines.some((line) => /^docs\/(🙂)+…(🙂)+\.md$/u.test(line))).toBe(true);
      }
    }
  });
});
