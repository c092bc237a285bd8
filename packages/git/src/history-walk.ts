import type { ChangeStatus } from './history.ts';
import type { Touch, WalkMemo } from './walk-memo.ts';

/** Runs one git command and returns its stdout as text. */
export type RunGit = (args: readonly string[], input?: string) => string;

/**
 * Where a walk keeps what it learned between runs ({@link WalkMemo}), and how it names the state a
 * walk starts from (asked before the first walk and again before storing: a ref that moved
 * meanwhile leaves the memo unwritten).
 */
export interface WalkMemoPort {
  readonly memo: WalkMemo;
  /** Where the walks start (every ref's commit, the grafts), as the run first looked. */
  readonly tips: () => string;
  /** The same, looked at now: walks are kept only when it is still what they started from. @default tips */
  readonly tipsNow?: () => string;
}

/** How much pathspec text one `git log` command line carries (well below the kernel's ARG_MAX). */
const PATHSPEC_CHARS = 256 * 1024;
const RAW = /^\n?:\d+ \d+ [0-9a-f]+ ([0-9a-f]+) ([ACDMRTUX])\d*$/;
const OBJECT_ID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/**
 * The history of many paths read in a few git processes, not one per path: the blobs every path
 * ever had, and the blobs `git log --all --follow` would list for it (its versions under earlier
 * names), for any number of paths at once.
 *
 * Each walk is `git log --all --date-order --full-history --sparse --no-renames` limited to the
 * paths: `--sparse` prints every commit, so the place of a commit in the walk is the same in every
 * walk, and the walks of different paths line up. Following a path is then done here as
 * `--follow` does it (git's revision.c and tree-diff.c): one current name, walked in date order
 * over every ref without history simplification; a commit that creates the current name (and has a
 * parent) is diffed against its first parent with rename and copy detection (`-M -C
 * --find-copies-harder`, what `--follow` asks for), and when a rename or copy ends at the name, the
 * older commits are matched against its source. The diffs of all such commits are read by one
 * `git diff-tree --stdin`, and the earlier names by one more walk, so the number of git processes
 * grows with the length of the longest rename chain, not with the number of paths.
 *
 * One difference from a per-path `--follow` remains: git gives up inexact (edited) rename
 * detection in a commit when its creations times its sources exceed `diff.renameLimit` squared,
 * and `--follow` counts one creation where this counts all of the commit's. An edited rename in a
 * commit that creates many files among many others can be missed here; exact renames never are.
 */
export class PathWalk {
  readonly #run: RunGit;
  readonly #touches = new Map<string, Touch[]>();
  readonly #order = new Map<string, number>();
  /** For each diffed commit, the source of each rename or copy by its destination. */
  readonly #sources = new Map<string, Map<string, string>>();

  readonly #memo: WalkMemoPort | undefined;
  /** The state the walks of this run started from; `undefined` until the memo is first asked. */
  #tips: string | undefined;
  #learned = false;

  constructor(run: RunGit, memo?: WalkMemoPort) {
    this.#run = run;
    this.#memo = memo;
  }

  /** Stores what this run's walks learned, when they learned anything and the refs did not move meanwhile. */
  save(): void {
    if (this.#memo === undefined || !this.#learned || this.#tips === undefined) return;
    if ((this.#memo.tipsNow ?? this.#memo.tips)() !== this.#tips) return;
    this.#memo.memo.write(this.#tips, { touches: this.#touches, order: this.#order });
    this.#learned = false;
  }

  /** Takes in the walks of earlier runs under the same state, once. */
  #recall(): void {
    if (this.#memo === undefined || this.#tips !== undefined) return;
    this.#tips = this.#memo.tips();
    const walked = this.#memo.memo.read(this.#tips);
    if (walked === null) return;
    for (const [sha, at] of walked.order) this.#order.set(sha, at);
    for (const [path, list] of walked.touches) this.#touches.set(path, [...list]);
  }

  /** True when some commit of some ref changed the path (git paths, relative to the top level). */
  touched(path: string): boolean {
    this.walk([path]);
    return (this.#touches.get(path)?.length ?? 0) > 0;
  }

  /** Every blob the path had in any commit of any ref, by name only. */
  blobs(path: string): Set<string> {
    this.walk([path]);
    const out = new Set<string>();
    for (const touch of this.#touches.get(path) ?? []) if (touch.blob !== null) out.add(touch.blob);
    return out;
  }

  /** Walks the paths not walked yet: one `git log` per {@link PATHSPEC_CHARS} of paths. */
  walk(paths: Iterable<string>): void {
    const asked = [...new Set(paths)];
    if (asked.length > 0) this.#recall();
    const fresh = asked.filter((path) => !this.#touches.has(path));
    if (fresh.length > 0) this.#learned = true;
    for (let from = 0; from < fresh.length; ) {
      let chars = 0;
      let to = from;
      while (to < fresh.length && (to === from || chars + (fresh[to] as string).length < PATHSPEC_CHARS)) {
        chars += (fresh[to] as string).length + 1;
        to += 1;
      }
      this.#walkChunk(fresh.slice(from, to));
      from = to;
    }
  }

  /**
   * The blobs a `git log --all --follow` of each path lists, by path. One pass for all of them:
   * the walks and diffs that renames need are batched per round of the rename chains.
   */
  followed(paths: readonly string[]): Map<string, Set<string>> {
    this.walk(paths);
    const out = new Map<string, Set<string>>();
    let pending = [...new Set(paths)];
    while (pending.length > 0) {
      const names = new Set<string>();
      const commits = new Map<string, string>();
      const next: string[] = [];
      for (const path of pending) {
        const step = this.#follow(path);
        if (step.kind === 'done') {
          out.set(path, step.blobs);
          continue;
        }
        next.push(path);
        if (step.kind === 'walk') names.add(step.name);
        else commits.set(step.sha, step.parent);
      }
      this.walk(names);
      this.#diff(commits);
      pending = next;
    }
    return out;
  }

  /** Follows one path as far as the walks and diffs read so far allow. */
  #follow(
    path: string,
  ): { kind: 'done'; blobs: Set<string> } | { kind: 'walk'; name: string } | { kind: 'diff'; sha: string; parent: string } {
    const blobs = new Set<string>();
    let name = path;
    let after = -1;
    for (;;) {
      const touches = this.#touches.get(name);
      if (touches === undefined) return { kind: 'walk', name };
      const touch = touches.find((candidate) => candidate.order > after);
      if (touch === undefined) return { kind: 'done', blobs };
      if (touch.blob !== null) blobs.add(touch.blob);
      after = touch.order;
      if (touch.status !== 'A' || touch.parent === null) continue;
      const sources = this.#sources.get(touch.sha);
      if (sources === undefined) return { kind: 'diff', sha: touch.sha, parent: touch.parent };
      name = sources.get(name) ?? name;
    }
  }

  #walkChunk(paths: readonly string[]): void {
    // Only the walked paths take touches (a literal pathspec also matches what lies below a directory).
    const lists = new Map<string, Touch[]>();
    for (const path of paths) {
      lists.set(path, []);
      this.#touches.set(path, lists.get(path) as Touch[]);
    }
    const out = this.#run([
      '--literal-pathspecs',
      'log',
      '--all',
      '--date-order',
      '--full-history',
      '--sparse',
      '--no-renames',
      '--raw',
      '-z',
      '--no-abbrev',
      '--no-color',
      '--diff-merges=first-parent',
      '--format=%x1e%H%x00%P',
      '--',
      ...paths,
    ]);
    for (const record of out.split('\x1e')) {
      if (record === '') continue;
      const fields = record.split('\0');
      const sha = fields[0] as string;
      const parent = (fields[1] ?? '').split(' ')[0] || null;
      let order = this.#order.get(sha);
      if (order === undefined) {
        // Commits are numbered as the first walk prints them; one no earlier walk printed (a ref
        // moved between two walks) goes after them all.
        order = this.#order.size;
        this.#order.set(sha, order);
      }
      for (let at = 2; at < fields.length; at += 1) {
        const raw = RAW.exec(fields[at] as string);
        if (raw === null) continue;
        const path = fields[at + 1] ?? '';
        at += 1;
        const status = raw[2] as ChangeStatus;
        const blob = status === 'D' || /^0+$/.test(raw[1] as string) ? null : (raw[1] as string);
        lists.get(path)?.push({ order, sha, parent, status, blob });
      }
    }
    for (const list of lists.values()) list.sort((left, right) => left.order - right.order);
  }

  /** Reads the renames and copies of the commits (each against the given first parent) in one process. */
  #diff(commits: ReadonlyMap<string, string>): void {
    if (commits.size === 0) return;
    for (const sha of commits.keys()) this.#sources.set(sha, new Map());
    const input = [...commits].map(([sha, parent]) => `${sha} ${parent}\n`).join('');
    const out = this.#run(
      ['diff-tree', '--stdin', '-r', '-z', '--raw', '--no-abbrev', '--no-color', '-M', '-C', '--find-copies-harder'],
      input,
    );
    const fields = out.split('\0');
    let sources: Map<string, string> | undefined;
    for (let at = 0; at < fields.length; at += 1) {
      const field = (fields[at] as string).replace(/^\n/, '');
      if (OBJECT_ID.test(field)) {
        sources = this.#sources.get(field);
        continue;
      }
      const raw = RAW.exec(field);
      if (raw === null) continue;
      if (raw[2] === 'R' || raw[2] === 'C') {
        sources?.set(fields[at + 2] ?? '', fields[at + 1] ?? '');
        at += 2;
      } else {
        at += 1;
      }
    }
  }
}
