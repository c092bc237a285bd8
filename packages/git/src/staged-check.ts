import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import {
  AiwgCiteError,
  ArtifactCache,
  type ArtifactReader,
  applyOverrides,
  buildReport,
  type CheckInput,
  type CheckOptions,
  checkDocuments,
  contentHash,
  type DocumentChecker,
  type Finding,
  namesFinding,
  type Report,
  replacementContentHash,
  type Sha256,
  type Suppression,
  verifyRlm,
} from '@aiwg-cite/core';
import { CatFileBatch } from './cat-file.ts';
import { findCitingEntries, isMarkdownName } from './citation-index.ts';
import { markUnknownHashes } from './history-unknown.ts';
import { type IndexSnapshot, isRegularFileMode, readIndex, readStagedChanges, type StagedChange } from './index-entries.ts';
import { createIndexReader } from './index-reader.ts';
import { runGitAsync } from './run-git.ts';
import { stagedMessages } from './staged-messages.ts';

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
  readonly results?: CheckInput['results'];
  /** Reads the working tree, for `.aiwg/` artifacts that the index does not hold. */
  readonly workingTree?: ArtifactReader;
  /** Writes the citation index atomically; when absent it is rebuilt in memory on every run. */
  readonly writeFile?: (path: string, contents: string) => void;
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
}

/** What the staged change does to committed documents. */
export interface StagedChangeSummary {
  /** Citations in committed documents this commit makes stale. */
  readonly stale: number;
  /** Citations in committed documents whose artifact this commit deletes. */
  readonly missing: number;
}

/** The outcome of {@link checkStaged}. */
export interface StagedCheckResult {
  readonly report: Report;
  /** The documents checked from the index, root-relative. */
  readonly documents: readonly string[];
  readonly stagedChange: StagedChangeSummary;
}

/**
 * Checks what the next commit will contain (SPEC §11.1): staged markdown is read from the index,
 * every cited artifact is hashed as staged, all through one `git cat-file --batch` process. Then
 * the reverse direction: committed documents citing a file the change modifies or deletes.
 */
export async function checkStaged(input: StagedCheckInput): Promise<StagedCheckResult> {
  const { root, env } = input;
  const options = input.options ?? {};
  const explicit = input.files !== undefined && input.files.length > 0;
  const [snapshot, changes] = await Promise.all([
    readIndex(root, env),
    explicit ? Promise.resolve<StagedChange[]>([]) : readStagedChanges(root, env),
  ]);
  if (snapshot.unmerged.length > 0) {
    throw new AiwgCiteError('UNMERGED_INDEX', stagedMessages.unmerged(snapshot.unmerged), { data: { paths: snapshot.unmerged } });
  }
  const staged = explicit ? selectExplicit(snapshot, input.files ?? []) : selectStaged(changes);
  const selected = explicit || input.selectDocuments === undefined ? staged : input.selectDocuments(staged);
  const documents = input.reverseOnly === true ? [] : selected;

  const batch = new CatFileBatch(root, env ?? process.env);
  try {
    const reader = createIndexReader({ snapshot, batch, ...(input.workingTree === undefined ? {} : { workingTree: input.workingTree }) });
    const artifacts = new ArtifactCache(reader, input.sha256);
    const checked = await checkDocuments({
      reader,
      documents,
      sha256: input.sha256,
      options,
      artifacts,
      ...(input.checkers === undefined ? {} : { checkers: input.checkers }),
      ...(input.results === undefined ? {} : { results: input.results }),
    });
    const direct =
      input.history === false ? checked : await markUnknownHashes(checked, { root, options, ...(env === undefined ? {} : { env }) });
    if (explicit) return { report: direct, documents, stagedChange: { stale: 0, missing: 0 } };

    const reverse = await findStagedChangeFindings({
      root,
      ...(env === undefined ? {} : { env }),
      snapshot,
      changes,
      batch,
      artifacts,
      sha256: input.sha256,
      options,
      documents: new Set(staged),
      ...(input.selectDocuments === undefined ? {} : { selectDocuments: input.selectDocuments }),
      ...(input.writeFile === undefined ? {} : { writeFile: input.writeFile }),
    });
    const stale = reverse.filter((finding) => finding.status === 'stale').length;
    const missing = reverse.length - stale;
    const coverage = { ...direct.coverage, notes: [...direct.coverage.notes] };
    if (reverse.length > 0) coverage.notes.push(stagedMessages.stagedChangeNote(stale, missing));
    const report = buildReport([...direct.citations, ...reverse], direct.summary.files, coverage, options);
    return { report, documents, stagedChange: { stale, missing } };
  } finally {
    await batch.close();
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

interface ReverseInput {
  readonly root: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly snapshot: IndexSnapshot;
  readonly changes: readonly StagedChange[];
  readonly batch: CatFileBatch;
  readonly artifacts: ArtifactCache;
  readonly sha256: Sha256;
  readonly options: CheckOptions;
  /** Staged documents: checked from the index (or excluded by configuration), never reported twice. */
  readonly documents: ReadonlySet<string>;
  readonly selectDocuments?: (documents: readonly string[]) => string[];
  readonly writeFile?: (path: string, contents: string) => void;
}

/** Where the citation index lives: under the git dir, never in the work tree. */
export function citationIndexPath(gitDir: string): string {
  return join(gitDir, 'aiwg-cite', 'citations.json');
}

async function findStagedChangeFindings(input: ReverseInput): Promise<Finding[]> {
  const touched = new Map<string, StagedChange>();
  for (const change of input.changes) {
    if (change.status === 'M' || change.status === 'T' || change.status === 'D') touched.set(change.path, change);
  }
  if (touched.size === 0) return [];
  // Only now is the git dir needed: a commit that changes no tracked file pays nothing for it.
  const gitDir = (await runGitAsync(input.root, ['rev-parse', '--absolute-git-dir'], input.env === undefined ? {} : { env: input.env }))
    .toString('utf8')
    .trim();
  const citing = await findCitingEntries(
    {
      file: citationIndexPath(gitDir),
      snapshot: input.snapshot,
      batch: input.batch,
      includeCode: input.options.includeCode === true,
      ...(input.writeFile === undefined ? {} : { writeFile: input.writeFile }),
    },
    new Set(touched.keys()),
    input.documents,
  );
  const allowed =
    input.selectDocuments === undefined ? null : new Set(input.selectDocuments([...new Set(citing.map((entry) => entry.document))]));
  const oldHashes = new Map<string, Promise<readonly string[]>>();
  const hashesBefore = (change: StagedChange): Promise<readonly string[]> => {
    let hashes = oldHashes.get(change.oldOid);
    if (hashes === undefined) {
      hashes = (async () => {
        const object = await input.batch.read(change.oldOid);
        if (object === null) return [];
        const raw = await contentHash(object.bytes, input.sha256);
        const replaced = await replacementContentHash(object.bytes, input.sha256);
        return replaced === null ? [raw] : [raw, replaced];
      })();
      oldHashes.set(change.oldOid, hashes);
    }
    return hashes;
  };

  const findings: Finding[] = [];
  await Promise.all(
    citing.map(async (entry) => {
      if (allowed !== null && !allowed.has(entry.document)) return;
      const change = touched.get(entry.artifact) as StagedChange;
      const finding = await verifyRlm(entry.citation, entry.document, input.artifacts);
      if (finding === null || isSuppressed(finding, entry.suppressions)) return;
      if (change.status === 'D' || !isRegularFileMode(change.newMode)) {
        if (finding.severity !== 'error' || finding.status === 'invalid-range') return;
        const gone = finding.status === 'missing' && !input.snapshot.entries.has(entry.artifact);
        findings.push({
          ...finding,
          ...(gone ? { message: stagedMessages.deleted(entry.artifact) } : {}),
          fix: stagedMessages.missingFix(entry.artifact),
          cause: 'staged-change',
        });
        return;
      }
      // Only citations that were fresh against HEAD are made stale by this commit.
      if (finding.status !== 'stale' || entry.citation.hash === null) return;
      if (!(await hashesBefore(change)).includes(entry.citation.hash)) return;
      findings.push({ ...finding, fix: stagedMessages.staleFix(entry.artifact), cause: 'staged-change' });
    }),
  );
  return applyOverrides(findings, input.options.severityOverrides);
}

function isSuppressed(finding: Finding, suppressions: readonly Suppression[]): boolean {
  return suppressions.some(
    (suppression) =>
      suppression.line === finding.line &&
      (suppression.rules.length === 0 || suppression.rules.some((rule) => namesFinding(rule, finding))),
  );
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
