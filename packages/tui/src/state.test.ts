import { describe, expect, it } from 'vitest';
import { finding, snapshotOf } from '../test/fixtures.ts';
import {
  type DashboardAction,
  type DashboardState,
  initialDashboardState,
  reduceDashboard,
  selectedFinding,
  visibleFindings,
} from './state.ts';

const UPDATE = { clock: '10:00:00', durationMs: 3, rechecked: 2 };

function run(state: DashboardState, ...actions: DashboardAction[]): DashboardState {
  return actions.reduce(reduceDashboard, state);
}

function loaded(): DashboardState {
  const attention = [
    finding('docs/a.md', 3, 'stale'),
    finding('docs/a.md', 9, 'missing'),
    finding('docs/b.md', 1, 'unversioned'),
    finding('docs/c.md', 4, 'malformed'),
    finding('docs/c.md', 8, 'invalid-range'),
  ];
  return run(initialDashboardState({ rows: 20, columns: 80, color: false }), {
    type: 'snapshot',
    snapshot: snapshotOf(attention, 4),
    update: UPDATE,
  });
}

describe('reduceDashboard', () => {
  it('starts busy and settles on the first snapshot with the first row selected', () => {
    const initial = initialDashboardState({ rows: 20, columns: 80, color: false });
    expect(initial.busy).toBe(true);
    expect(initial.summary).toBeNull();
    const state = loaded();
    expect(state.busy).toBe(false);
    expect(state.summary?.rlm.fresh).toBe(4);
    expect(state.cursor).toBe(0);
    expect(state.selectedKey).toBe('docs/a.md:3:5:rlm');
    expect(state.lastUpdate).toEqual(UPDATE);
  });

  it('moves within the list and clamps at both ends', () => {
    const state = loaded();
    expect(run(state, { type: 'move', delta: -1 }).cursor).toBe(0);
    expect(run(state, { type: 'move', delta: 2 }).selectedKey).toBe('docs/b.md:1:5:rlm');
    expect(run(state, { type: 'move', delta: 99 }).cursor).toBe(4);
    expect(run(state, { type: 'move-to', where: 'last' }).selectedKey).toBe('docs/c.md:8:5:rlm');
    expect(run(state, { type: 'move', delta: 3 }, { type: 'move-to', where: 'first' }).cursor).toBe(0);
  });

  it('keeps the same citation selected when an update moves it', () => {
    const state = run(loaded(), { type: 'move', delta: 2 });
    const attention = [finding('docs/a.md', 9, 'missing'), finding('docs/b.md', 1, 'unversioned'), finding('docs/c.md', 4, 'malformed')];
    const next = reduceDashboard(state, { type: 'snapshot', snapshot: snapshotOf(attention, 5), update: UPDATE });
    expect(next.cursor).toBe(1);
    expect(next.selectedKey).toBe('docs/b.md:1:5:rlm');
  });

  it('stays near the old row when the selected citation is fixed, and leaves details', () => {
    const state = run(loaded(), { type: 'move', delta: 4 }, { type: 'open' });
    expect(state.mode).toBe('details');
    const attention = [finding('docs/a.md', 3, 'stale'), finding('docs/a.md', 9, 'missing')];
    const next = reduceDashboard(state, { type: 'snapshot', snapshot: snapshotOf(attention, 7), update: UPDATE });
    expect(next.cursor).toBe(1);
    expect(next.mode).toBe('list');
  });

  it('cycles the status filter through every group and back', () => {
    let state = loaded();
    const seen: string[] = [];
    for (let step = 0; step < 6; step += 1) {
      state = reduceDashboard(state, { type: 'cycle-filter' });
      seen.push(
        `${state.filter}:${visibleFindings(state)
          .map((item) => item.status)
          .join(',')}`,
      );
    }
    expect(seen).toEqual([
      'stale:stale',
      'unversioned:unversioned',
      'missing:missing',
      'malformed:malformed',
      'other:invalid-range',
      'all:stale,missing,unversioned,malformed,invalid-range',
    ]);
  });

  it('filters by path with type-ahead; Enter keeps the filter, Esc clears it', () => {
    const typing = run(loaded(), { type: 'path-start' }, { type: 'path-input', text: 'c' }, { type: 'path-input', text: '.M' });
    expect(typing.mode).toBe('path');
    expect(visibleFindings(typing).map((item) => item.file)).toEqual(['docs/c.md', 'docs/c.md']);
    expect(selectedFinding(typing)?.line).toBe(4);
    const kept = run(typing, { type: 'path-backspace' }, { type: 'path-commit' });
    expect(kept.mode).toBe('list');
    expect(kept.pathFilter).toBe('c.');
    const cleared = run(typing, { type: 'path-cancel' });
    expect(cleared.pathFilter).toBe('');
    expect(visibleFindings(cleared)).toHaveLength(5);
  });

  it('ignores keys that make no sense in the current mode', () => {
    const state = loaded();
    expect(reduceDashboard(state, { type: 'path-input', text: 'x' })).toBe(state);
    expect(reduceDashboard(state, { type: 'back' })).toBe(state);
    const help = reduceDashboard(state, { type: 'help' });
    expect(help.mode).toBe('help');
    expect(reduceDashboard(help, { type: 'move', delta: 1 })).toBe(help);
    expect(reduceDashboard(help, { type: 'help' }).mode).toBe('list');
    const empty = run(initialDashboardState({ rows: 20, columns: 80, color: false }), {
      type: 'snapshot',
      snapshot: snapshotOf([], 3),
      update: UPDATE,
    });
    expect(reduceDashboard(empty, { type: 'open' })).toBe(empty);
  });

  it('keeps the last three problems, marks busy and follows resizes', () => {
    let state = loaded();
    for (const message of ['one', 'two', 'three', 'four']) state = reduceDashboard(state, { type: 'problem', message });
    expect(state.problems).toEqual(['two', 'three', 'four']);
    expect(reduceDashboard(state, { type: 'busy' }).busy).toBe(true);
    const resized = reduceDashboard(state, { type: 'resize', rows: 10, columns: 40 });
    expect([resized.rows, resized.columns]).toEqual([10, 40]);
    expect(reduceDashboard(resized, { type: 'resize', rows: 10, columns: 40 })).toBe(resized);
  });

  it('keeps the staling-commit lookup of the shown citation and drops late answers for another', () => {
    const state = run(loaded(), { type: 'open' });
    const started = reduceDashboard(state, { type: 'explain-start', key: 'k1' });
    expect(started.explanation).toEqual({ key: 'k1', explanation: 'loading' });
    const staling = { sha: 'a'.repeat(40), author: 'Ann', date: '2026-01-02T03:04:05Z', subject: 'rework' };
    expect(reduceDashboard(started, { type: 'explain-done', key: 'k2', explanation: null })).toBe(started);
    const done = reduceDashboard(started, { type: 'explain-done', key: 'k1', explanation: { staling, drift: 'changed' } });
    expect(done.explanation).toEqual({ key: 'k1', explanation: { staling, drift: 'changed' } });
  });
});
