import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import {
  AiwgCiteError,
  ArtifactCache,
  type ArtifactChange,
  type ArtifactReader,
  type CheckOptions,
  contentHash,
  type DocumentChecker,
  type ReadResult,
  type Report,
  type ResultPort,
  type RunStage,
  replacementContentHash,
  runPipeline,
  type Sha256,
  type StagedChangeFacts,
  type StagedChangeSummary,
} from '@aiwg-cite/core';
import { CatFileBatch } from './cat-file.ts';
import { findCitingEntries, isMarkdownName } from './citation-index.ts';
import { createHistoryFacts } from './history-facts.ts';
import { type IndexSnapshot, isRegularFileMode, readIndex, readStagedChanges, type StagedChange } from './index-entries.ts';
import { createIndexReader } from './index-reader.ts';
import { readReasons } from './messages.ts';
import { runGitAsync } from './run-git.ts';
import { stagedMessages } from './staged-messages.ts';
import { createWorktreeReader } from './worktree-reader.ts';

export type { StagedChangeSummary } from '@aiwg-cite/core';

/** Input of {@link checkStaged}. */
export interface StagedCheckInput {
  /** The canonical git top level. */
  readonly root: string;
  /** The environment of the git processes. @default process.env (so `GIT_INDEX_FILE` is honoured) */
  readonly env?: NodeJS.ProcessEnv;
  /**
   * Root-relative documents to check (as lint-staged passes them). When given, only their staged
   * versions are checked and the run never widens; when absent, every staged markdown file is
   * checked, plus the committed documents whose citations the staged change breaks.
   */
  readonly files?: readonly string[];
  readonly sha256: Sha256;
  readonly options?: CheckOptions;
  readonly checkers?: readonly DocumentChecker[];
  /** The result cache of the run (issue 18): staged documents whose blobs and artifacts are unchanged take their stored findings. */
  readonly results?: ResultPort;
  /**
   * Reads the working tree: for `.aiwg/` artifacts that the index does not hold, and for the
   * history stage, which tells a pin of an unstaged working-tree edit apart from a fabricated one.
   */
  readonly workingTree?: ArtifactReader;
  /**
   * Writes one file of the citation index atomically, returning `false` when it could not; when
   * absent the index is built in memory on every run.
   */
  readonly writeFile?: (path: string, contents: string) => boolean | undefined;
  /**
   * Search git history for the hashes of stale citations in the staged documents, so that a hash
   * no version ever had becomes an `unknown-hash` error (a fabricated pin). @default true
   */
  readonly history?: boolean;
  /** Narrows the staged documents (configured include/exclude globs); not applied to explicit files. */
  readonly selectDocuments?: (documents: readonly string[]) => string[];
  /**
   * Only the reverse direction: the committed documents the staged change breaks, not the staged
   * documents themselves (lint-staged checks those, one run per file list). @default false
   */
  readonly reverseOnly?: boolean;
  /** The pipeline's corpus stage, when the command runs the corpus checks. */
  readonly corpus?: RunStage;
  /**
   * The absolute git directory, when the caller knows it (from the `git rev-parse` that found the
   * root): where the index file and the citation index are. @default asked of git when needed
   */
  readonly gitDir?: string;
}

/** The outcome of {@link checkStaged}. */
export interface StagedCheckResult {
  readonly report: Report;
  /** The documents checked from the index, root-relative. */
  readonly documents: readonly string[];
  readonly stagedChange: StagedChangeSummary;
}

/**
 * Checks what the next commit will contain (SPEC §11.1) through the one pipeline (core
 * `runPipeline`), with git's ports: documents discovered in the index, every document and cited
 * artifact read from the index through one `git cat-file --batch` process, git's facts for the
 * history stage, and the committed documents citing a file the change modifies or deletes for the
 * staged-change stage. The report is built once.
 */
export async function checkStaged(input: StagedCheckInput): Promise<StagedCheckResult> {
  const { root, env } = input;
  const options = input.options ?? {};
  const explicit = input.files !== undefined && input.files.length > 0;
  // The git dir: where the citation index is kept, and the index file when GIT_INDEX_FILE is unset.
  const gitDir = once(async () =>
    input.gitDir !== undefined
      ? input.gitDir
      : (await runGitAsync(root, ['rev-parse', '--absolute-git-dir'], env === undefined ? {} : { env })).toString('utf8').trim(),
  );
  // `git diff --cached` first: its process runs while this one reads and parses the index file.
  const stagedChanges = explicit ? Promise.resolve<StagedChange[]>([]) : readStagedChanges(root, env);
  const [snapshot, changes] = await Promise.all([readIndex(root, env, gitDir), stagedChanges]);
  if (snapshot.unmerged.length > 0) {
    throw new AiwgCiteError('UNMERGED_INDEX', stagedMessages.unmerged(snapshot.unmerged), { data: { paths: snapshot.unmerged } });
  }
  const staged = explicit ? selectExplicit(snapshot, input.files ?? []) : selectStaged(changes);
  const selected = explicit || input.selectDocuments === undefined ? staged : input.selectDocuments(staged);
  const documents = input.reverseOnly === true ? [] : selected;

  const batch = new CatFileBatch(root, env ?? process.env);
  const submodules = new SubmoduleReaders(root, env ?? process.env);
  try {
    const workingTree =
      input.workingTree === undefined
        ? undefined
        : createWorktreeReader(input.workingTree, { root, ...(env === undefined ? {} : { env }) });
    const reader = createIndexReader({
      snapshot,
      batch,
      ...(workingTree === undefined ? {} : { workingTree }),
      submodule: (path, commit, inner) => submodules.read(path, commit, inner),
    });
    const artifacts = new ArtifactCache(reader, input.sha256);
    const result = await runPipeline({
      ports: {
        discover: () => documents,
        reader,
        artifacts,
        ...(input.results === undefined ? {} : { results: input.results }),
        current: 'index',
        ...(input.history === false
          ? {}
          : {
              history: createHistoryFacts({
                root,
                ...(env === undefined ? {} : { env }),
                ...(workingTree === undefined ? {} : { workingTree }),
                sha256: input.sha256,
              }),
            }),
        ...(explicit
          ? {}
          : {
              stagedChange: (_artifacts, _documents) =>
                stagedChangeFacts({
                  root,
                  ...(env === undefined ? {} : { env }),
                  snapshot,
                  changes,
                  batch,
                  gitDir,
                  sha256: input.sha256,
                  options,
                  documents: new Set(staged),
                  ...(input.selectDocuments === undefined ? {} : { selectDocuments: input.selectDocuments }),
                  ...(input.writeFile === undefined ? {} : { writeFile: input.writeFile }),
                }),
            }),
        ...(input.corpus === undefined ? {} : { corpus: input.corpus }),
      },
      options,
      ...(input.checkers === undefined ? {} : { checkers: input.checkers }),
    });
    return { report: result.report, documents, stagedChange: result.stagedChange };
  } finally {
    await Promise.all([batch.close(), submodules.close()]);
  }
}

/**
 * Reads paths inside submodules at the commit the superproject's index records (issue 15,
 * item 3), one `cat-file --batch` per submodule. A submodule that is not checked out, or that
 * lacks the recorded commit, is `unchecked`: the path exists for git, but its content is elsewhere.
 */
class SubmoduleReaders {
  readonly #root: string;
  readonly #env: NodeJS.ProcessEnv;
  readonly #batches = new Map<string, CatFileBatch | null>();

  constructor(root: string, env: NodeJS.ProcessEnv) {
    this.#root = root;
    // The hook's GIT_DIR and GIT_INDEX_FILE name the superproject: the submodule has its own.
    const { GIT_DIR: _dir, GIT_INDEX_FILE: _index, GIT_WORK_TREE: _tree, ...rest } = env;
    this.#env = rest;
  }

  async read(submodule: string, commit: string, path: string): Promise<ReadResult> {
    let batch = this.#batches.get(submodule);
    if (batch === undefined) {
      const directory = join(this.#root, submodule);
      batch = existsSync(join(directory, '.git')) ? new CatFileBatch(directory, this.#env) : null;
      this.#batches.set(submodule, batch);
    }
    if (batch === null) return { kind: 'unchecked', reason: readReasons.submoduleNotCheckedOut(submodule) };
    const object = await batch.read(`${commit}:${path}`);
    if (object?.type === 'blob') return { kind: 'file', bytes: object.bytes };
    if (object?.type === 'tree') return { kind: 'directory' };
    if (object === null && (await batch.read(`${commit}^{commit}`)) === null) {
      return {
        kind: 'unchecked',
        reason: readReasons.submoduleCommitNotFetched(submodule, commit),
      };
    }
    return { kind: 'missing' };
  }

  async close(): Promise<void> {
    await Promise.all([...this.#batches.values()].map((batch) => batch?.close()));
  }
}

/** The staged markdown files: added, modified, copied, renamed or type-changed into a regular file. */
function selectStaged(changes: readonly StagedChange[]): string[] {
  return changes
    .filter((change) => change.status !== 'D' && isRegularFileMode(change.newMode) && isMarkdownName(change.path))
    .map((change) => change.path)
    .sort();
}

function selectExplicit(snapshot: IndexSnapshot, files: readonly string[]): string[] {
  const found = new Set<string>();
  for (const file of files) {
    const entry = snapshot.entries.get(file);
    if (entry !== undefined) {
      // A staged symlink or submodule is no document of its own; a linked document is checked under its real path.
      if (isRegularFileMode(entry.mode)) found.add(file);
      continue;
    }
    const prefix = file === '' || file === '.' ? '' : `${file}/`;
    let matched = false;
    for (const [path, under] of snapshot.entries) {
      if (path.startsWith(prefix) && isRegularFileMode(under.mode) && isMarkdownName(path)) {
        found.add(path);
        matched = true;
      }
    }
    if (!matched) throw new AiwgCiteError('INPUT_UNREADABLE', stagedMessages.notInIndex(file), { data: { path: file } });
  }
  return [...found].sort();
}

interface StagedChangeInput {
  readonly root: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly snapshot: IndexSnapshot;
  readonly changes: readonly StagedChange[];
  readonly batch: CatFileBatch;
  readonly gitDir: () => Promise<string>;
  readonly sha256: Sha256;
  readonly options: CheckOptions;
  /** Staged documents: checked from the index (or excluded by configuration), never reported twice. */
  readonly documents: ReadonlySet<string>;
  readonly selectDocuments?: (documents: readonly string[]) => string[];
  readonly writeFile?: (path: string, contents: string) => boolean | undefined;
}

/** Where the citation index lives: under the git dir, never in the work tree. */
export function citationIndexPath(gitDir: string): string {
  return join(gitDir, 'aiwg-cite', 'citations.json');
}

/**
 * git's facts for the staged-change stage: the paths the change modifies or removes, and the
 * citations of them in committed documents (from the citation index). The verdicts are the core's.
 */
async function stagedChangeFacts(input: StagedChangeInput): Promise<StagedChangeFacts> {
  const changes = new Map<string, ArtifactChange>();
  // git splits a rename into D + A (the diff runs with --no-renames): an added blob that a deleted
  // path held names where that path went.
  const added = new Map(input.changes.filter((change) => change.status === 'A').map((change) => [change.newOid, change.path]));
  for (const change of input.changes) {
    if (change.status === 'D') {
      const renamedTo = added.get(change.oldOid);
      changes.set(change.path, { kind: 'removed', deleted: true, ...(renamedTo === undefined ? {} : { renamedTo }) });
    } else if ((change.status === 'M' || change.status === 'T') && !isRegularFileMode(change.newMode)) {
      changes.set(change.path, { kind: 'removed', deleted: false });
    } else if (change.status === 'M' || change.status === 'T') {
      changes.set(change.path, { kind: 'modified', previousHashes: once(() => blobHashes(input.batch, change.oldOid, input.sha256)) });
    }
  }
  if (changes.size === 0) return { citing: [], changes };
  const gitDir = await input.gitDir();
  const citing = await findCitingEntries(
    {
      file: citationIndexPath(gitDir),
      snapshot: input.snapshot,
      batch: input.batch,
      includeCode: input.options.includeCode === true,
      ...(input.writeFile === undefined ? {} : { writeFile: input.writeFile }),
    },
    new Set(changes.keys()),
    input.documents,
    // A deleted file a bare `[path]` named from its document's folder: that reference is a citation of the root's path now.
    new Set(input.changes.filter((change) => change.status === 'D').map((change) => change.path)),
  );
  if (input.selectDocuments === undefined) return { citing, changes };
  const allowed = new Set(input.selectDocuments([...new Set(citing.map((entry) => entry.document))]));
  return { citing: citing.filter((entry) => allowed.has(entry.document)), changes };
}

async function blobHashes(batch: CatFileBatch, oid: string, sha256: Sha256): Promise<readonly string[]> {
  const object = await batch.read(oid);
  if (object === null) return [];
  const raw = await contentHash(object.bytes, sha256);
  const replaced = await replacementContentHash(object.bytes, sha256);
  return replaced === null ? [raw] : [raw, replaced];
}

function once<T>(make: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => {
    value ??= make();
    return value;
  };
}

/**
 * Turns paths as a user or lint-staged passes them (absolute, or relative to `cwd`, through
 * symlinked directories or not) into root-relative POSIX paths, without requiring them to
 * exist in the work tree: a staged file may be deleted there.
 */
export function toRootRelative(root: string, cwd: string, path: string): string {
  const absolute = isAbsolute(path) ? path : resolve(cwd, path);
  // The directory is made canonical (a temp dir behind a symlink, say); the name is kept as the
  // index knows it, even when the file itself is a symlink or is gone from the work tree.
  const canonical = join(canonicalise(dirname(absolute)), basename(absolute));
  const relativePath = relative(root, canonical).split(sep).join('/');
  if (relativePath === '..' || relativePath.startsWith('../') || isAbsolute(relativePath)) {
    throw new AiwgCiteError('INPUT_OUTSIDE_ROOT', stagedMessages.outsideRoot(path, root), { data: { path } });
  }
  return relativePath;
}

function canonicalise(absolute: string): string {
  if (existsSync(absolute)) return realpathSync.native(absolute);
  const parent = dirname(absolute);
  if (parent === absolute) return absolute;
  return join(canonicalise(parent), absolute.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
}
