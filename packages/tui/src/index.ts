export type { DashboardHandle, DashboardStore, DashboardStreams, WatchAppProps } from './app.tsx';
export type { WatchDaemonOptions } from './daemon.ts';
export { WatchDaemon } from './daemon.ts';
export type {
  ChangeBatch,
  EngineSettings,
  EngineSnapshot,
  EngineStats,
  EngineUpdate,
  SkippedDocument,
  VerdictChange,
  WatchEngineOptions,
} from './engine.ts';
export { WatchEngine } from './engine.ts';
export type { ScreenLine, Segment, Tone } from './layout.ts';
export { layoutDashboard, plainText, wrap } from './layout.ts';
export { watchMessages } from './messages.ts';
export type { CountCell } from './plain.ts';
export { countCells, formatCounts, formatNdjson, formatSummaryLine, formatVerdictChange, statusLabel } from './plain.ts';
export type { BatchSchedulerOptions } from './scheduler.ts';
export { BatchScheduler } from './scheduler.ts';
export type { DashboardAction, DashboardMode, DashboardState, Explanation, ExplanationState, LastUpdate, StatusFilter } from './state.ts';
export {
  explanationKey,
  findingKey,
  initialDashboardState,
  matchesFilter,
  reduceDashboard,
  STATUS_FILTERS,
  selectedFinding,
  visibleFindings,
} from './state.ts';

/**
 * Loads the ink dashboard on demand, so that importing this package (or running `watch
 * --no-tui`) never loads ink or React.
 */
export async function loadDashboard(): Promise<typeof import('./app.tsx')> {
  return import('./app.tsx');
}
