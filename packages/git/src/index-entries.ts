import { join, resolve } from 'node:path';
import { AiwgCiteError } from '@aiwg-cite/core';
import { readIndexFile } from './index-file.ts';
import { gitMessages } from './messages.ts';
import { runGitAsync, splitNul } from './run-git.ts';

/** One stage-0 entry of the git index. */
export interface IndexEntry {
  /** The octal mode as git prints it: `100644`, `100755`, `120000` (symlink), `160000` (submodule). */
  readonly mode: string;
  readonly oid: string;
}

/** The stage-0 entries of the index, by root-relative POSIX path. */
export interface IndexSnapshot {
  readonly entries: ReadonlyMap<string, IndexEntry>;
  /** Paths with a stage 1–3 entry (an unresolved merge). */
  readonly unmerged: readonly string[];
}

/** A path the staged change touches, from `git diff --cached --raw` (git-diff(1), "RAW OUTPUT FORMAT"). */
export interface StagedChange {
  /** `A` added, `M` modified, `D` deleted, `T` type changed (renames are split into `D` + `A`). */
  readonly status: string;
  readonly path: string;
  readonly oldMode: string;
  readonly newMode: string;
  /** The blob before the change (HEAD), all zeros when added. */
  readonly oldOid: string;
  /** The blob in the index, all zeros when deleted. */
  readonly newOid: string;
}

/** True for the modes of regular files (git stores only 100644 and 100755). */
export function isRegularFileMode(mode: string): boolean {
  return mode === '100644' || mode === '100755';
}

/** The mode of a symbolic link's entry: its blob holds the link's target. */
export const SYMLINK_MODE = '120000';

/** True for the modes whose object is a blob: regular files and symbolic links (a submodule's entry names a commit). */
export function isBlobMode(mode: string): boolean {
  return isRegularFileMode(mode) || mode === SYMLINK_MODE;
}

/** Parses `git ls-files -s -z`: `<mode> <oid> <stage>\t<path>\0` per entry (git-ls-files(1)). */
export function parseLsFilesStage(output: Buffer): IndexSnapshot {
  const entries = new Map<string, IndexEntry>();
  const unmerged = new Set<string>();
  const text = output.toString('utf8');
  // Hand-rolled: this runs over every entry of a large index on each commit.
  for (let at = 0; at < text.length; ) {
    let end = text.indexOf('\0', at);
    if (end === -1) end = text.length;
    const firstSpace = text.indexOf(' ', at);
    const secondSpace = text.indexOf(' ', firstSpace + 1);
    const tab = text.indexOf('\t', secondSpace + 1);
    if (firstSpace === -1 || secondSpace === -1 || tab === -1 || tab > end) {
      throw new AiwgCiteError('GIT_FAILED', gitMessages.lsFilesEntry(text.slice(at, end)));
    }
    const path = text.slice(tab + 1, end);
    if (tab - secondSpace === 2 && text.charCodeAt(secondSpace + 1) === 48) {
      entries.set(path, { mode: text.slice(at, firstSpace), oid: text.slice(firstSpace + 1, secondSpace) });
    } else {
      unmerged.add(path);
    }
    at = end + 1;
  }
  return { entries, unmerged: [...unmerged].sort() };
}

/** Parses `git diff --raw -z --no-abbrev` output (git-diff(1), "RAW OUTPUT FORMAT" with `-z`). */
export function parseRawDiff(output: Buffer): StagedChange[] {
  const fields = splitNul(output);
  const changes: StagedChange[] = [];
  for (let at = 0; at < fields.length; ) {
    const header = fields[at] as string;
    const [oldMode, newMode, oldOid, newOid, status] = header.replace(/^:/, '').split(' ');
    if (oldMode === undefined || newMode === undefined || oldOid === undefined || newOid === undefined || status === undefined) {
      throw new AiwgCiteError('GIT_FAILED', gitMessages.diffRecord(header));
    }
    const letter = status.charAt(0);
    // Renames and copies carry two paths; the second is where the content now lives.
    const twoPaths = letter === 'R' || letter === 'C';
    const path = fields[at + (twoPaths ? 2 : 1)];
    if (path === undefined) throw new AiwgCiteError('GIT_FAILED', gitMessages.diffRecordNoPath(header));
    changes.push({ status: letter, path, oldMode, newMode, oldOid, newOid });
    at += twoPaths ? 3 : 2;
  }
  return changes;
}

/**
 * Reads the stage-0 index entries (honours `GIT_INDEX_FILE`): from the index file itself when
 * {@link readIndexFile} can vouch for it, else through `git ls-files -s -z`. `gitDir` names the
 * git directory, where the index is when `GIT_INDEX_FILE` is not set (a relative one is relative
 * to the top level, where git runs); without either, git is asked.
 */
export async function readIndex(root: string, env?: NodeJS.ProcessEnv, gitDir?: () => Promise<string>): Promise<IndexSnapshot> {
  const named = (env ?? process.env).GIT_INDEX_FILE;
  const file = named !== undefined && named !== '' ? resolve(root, named) : gitDir === undefined ? null : join(await gitDir(), 'index');
  const direct = file === null ? null : readIndexFile(file);
  if (direct !== null) return direct;
  return parseLsFilesStage(await runGitAsync(root, ['ls-files', '-s', '-z'], env === undefined ? {} : { env }));
}

/** Reads what the commit would change: the index against HEAD (an unborn HEAD counts as empty). */
export async function readStagedChanges(root: string, env?: NodeJS.ProcessEnv): Promise<StagedChange[]> {
  const args = ['diff', '--cached', '--raw', '-z', '--no-abbrev', '--no-renames', '--ignore-submodules=all', '--no-ext-diff'];
  return parseRawDiff(await runGitAsync(root, args, env === undefined ? {} : { env }));
}
