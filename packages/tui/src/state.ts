import type { Finding, Summary } from '@aiwg-cite/core';
import type { EngineSnapshot, SkippedDocument } from './engine.ts';

/** Which citations the list shows. `other` is every problem that is not one of the four named ones. */
export type StatusFilter = 'all' | 'stale' | 'unversioned' | 'missing' | 'malformed' | 'other';

/** The order `f` cycles through. */
export const STATUS_FILTERS: readonly StatusFilter[] = ['all', 'stale', 'unversioned', 'missing', 'malformed', 'other'];

/** What fills the body of the screen. */
export type DashboardMode = 'list' | 'details' | 'help' | 'path';

/** The last update, as the header shows it. */
export interface LastUpdate {
  /** Wall-clock time, already formatted (`14:03:27`); the reducer never reads a clock. */
  readonly clock: string;
  readonly durationMs: number;
  readonly rechecked: number;
}

/** The commit that staled a citation, as `blame` finds it (issue #6), reduced to what the details show. */
export interface Explanation {
  /** The first commit after the pinned version, or `null` when there is none (uncommitted change, unknown hash). */
  readonly staling: { readonly sha: string; readonly author: string; readonly date: string; readonly subject: string } | null;
  /** `blame`'s drift class: `moved`, `whitespace`, `changed`, `deleted`, `uncommitted`, `unknown-hash`, `shallow`. */
  readonly drift: string;
}

/** The staling-commit lookup for the finding in the details view. */
export interface ExplanationState {
  readonly key: string;
  readonly explanation: Explanation | null | 'loading';
}

/** Everything the dashboard draws. Built only by {@link reduceDashboard}. */
export interface DashboardState {
  readonly summary: Summary | null;
  readonly verdict: 'PASS' | 'FAIL' | null;
  readonly attention: readonly Finding[];
  readonly documents: number;
  readonly skipped: readonly SkippedDocument[];
  /** The latest non-fatal problems (watcher errors), newest last, at most three. */
  readonly problems: readonly string[];
  readonly lastUpdate: LastUpdate | null;
  readonly busy: boolean;
  readonly mode: DashboardMode;
  readonly filter: StatusFilter;
  readonly pathFilter: string;
  /** Index of the selected row in the filtered list. */
  readonly cursor: number;
  /** Identity of the selected finding, so the selection survives updates. */
  readonly selectedKey: string | null;
  readonly rows: number;
  readonly columns: number;
  /** Whether colours are used (NO_COLOR, FORCE_COLOR and TTY already decided). */
  readonly color: boolean;
  /** Only code citations are checked (a watch without `--scholarly`). */
  readonly codeOnly: boolean;
  /** The staling commit of the finding in details, when a lookup was made. */
  readonly explanation: ExplanationState | null;
}

/** Inputs of the reducer: engine updates, terminal events and keys. */
export type DashboardAction =
  | { readonly type: 'snapshot'; readonly snapshot: EngineSnapshot; readonly update: LastUpdate }
  | { readonly type: 'busy' }
  | { readonly type: 'problem'; readonly message: string }
  | { readonly type: 'move'; readonly delta: number }
  | { readonly type: 'move-to'; readonly where: 'first' | 'last' }
  | { readonly type: 'open' }
  | { readonly type: 'back' }
  | { readonly type: 'help' }
  | { readonly type: 'cycle-filter' }
  | { readonly type: 'set-filter'; readonly filter: StatusFilter }
  | { readonly type: 'path-start' }
  | { readonly type: 'path-input'; readonly text: string }
  | { readonly type: 'path-backspace' }
  | { readonly type: 'path-commit' }
  | { readonly type: 'path-cancel' }
  | { readonly type: 'resize'; readonly rows: number; readonly columns: number }
  | { readonly type: 'explain-start'; readonly key: string }
  | { readonly type: 'explain-done'; readonly key: string; readonly explanation: Explanation | null };

/** The state before the first check finishes. */
export function initialDashboardState(options: {
  rows: number;
  columns: number;
  color: boolean;
  /** The watch checks code citations only (no `--scholarly`): its empty list says so. */
  codeOnly?: boolean;
}): DashboardState {
  return {
    summary: null,
    verdict: null,
    attention: [],
    documents: 0,
    skipped: [],
    problems: [],
    lastUpdate: null,
    busy: true,
    mode: 'list',
    filter: 'all',
    pathFilter: '',
    cursor: 0,
    selectedKey: null,
    rows: options.rows,
    columns: options.columns,
    color: options.color,
    codeOnly: options.codeOnly === true,
    explanation: null,
  };
}

/** A finding's identity in the list: document, position and kind. */
export function findingKey(finding: Finding): string {
  return `${finding.file}:${finding.line}:${finding.column}:${finding.kind}`;
}

/** The identity of a staling-commit lookup: the finding and the hash it cites. */
export function explanationKey(finding: Finding): string {
  return `${findingKey(finding)}@${String(finding.hash)}`;
}

/** Whether a finding passes a status filter. */
export function matchesFilter(finding: Finding, filter: StatusFilter): boolean {
  const group = statusGroup(finding);
  return filter === 'all' || group === filter;
}

function statusGroup(finding: Finding): StatusFilter {
  if (finding.kind !== 'rlm') return 'other';
  switch (finding.status) {
    case 'stale':
    case 'unknown-hash':
      return 'stale';
    case 'unversioned':
      return 'unversioned';
    case 'missing':
    case 'not-a-file':
    case 'outside-root':
      return 'missing';
    case 'malformed':
      return 'malformed';
    default:
      return 'other';
  }
}

/** The findings the list shows, in order: status filter, then a case-insensitive path substring. */
export function visibleFindings(state: Pick<DashboardState, 'attention' | 'filter' | 'pathFilter'>): Finding[] {
  const needle = state.pathFilter.toLowerCase();
  return state.attention.filter(
    (finding) => matchesFilter(finding, state.filter) && (needle === '' || finding.file.toLowerCase().includes(needle)),
  );
}

/** The selected finding, if any. */
export function selectedFinding(state: DashboardState): Finding | null {
  return visibleFindings(state)[state.cursor] ?? null;
}

/** The pure state transition of the dashboard. */
export function reduceDashboard(state: DashboardState, action: DashboardAction): DashboardState {
  switch (action.type) {
    case 'snapshot': {
      const next: DashboardState = {
        ...state,
        summary: action.snapshot.summary,
        verdict: action.snapshot.verdict,
        attention: action.snapshot.attention,
        documents: action.snapshot.documents,
        skipped: action.snapshot.skipped,
        lastUpdate: action.update,
        busy: false,
      };
      return reselect(next, state.selectedKey, state.cursor);
    }
    case 'busy':
      return state.busy ? state : { ...state, busy: true };
    case 'problem':
      return { ...state, problems: [...state.problems, action.message].slice(-3) };
    case 'move': {
      if (state.mode !== 'list') return state;
      const count = visibleFindings(state).length;
      const cursor = clamp(state.cursor + action.delta, count);
      return select(state, cursor);
    }
    case 'move-to': {
      if (state.mode !== 'list') return state;
      const count = visibleFindings(state).length;
      return select(state, action.where === 'first' ? 0 : clamp(count - 1, count));
    }
    case 'open':
      if (state.mode !== 'list' || selectedFinding(state) === null) return state;
      return { ...state, mode: 'details' };
    case 'back':
      return state.mode === 'list' ? state : { ...state, mode: 'list' };
    case 'help':
      return { ...state, mode: state.mode === 'help' ? 'list' : 'help' };
    case 'cycle-filter': {
      const at = STATUS_FILTERS.indexOf(state.filter);
      const filter = STATUS_FILTERS[(at + 1) % STATUS_FILTERS.length] as StatusFilter;
      return reselect({ ...state, filter, mode: state.mode === 'details' ? 'list' : state.mode }, state.selectedKey, 0);
    }
    case 'set-filter':
      return reselect({ ...state, filter: action.filter }, state.selectedKey, 0);
    case 'path-start':
      return { ...state, mode: 'path' };
    case 'path-input':
      if (state.mode !== 'path') return state;
      return reselect({ ...state, pathFilter: state.pathFilter + action.text }, state.selectedKey, 0);
    case 'path-backspace':
      if (state.mode !== 'path') return state;
      return reselect({ ...state, pathFilter: state.pathFilter.slice(0, -1) }, state.selectedKey, 0);
    case 'path-commit':
      return state.mode === 'path' ? { ...state, mode: 'list' } : state;
    case 'path-cancel':
      return state.mode === 'path' ? reselect({ ...state, mode: 'list', pathFilter: '' }, state.selectedKey, 0) : state;
    case 'resize':
      return state.rows === action.rows && state.columns === action.columns
        ? state
        : { ...state, rows: action.rows, columns: action.columns };
    case 'explain-start':
      return { ...state, explanation: { key: action.key, explanation: 'loading' } };
    case 'explain-done':
      // A late answer for a citation no longer shown is dropped.
      if (state.explanation?.key !== action.key) return state;
      return { ...state, explanation: { key: action.key, explanation: action.explanation } };
  }
}

function clamp(index: number, count: number): number {
  if (count === 0) return 0;
  return Math.max(0, Math.min(count - 1, index));
}

function select(state: DashboardState, cursor: number): DashboardState {
  const finding = visibleFindings(state)[cursor];
  return { ...state, cursor, selectedKey: finding === undefined ? null : findingKey(finding) };
}

/** Keeps the same finding selected when it is still listed; otherwise stays near the old row. */
function reselect(state: DashboardState, key: string | null, fallback: number): DashboardState {
  const visible = visibleFindings(state);
  const at = key === null ? -1 : visible.findIndex((finding) => findingKey(finding) === key);
  const cursor = at === -1 ? clamp(fallback, visible.length) : at;
  const finding = visible[cursor];
  const mode = state.mode === 'details' && at === -1 ? 'list' : state.mode;
  return { ...state, mode, cursor, selectedKey: finding === undefined ? null : findingKey(finding) };
}
