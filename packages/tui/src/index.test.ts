import { describe, expect, it } from 'vitest';
import * as tui from './index.ts';

describe('@aiwg-cite/tui exports', () => {
  it('names every runtime export explicitly (the dashboard itself loads through loadDashboard)', () => {
    expect(Object.keys(tui).sort()).toEqual([
      'BatchScheduler',
      'STATUS_FILTERS',
      'WatchDaemon',
      'WatchEngine',
      'countCells',
      'explanationKey',
      'findingKey',
      'formatCounts',
      'formatNdjson',
      'formatSummaryLine',
      'formatVerdictChange',
      'initialDashboardState',
      'layoutDashboard',
      'loadDashboard',
      'matchesFilter',
      'plainText',
      'reduceDashboard',
      'selectedFinding',
      'statusLabel',
      'visibleFindings',
      'watchMessages',
      'wrap',
    ]);
  });

  it('loads the ink dashboard on demand', async () => {
    const dashboard = await tui.loadDashboard();
    expect(typeof dashboard.mountDashboard).toBe('function');
    expect(typeof dashboard.createDashboardStore).toBe('function');
  });
});
