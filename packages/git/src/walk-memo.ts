import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeOwnFile } from '@aiwg-cite/node';
import type { ChangeStatus } from './history.ts';

/** One commit of a walk that changed a walked path. */
export interface Touch {
  /** The commit's place in the walk (`git log --all --date-order`, newest first). */
  readonly order: number;
  readonly sha: string;
  /** The first parent, or `null` for a root commit. */
  readonly parent: string | null;
  readonly status: ChangeStatus;
  /** The blob after the commit; `null` when it deleted the path. */
  readonly blob: string | null;
}

/** What a {@link PathWalk} learned: each walked path's touches, and each commit's place in the walk. */
export interface Walked {
  readonly touches: ReadonlyMap<string, readonly Touch[]>;
  readonly order: ReadonlyMap<string, number>;
}

const FORMAT = 1;
/** A memo larger than this (a long history of many paths) is not written: reading it would cost what the walk does. */
const MAX_CHARS = 64 * 1024 * 1024;
const SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
const STATUSES = new Set<string>(['A', 'M', 'D', 'R', 'C', 'T']);

/**
 * The walks of earlier runs, kept in `<git dir>/aiwg-cite/walks-v1` (issue 18): what `git log
 * --all` printed for each walked path, under the state the walk started from (`tips`: the commits
 * `--all` names, and whatever else changes which commits a walk sees). Commits never change, so
 * while that state is the same every walk prints the same; a memo of another state is ignored and
 * replaced. A file that does not parse whole is ignored and rewritten, never half-trusted; it is
 * replaced atomically (temporary file, then rename), so concurrent runs never see a torn file.
 */
export class WalkMemo {
  readonly #path: string;

  constructor(gitDir: string) {
    this.#path = join(gitDir, 'aiwg-cite', 'walks-v1');
  }

  /** The memo's file. */
  get path(): string {
    return this.#path;
  }

  /** The walks stored under `tips`, or `null` (none, another state, or a file that does not parse). */
  read(tips: string): Walked | null {
    let value: unknown;
    try {
      value = JSON.parse(readFileSync(this.#path, 'utf8'));
    } catch {
      return null;
    }
    const stored = value as { format?: unknown; tips?: unknown; commits?: unknown; paths?: unknown } | null;
    if (stored === null || typeof stored !== 'object' || stored.format !== FORMAT || stored.tips !== tips) return null;
    const { commits, paths } = stored;
    if (!Array.isArray(commits) || !Array.isArray(paths)) return null;
    const order = new Map<string, number>();
    const byOrder = new Map<number, { sha: string; parent: string | null }>();
    for (const commit of commits) {
      if (!Array.isArray(commit) || commit.length !== 3) return null;
      const [sha, parent, at] = commit as unknown[];
      if (typeof sha !== 'string' || !SHA.test(sha) || !(parent === null || (typeof parent === 'string' && SHA.test(parent)))) return null;
      if (!Number.isInteger(at) || (at as number) < 0 || byOrder.has(at as number) || order.has(sha)) return null;
      order.set(sha, at as number);
      byOrder.set(at as number, { sha, parent });
    }
    const touches = new Map<string, Touch[]>();
    for (const entry of paths) {
      if (!Array.isArray(entry) || entry.length !== 2 || typeof entry[0] !== 'string' || !Array.isArray(entry[1])) return null;
      const list: Touch[] = [];
      for (const touch of entry[1] as unknown[]) {
        if (!Array.isArray(touch) || touch.length !== 3) return null;
        const [at, status, blob] = touch as unknown[];
        const commit = byOrder.get(at as number);
        if (commit === undefined || typeof status !== 'string' || !STATUSES.has(status)) return null;
        if (!(blob === null || (typeof blob === 'string' && SHA.test(blob)))) return null;
        list.push({ order: at as number, sha: commit.sha, parent: commit.parent, status: status as ChangeStatus, blob });
      }
      touches.set(entry[0], list);
    }
    return { touches, order };
  }

  /** Stores the walks under `tips`; a memo that cannot be written is skipped, never an error. */
  write(tips: string, walked: Walked): void {
    const commits: [string, string | null, number][] = [];
    const parents = new Map<string, string | null>();
    for (const list of walked.touches.values()) for (const touch of list) parents.set(touch.sha, touch.parent);
    // Every commit a walk printed keeps its place, so a later walk under the same tips numbers alike.
    for (const [sha, at] of walked.order) commits.push([sha, parents.get(sha) ?? null, at]);
    const paths: [string, [number, string, string | null][]][] = [];
    for (const [path, list] of walked.touches) paths.push([path, list.map((touch) => [touch.order, touch.status, touch.blob])]);
    const text = JSON.stringify({ format: FORMAT, tips, commits, paths });
    if (text.length > MAX_CHARS) return;
    writeOwnFile(this.#path, text);
  }
}
