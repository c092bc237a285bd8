import type { Finding } from '@aiwg-cite/core';
import { type Key, render, useApp, useInput, useStdout } from 'ink';
import { type ReactElement, useEffect, useSyncExternalStore } from 'react';
import {
  type DashboardAction,
  type DashboardState,
  type Explanation,
  explanationKey,
  reduceDashboard,
  type StatusFilter,
  selectedFinding,
} from './state.ts';
import { Dashboard } from './view.tsx';

/** Holds the dashboard state outside React, so the daemon can dispatch from its callbacks. */
export interface DashboardStore {
  getState(): DashboardState;
  dispatch(action: DashboardAction): void;
  subscribe(listener: () => void): () => void;
}

/** A store over {@link reduceDashboard}. */
export function createDashboardStore(initial: DashboardState): DashboardStore {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    dispatch(action) {
      const next = reduceDashboard(state, action);
      if (next === state) return;
      state = next;
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Props of {@link WatchApp}. */
export interface WatchAppProps {
  readonly store: DashboardStore;
  /** `a`: re-verify every document. */
  readonly onReverify: () => void;
  /** `q` or Ctrl-C. */
  readonly onQuit: () => void;
  /**
   * Finds the commit that staled a citation (the `blame` module of `@aiwg-cite/git`, injected by
   * the CLI so this package depends on the core only). Absent outside git.
   */
  readonly explain?: (finding: Finding) => Promise<Explanation | null>;
}

/** Whether the details of a finding can name a staling commit: a versioned citation that is stale or gone. */
export function isExplainable(finding: Finding): boolean {
  return (
    finding.kind === 'rlm' &&
    typeof finding.hash === 'string' &&
    (finding.status === 'stale' || finding.status === 'unknown-hash' || finding.status === 'missing')
  );
}

const NO_KEY: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};

const NUMBER_FILTERS: Readonly<Record<string, StatusFilter>> = {
  '0': 'all',
  '1': 'all',
  '2': 'stale',
  '3': 'unversioned',
  '4': 'missing',
  '5': 'malformed',
};

/** The live dashboard: the store's state painted by {@link Dashboard}, keys turned into actions. */
export function WatchApp({ store, onReverify, onQuit, explain }: WatchAppProps): ReactElement {
  const state = useSyncExternalStore(store.subscribe, store.getState);
  const { stdout } = useStdout();
  const { exit } = useApp();

  const shown = state.mode === 'details' ? selectedFinding(state) : null;
  const wanted = shown !== null && explain !== undefined && isExplainable(shown) ? explanationKey(shown) : null;
  useEffect(() => {
    if (wanted === null || shown === null || explain === undefined) return;
    if (store.getState().explanation?.key === wanted) return;
    store.dispatch({ type: 'explain-start', key: wanted });
    explain(shown).then(
      (explanation) => store.dispatch({ type: 'explain-done', key: wanted, explanation }),
      () => store.dispatch({ type: 'explain-done', key: wanted, explanation: null }),
    );
  }, [wanted, shown, explain, store]);

  useEffect(() => {
    const onResize = () => store.dispatch({ type: 'resize', rows: stdout.rows ?? 24, columns: stdout.columns ?? 80 });
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout, store]);

  const handle = (input: string, key: Key): void => {
    if (key.ctrl && input === 'c') {
      exit();
      onQuit();
      return;
    }
    const mode = store.getState().mode;
    if (mode === 'path') {
      if (key.return) store.dispatch({ type: 'path-commit' });
      else if (key.escape) store.dispatch({ type: 'path-cancel' });
      else if (key.backspace || key.delete) store.dispatch({ type: 'path-backspace' });
      else if (input !== '' && !key.ctrl && !key.meta) store.dispatch({ type: 'path-input', text: input });
      return;
    }
    if (mode === 'help') {
      if (input === 'q') {
        exit();
        onQuit();
      } else store.dispatch({ type: 'back' });
      return;
    }
    if (input === 'q') {
      exit();
      onQuit();
    } else if (key.upArrow || input === 'k') store.dispatch({ type: 'move', delta: -1 });
    else if (key.downArrow || input === 'j') store.dispatch({ type: 'move', delta: 1 });
    else if (key.pageUp) store.dispatch({ type: 'move', delta: -10 });
    else if (key.pageDown) store.dispatch({ type: 'move', delta: 10 });
    else if (key.home || input === 'g') store.dispatch({ type: 'move-to', where: 'first' });
    else if (key.end || input === 'G') store.dispatch({ type: 'move-to', where: 'last' });
    else if (key.return) store.dispatch({ type: mode === 'details' ? 'back' : 'open' });
    else if (key.escape) store.dispatch({ type: 'back' });
    else if (input === 'f') store.dispatch({ type: 'cycle-filter' });
    else if (input === '/' || input === 'p') store.dispatch({ type: 'path-start' });
    else if (input === '?' || input === 'h') store.dispatch({ type: 'help' });
    else if (input === 'a') onReverify();
    else if (input in NUMBER_FILTERS) store.dispatch({ type: 'set-filter', filter: NUMBER_FILTERS[input] as StatusFilter });
  };

  useInput((input, key) => {
    // Keys typed quickly (or pasted) arrive as one chunk: take them one at a time, so that
    // `/report9` opens the path filter and then types into it.
    const plain = !key.ctrl && !key.meta && !key.return && !key.escape && !key.tab && !key.backspace && !key.delete;
    if (plain && input.length > 1) for (const character of input) handle(character, NO_KEY);
    else handle(input, key);
  });

  return <Dashboard state={state} />;
}

/** Streams the live dashboard needs. */
export interface DashboardStreams {
  readonly stdout: NodeJS.WriteStream;
  readonly stdin: NodeJS.ReadStream;
  readonly stderr: NodeJS.WriteStream;
}

/** A mounted dashboard. */
export interface DashboardHandle {
  /** Unmounts and restores the terminal (raw mode off, cursor shown). */
  stop(): Promise<void>;
}

/**
 * Mounts the dashboard. Ink's own Ctrl-C handling is off (the app quits through `onQuit` so the
 * daemon closes first) and frames are capped at 12 per second. Incremental rendering stays off:
 * with ink 6.8 it left lines of the previous frame on screen when the frame's height changed
 * (seen in tmux); the layout already never exceeds `rows − 1`, so a full redraw does not flicker.
 */
export function mountDashboard(props: WatchAppProps, streams: DashboardStreams): DashboardHandle {
  const instance = render(<WatchApp {...props} />, {
    stdout: streams.stdout,
    stdin: streams.stdin,
    stderr: streams.stderr,
    exitOnCtrlC: false,
    patchConsole: false,
    maxFps: 12,
  });
  // Ask for the exit promise now: ink only resolves one that exists when it unmounts, and the app
  // may unmount itself (through `exit()` on q) before `stop` is called.
  const exited = instance.waitUntilExit().catch(() => undefined);
  return {
    async stop() {
      instance.unmount();
      await exited;
    },
  };
}
