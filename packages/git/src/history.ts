import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { AiwgCiteError, contentHash, isAiwgCiteError, replacementContentHash, type Sha256 } from '@aiwg-cite/core';
import { gitSync } from '@aiwg-cite/node';
import { BlobHashCache, type BlobHashes } from './blob-hash-cache.ts';
import { CatFileBatch, type GitObject } from './cat-file.ts';
import { PathWalk } from './history-walk.ts';
import { isBlobMode, readIndex as readIndexEntries } from './index-entries.ts';
import { gitMessages } from './messages.ts';
import { WalkMemo } from './walk-memo.ts';

/** A commit as blame reports it. */
export interface CommitInfo {
  readonly sha: string;
  readonly author: string;
  /** Author date, strict ISO 8601. */
  readonly date: string;
  readonly subject: string;
}

/** How a commit touched the artifact (git-diff(1) "--diff-filter" letters). */
export type ChangeStatus = 'A' | 'M' | 'D' | 'R' | 'C' | 'T';

/** One commit that changed an artifact, and the artifact's blob after it. */
export interface ArtifactVersion {
  readonly commit: CommitInfo;
  readonly status: ChangeStatus;
  /** The artifact's path in that commit, relative to the git top level. */
  readonly path: string;
  /** For a rename or copy, the path before it. */
  readonly previousPath: string | null;
  /** The blob after the commit; `null` when the commit deleted the artifact. */
  readonly blob: string | null;
}

/** Which history to walk: the current branch (`HEAD`) or every ref (`--all`). */
export type HistoryScope = 'head' | 'all';

const nodeSha256: Sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');
const textDecoder = new TextDecoder('utf-8');
/** How many UTF-16 units of decoded blob text a history keeps in memory. */
const TEXT_CACHE_CHARS = 64 * 1024 * 1024;
/** From how many paths {@link GitHistory.knownHashesOf} reads the whole index rather than each path's staged blob. */
const INDEX_SNAPSHOT_PATHS = 16;

/**
 * The git history of cited artifacts, read cheaply: the fabricated-hash check reads the history of
 * all artifacts in one pass ({@link PathWalk}); blame, which needs one artifact's commits, one
 * `git log --follow --raw` per artifact and scope (never one git call per commit); blobs through
 * one `git cat-file --batch`, and each blob's
 * content hash computed once and cached under the git directory (see {@link BlobHashCache}).
 * Paths given to its methods are relative to the check root, which may sit below the top level.
 */
export class GitHistory {
  /** The git top level, native path. */
  readonly topLevel: string;
  /** The absolute git directory. */
  readonly gitDir: string;
  /** True in a shallow clone: history is incomplete, so an absent hash proves nothing. */
  readonly isShallow: boolean;
  readonly #prefix: string;
  /** The directory a linked worktree shares with the main one (its refs, `info/grafts`). */
  readonly #commonDir: string;
  readonly #env: NodeJS.ProcessEnv;
  readonly #cache: BlobHashCache;
  readonly #logs = new Map<string, ArtifactVersion[]>();
  #catFile: CatFileBatch | null = null;
  #walk: PathWalk | null = null;
  #hasCommits: boolean | undefined;
  /** {@link #tips} as this repository's first look found them. */
  #firstTips: string | undefined;
  readonly #texts = new Map<string, Promise<string | null>>();
  #textChars = 0;
  readonly #hashedBytes = new Map<string, Uint8Array>();
  #hashedChars = 0;

  private constructor(topLevel: string, gitDir: string, commonDir: string, isShallow: boolean, root: string, env: NodeJS.ProcessEnv) {
    this.topLevel = topLevel;
    this.gitDir = gitDir;
    this.#commonDir = commonDir;
    this.isShallow = isShallow;
    const prefix = relative(topLevel, root).split(sep).join('/');
    this.#prefix = prefix === '' ? '' : `${prefix}/`;
    this.#env = env;
    this.#cache = new BlobHashCache(gitDir);
  }

  /** Opens the history of the repository that contains `root`, or returns `null` outside git. */
  static open(root: string, env: NodeJS.ProcessEnv = process.env): GitHistory | null {
    let out: string;
    try {
      out = gitSync(root, ['rev-parse', '--show-toplevel', '--absolute-git-dir', '--is-shallow-repository', '--git-common-dir'], {
        env,
      }).toString('utf8');
    } catch (error) {
      if (isAiwgCiteError(error) && error.code === 'GIT_UNAVAILABLE') {
        throw new AiwgCiteError('GIT_UNAVAILABLE', gitMessages.cannotRun(error.message), {
          cause: error,
        });
      }
      return null;
    }
    const [topLevel, gitDir, shallow, commonDir] = out.split('\n');
    if (topLevel === undefined || topLevel === '' || gitDir === undefined || gitDir === '') return null;
    // git prints the common directory relative to where it ran (the root) unless it is elsewhere.
    const common = commonDir === undefined || commonDir === '' ? gitDir : resolve(root, commonDir);
    return new GitHistory(resolve(topLevel), gitDir, common, shallow === 'true', resolve(root), env);
  }

  /** A root-relative path as git names it (relative to the top level). */
  gitPath(path: string): string {
    return this.#prefix + path;
  }

  /** True when HEAD names a commit (false in a repository with no commits yet). */
  hasCommits(): boolean {
    this.#hasCommits ??= this.#run(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], true) !== null;
    return this.#hasCommits;
  }

  /**
   * The commits that changed an artifact, newest first, following renames (`--follow -M`).
   * Merges are diffed against their first parent, so a merge that changed the file contributes
   * its result blob. One git process per artifact and scope, cached for the life of this object.
   */
  versions(path: string, scope: HistoryScope): readonly ArtifactVersion[] {
    const key = `${scope}\0${path}`;
    const cached = this.#logs.get(key);
    if (cached !== undefined) return cached;
    if (!this.hasCommits()) {
      this.#logs.set(key, []);
      return [];
    }
    const out = this.#run([
      '--literal-pathspecs',
      'log',
      '--date-order',
      '--follow',
      '-M',
      '--raw',
      '-z',
      '--no-abbrev',
      '--no-color',
      '--diff-merges=first-parent',
      '--format=%x1e%H%x00%an%x00%aI%x00%s',
      ...(scope === 'all' ? ['--all'] : ['HEAD']),
      '--',
      this.gitPath(path),
    ]) as string;
    const versions = parseRawLog(out);
    this.#logs.set(key, versions);
    return versions;
  }

  /** Commits reachable from HEAD but not from `sha` that changed the path (no rename following), newest first. */
  commitsSince(sha: string, path: string): string[] {
    const out = this.#run(['--literal-pathspecs', 'rev-list', '--date-order', 'HEAD', `^${sha}`, '--', this.gitPath(path)]) as string;
    return out.split('\n').filter((line) => line !== '');
  }

  /** Information on one commit. */
  commit(sha: string): CommitInfo {
    const out = this.#run(['show', '-s', '--format=%H%x00%an%x00%aI%x00%s', sha]) as string;
    const [full, author, date, subject] = out.replace(/\n$/, '').split('\0');
    return { sha: full ?? sha, author: author ?? '', date: date ?? '', subject: subject ?? '' };
  }

  /** Where a deleting commit renamed the path to, if it did (`git show -M --name-status`). */
  renamedTo(sha: string, path: string): string | null {
    const out = this.#run(['show', '--format=', '-M', '--name-status', '-z', '--diff-merges=first-parent', sha], true);
    if (out === null) return null;
    const fields = out.split('\0');
    for (let at = 0; at < fields.length; at += 1) {
      const status = fields[at] as string;
      if (/^[RC]\d*$/.test(status.trim())) {
        if (fields[at + 1] === this.gitPath(path)) return this.#fromGitPath(fields[at + 2] ?? '');
        at += 2;
      } else {
        at += 1;
      }
    }
    return null;
  }

  /** Reads a blob (or any object name git accepts) through the shared `cat-file --batch` process. */
  read(object: string): Promise<GitObject | null> {
    this.#catFile ??= new CatFileBatch(this.topLevel, this.#env);
    return this.#catFile.read(object);
  }

  /**
   * A blob decoded as UTF-8 (invalid bytes become U+FFFD), or `null` when it does not exist.
   * Kept for the life of this object up to a budget, so blaming many citations of one artifact
   * reads each version once.
   */
  readText(oid: string): Promise<string | null> {
    const cached = this.#texts.get(oid);
    if (cached !== undefined) return cached;
    const hashed = this.#hashedBytes.get(oid);
    if (hashed !== undefined) this.#hashedBytes.delete(oid);
    const bytes = hashed === undefined ? this.read(oid).then((object) => object?.bytes ?? null) : Promise.resolve(hashed);
    const text = bytes.then((value) => (value === null ? null : textDecoder.decode(value)));
    if (this.#textChars < TEXT_CACHE_CHARS) {
      this.#texts.set(oid, text);
      void text.then((value) => {
        this.#textChars += value?.length ?? 0;
      });
    }
    return text;
  }

  /** The artifact's stage-0 index entry, or `null` when it is not in the index. */
  readIndex(path: string): Promise<GitObject | null> {
    return this.read(`:${this.gitPath(path)}`);
  }

  /** The content hashes of blobs: from the cache when known, else read once and hashed. */
  async hashBlobs(oids: Iterable<string>): Promise<Map<string, BlobHashes>> {
    const out = new Map<string, BlobHashes>();
    const pending: Promise<void>[] = [];
    for (const oid of new Set(oids)) {
      const known = this.#cache.get(oid);
      if (known !== undefined) {
        out.set(oid, known);
        continue;
      }
      pending.push(
        this.read(oid).then(async (object) => {
          if (object === null) return;
          const hashes = await hashBytes(object.bytes);
          // Keep the bytes a while: blame reads the same versions next to track the cited lines.
          if (this.#hashedChars < TEXT_CACHE_CHARS) {
            this.#hashedBytes.set(oid, object.bytes);
            this.#hashedChars += object.bytes.length;
          }
          this.#cache.set(oid, hashes);
          out.set(oid, hashes);
        }),
      );
    }
    await Promise.all(pending);
    return out;
  }

  /**
   * Every content hash the artifact ever had in the repository (every ref, following renames as
   * `git log --all --follow` does, plus the index), by both routines of SPEC §2.4; `null` when git
   * has never tracked it, so there is nothing to compare.
   */
  async knownHashes(path: string): Promise<Set<string> | null> {
    return (await this.knownHashesOf([path])).get(path) ?? null;
  }

  /**
   * {@link knownHashes} of many artifacts from one pass over the history ({@link PathWalk}):
   * a few git processes in all, however many artifacts there are.
   */
  async knownHashesOf(paths: readonly string[]): Promise<Map<string, Set<string> | null>> {
    const out = new Map<string, Set<string> | null>();
    if (paths.length === 0) return out;
    const walk = this.#pathWalk();
    const followed = walk?.followed(paths.map((path) => this.gitPath(path)));
    const indexed = await this.#stagedBlobs(paths);
    const oidsOf = paths.map((path, at) => {
      const oids = [...(followed?.get(this.gitPath(path)) ?? [])];
      const index = indexed[at] ?? null;
      if (index !== null) oids.push(index);
      return oids;
    });
    const hashes = await this.hashBlobs(oidsOf.flat());
    paths.forEach((path, at) => {
      const tracked = (indexed[at] ?? null) !== null || (walk?.touched(this.gitPath(path)) ?? false);
      if (!tracked) {
        out.set(path, null);
        return;
      }
      const known = new Set<string>();
      for (const oid of oidsOf[at] ?? []) {
        const hash = hashes.get(oid);
        if (hash === undefined) continue;
        known.add(hash.raw);
        if (hash.replacement !== null) known.add(hash.replacement);
      }
      out.set(path, known);
    });
    return out;
  }

  /**
   * The blobs each path had in any commit of any ref, by name only (no rename following), from one
   * walk over all the paths at once: the cheap first pass of the fabricated-hash check, which needs
   * {@link knownHashesOf} only for the rare hash this does not explain (the walk is shared).
   */
  blobsByPath(paths: readonly string[]): Map<string, Set<string>> {
    const out = new Map<string, Set<string>>(paths.map((path) => [path, new Set<string>()]));
    const walk = this.#pathWalk();
    if (walk === null || paths.length === 0) return out;
    walk.walk(paths.map((path) => this.gitPath(path)));
    for (const path of paths) out.set(path, walk.blobs(this.gitPath(path)));
    return out;
  }

  /** Saves new blob hashes to the cache and ends the `cat-file` process. */
  async close(): Promise<void> {
    this.#cache.save();
    this.#walk?.save();
    await this.#catFile?.close();
    this.#catFile = null;
  }

  /**
   * The blob of each path's stage-0 index entry, or `null`. Many paths are looked up in one read of
   * the index (its file, or `git ls-files -s`), not by reading each staged blob through `cat-file`:
   * the hashes of most blobs are cached, so their bytes are not needed.
   */
  async #stagedBlobs(paths: readonly string[]): Promise<(string | null)[]> {
    if (paths.length < INDEX_SNAPSHOT_PATHS) {
      const objects = await Promise.all(paths.map((path) => this.readIndex(path)));
      return objects.map((object) => (object !== null && object.type === 'blob' ? object.oid : null));
    }
    const { entries } = await readIndexEntries(this.topLevel, this.#env, async () => this.gitDir);
    return paths.map((path) => {
      const entry = entries.get(this.gitPath(path));
      return entry !== undefined && isBlobMode(entry.mode) ? entry.oid : null;
    });
  }

  #pathWalk(): PathWalk | null {
    if (!this.hasCommits()) return null;
    // A shallow clone's walks change as it deepens: those are not kept.
    this.#walk ??= new PathWalk(
      (args, input) => this.#run(args, false, input) as string,
      this.isShallow ? undefined : { memo: new WalkMemo(this.gitDir), tips: () => this.#tips(), tipsNow: () => this.#readTips() },
    );
    return this.#walk;
  }

  /**
   * What decides the commits a `git log --all` walk sees, as one digest: the commits `--all`
   * starts from (every ref, HEAD and the other worktrees' HEADs), the grafts file (`GIT_GRAFT_FILE`
   * or `info/grafts`) and the environment that switches replacement refs. Commits never change, so
   * two walks from the same state print the same.
   */
  #tips(): string {
    this.#firstTips ??= this.#readTips();
    return this.#firstTips;
  }

  /** {@link #tips} as they stand now: one `git rev-list` (the first look is kept for the lookup: its state and its walks agree). */
  #readTips(): string {
    const tips = (this.#run(['rev-list', '--no-walk', '--all']) as string)
      .split('\n')
      .filter((line) => line !== '')
      .sort();
    let grafts = '';
    try {
      const named = this.#env.GIT_GRAFT_FILE;
      grafts = readFileSync(
        named !== undefined && named !== '' ? resolve(this.topLevel, named) : join(this.#commonDir, 'info', 'grafts'),
        'latin1',
      );
    } catch {
      // No grafts file: the usual case.
    }
    const env = ['GIT_NO_REPLACE_OBJECTS', 'GIT_REPLACE_REF_BASE', 'GIT_GRAFT_FILE'].map((name) => `${name}=${this.#env[name] ?? ''}`);
    return createHash('sha256')
      .update(JSON.stringify([tips, grafts, env]))
      .digest('hex');
  }

  /**
   * What a pin's facts depend on in git, as one digest: where a walk of every ref starts
   * ({@link #tips}) and the index file as it stands (its inode, size and change times; git
   * replaces the file on every write). Two lookups in the same state give the same facts for the
   * same pin, unless the working tree makes the artifact a symbolic link (see `createHistoryFacts`).
   */
  factsState(): string {
    const named = this.#env.GIT_INDEX_FILE;
    const index = named !== undefined && named !== '' ? resolve(this.topLevel, named) : join(this.gitDir, 'index');
    let stamp = 'none';
    try {
      const stat = statSync(index, { bigint: true });
      stamp = `${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
    } catch {
      // No index yet: nothing staged.
    }
    return createHash('sha256')
      .update(JSON.stringify([this.#tips(), index, stamp]))
      .digest('hex');
  }

  #fromGitPath(path: string): string {
    return this.#prefix !== '' && path.startsWith(this.#prefix) ? path.slice(this.#prefix.length) : path;
  }

  #run(args: readonly string[], allowFailure = false, input?: string): string | null {
    try {
      return gitSync(this.topLevel, args, { env: this.#env, ...(input === undefined ? {} : { input }) }).toString('utf8');
    } catch (error) {
      if (allowFailure && isAiwgCiteError(error) && error.code === 'GIT_FAILED') return null;
      throw error;
    }
  }
}

/** The content hashes of bytes by both routines of SPEC §2.4. */
export async function hashBytes(bytes: Uint8Array): Promise<BlobHashes> {
  return { raw: await contentHash(bytes, nodeSha256), replacement: await replacementContentHash(bytes, nodeSha256) };
}

/**
 * Parses `git log --raw -z --format=%x1e%H%x00%an%x00%aI%x00%s` (git-log(1) "RAW OUTPUT FORMAT"
 * with `-z`): a record separator, NUL-separated header fields, then per changed path
 * `:<mode> <mode> <oid> <oid> <status>` NUL `<path>` NUL, with a second path for renames and copies.
 */
export function parseRawLog(out: string): ArtifactVersion[] {
  const versions: ArtifactVersion[] = [];
  for (const record of out.split('\x1e')) {
    if (record === '') continue;
    const fields = record.split('\0');
    const [sha, author, date, subject] = fields;
    if (sha === undefined || author === undefined || date === undefined || subject === undefined) continue;
    const commit: CommitInfo = { sha, author, date, subject };
    for (let at = 4; at < fields.length; at += 1) {
      const header = (fields[at] as string).replace(/^\n/, '');
      const raw = /^:\d+ \d+ ([0-9a-f]+) ([0-9a-f]+) ([ACDMRTUX])\d*$/.exec(header);
      if (raw === null) continue;
      const status = raw[3] as ChangeStatus;
      const blob = /^0+$/.test(raw[2] as string) ? null : (raw[2] as string);
      if (status === 'R' || status === 'C') {
        versions.push({ commit, status, previousPath: fields[at + 1] ?? null, path: fields[at + 2] ?? '', blob });
        at += 2;
      } else {
        versions.push({ commit, status, previousPath: null, path: fields[at + 1] ?? '', blob: status === 'D' ? null : blob });
        at += 1;
      }
      break;
    }
  }
  return versions;
}
