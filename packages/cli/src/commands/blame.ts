import { lstatSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import {
  AiwgCiteError,
  ArtifactCache,
  blameMessages,
  decodeDocument,
  documentFinding,
  escapeControls,
  extractRlm,
  type Finding,
  type RlmCitation,
  scanMarkdown,
  verifyRlm,
} from '@aiwg-cite/core';
import type { BlameDetail, CommitInfo, GitHistory } from '@aiwg-cite/git';
import { createNodeReader, discoverDocuments, nodeSha256, resolveWorkspace, type Workspace } from '@aiwg-cite/node';
import { parseChoice, parseCommandArgs, parseCount } from '../args.ts';
import { type Palette, paletteFor } from '../color.ts';
import type { CliContext, Command } from '../context.ts';
import { escapeStrings } from '../format/escape.ts';
import { usageMessages } from '../messages.ts';
import { worktreeReader } from '../pipeline-ports.ts';
import { assertGitInstalled } from '../require-git.ts';

const HELP = `Usage: aiwg-cite blame [DOC.md...] [options]

For each STALE citation (or the one on --line N), names the pinned version (the newest commit
whose version of the artifact has the cited hash, following renames), the commit that staled it,
the commit that changed the cited lines themselves, and the drift: moved, whitespace, changed,
deleted, uncommitted, unknown-hash or shallow. Needs a git repository.

Options:
  --line N             only the citation(s) on line N (needs exactly one document)
  --format FORMAT      pretty (default) or json (a list, one object per citation)
  --root DIR           project root (default: the git top level)
  -h, --help           show this help

Exit codes: 0 done, 2 usage or tool error.
`;

const FORMATS = ['pretty', 'json'] as const;
/** A region diff longer than this is cut in pretty output (JSON carries no diff). */
const MAX_DIFF_LINES = 40;

/** A citation of a document with its verdict from the core. */
export interface CitationVerdict {
  readonly citation: RlmCitation;
  readonly finding: Finding;
}

/** One document read for `blame` or `stamp`. */
export interface ReadDocument {
  readonly file: string;
  readonly bytes: Uint8Array;
  readonly citations: readonly CitationVerdict[];
}

/**
 * Reads documents, extracts their RLM citations and verifies each (the same verdicts as `check`).
 * A document that cannot be read (no permission, a symlink out of the root) is left out and
 * `onSkip` gets one line for it; without `onSkip` it is an error.
 */
export async function readCitations(
  workspace: Workspace,
  documents: readonly string[],
  artifacts: ArtifactCache,
  onSkip?: (note: string) => void,
): Promise<ReadDocument[]> {
  const reader = createNodeReader(workspace.root);
  const out: ReadDocument[] = [];
  for (const file of documents) {
    const read = await reader.read(file);
    if (read.kind !== 'file') {
      const why = documentFinding(file, read).message;
      if (onSkip === undefined) throw new AiwgCiteError('INPUT_UNREADABLE', why, { data: { file } });
      onSkip(why.replace(`${file}: `, `${file}: skipped, `));
      continue;
    }
    // Read as `check` reads it: UTF-8, or UTF-16 with a byte-order mark.
    const extraction = extractRlm(scanMarkdown(decodeDocument(read.bytes)));
    const citations: CitationVerdict[] = [];
    for (const citation of extraction.citations) {
      const finding = await verifyRlm(citation, file, artifacts);
      if (finding !== null) citations.push({ citation, finding });
    }
    out.push({ file, bytes: read.bytes, citations });
  }
  return out;
}

/** True for a citation `blame` explains: versioned, and stale or pointing at a file that is gone. */
export function isBlameable({ citation, finding }: CitationVerdict): boolean {
  return citation.hash !== null && (finding.status === 'stale' || finding.status === 'missing');
}

/** Runs blame on one citation: reads the working-tree artifact and asks the history. */
export async function blameOne(
  history: GitHistory,
  artifacts: ArtifactCache,
  root: string,
  file: string,
  verdict: CitationVerdict,
): Promise<BlameDetail> {
  const { citation, finding } = verdict;
  const artifact = String(finding.artifact);
  const found = await artifacts.get(artifact);
  const current = found.kind === 'file' ? { bytes: found.bytes, hash: found.hash } : null;
  const historyPath = symlinkTarget(root, artifact);
  const { blameCitation } = await import('@aiwg-cite/git');
  return blameCitation(
    history,
    {
      file,
      line: citation.line,
      column: citation.column,
      text: citation.text,
      artifact,
      hash: citation.hash as string,
      lines: citation.lines,
      ...(historyPath === null ? {} : { historyPath }),
    },
    current,
  );
}

/** For a symlinked artifact, its target relative to the root (git keeps the link text, not the content); else `null`. */
function symlinkTarget(root: string, artifact: string): string | null {
  try {
    const path = join(root, artifact);
    if (!lstatSync(path).isSymbolicLink()) return null;
    const target = relative(root, realpathSync(path)).split(sep).join('/');
    return target.startsWith('..') || isAbsolute(target) ? null : target;
  } catch {
    return null;
  }
}

/** Opens the git history of the workspace, or fails with exit 2 outside git. */
export async function openHistory(workspace: Workspace, context: CliContext): Promise<GitHistory> {
  const { GitHistory } = await import('@aiwg-cite/git');
  const history = workspace.isGit ? GitHistory.open(workspace.root, { ...context.env }) : null;
  if (history === null) {
    assertGitInstalled(workspace.root, 'blame', context.env);
    throw new AiwgCiteError('NOT_A_REPOSITORY', blameMessages.notGit(workspace.root));
  }
  return history;
}

/** `aiwg-cite blame`. */
export const blame: Command = {
  summary: 'name the commits that staled each stale citation and classify the drift',
  async run(args: readonly string[], context: CliContext): Promise<number> {
    const { values, positionals } = parseCommandArgs('blame', args, {
      line: { type: 'string' },
      format: { type: 'string' },
      root: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help === true) {
      context.stdout.write(HELP);
      return 0;
    }
    const format = parseChoice('blame', 'format', values.format, FORMATS, 'pretty');
    const line = parseCount('blame', 'line', values.line);
    if (line === 0) throw new AiwgCiteError('USAGE', usageMessages.blameLineZero());
    const workspace = resolveWorkspace(context.cwd, values.root);
    const history = await openHistory(workspace, context);
    try {
      // Directories and documents that cannot be read are left out with one line each on stderr
      // (a document named with --line is an error instead).
      const note = (text: string) => context.stderr.write(`aiwg-cite blame: ${escapeControls(text)}\n`);
      const documents = discoverDocuments(workspace, context.cwd, positionals, note);
      if (line !== undefined && (positionals.length !== 1 || documents.length !== 1)) {
        throw new AiwgCiteError('USAGE', blameMessages.lineNeedsOneDocument());
      }
      const artifacts = new ArtifactCache(await worktreeReader(workspace, context), nodeSha256);
      const read = await readCitations(workspace, documents, artifacts, line === undefined ? note : undefined);
      const selected: { file: string; verdict: CitationVerdict }[] = [];
      for (const document of read) {
        for (const verdict of document.citations) {
          if (line !== undefined && verdict.citation.line !== line) continue;
          if (isBlameable(verdict)) selected.push({ file: document.file, verdict });
        }
      }
      if (line !== undefined && selected.length === 0) {
        const file = documents[0] as string;
        const onLine = read[0]?.citations.filter((verdict) => verdict.citation.line === line && verdict.citation.hash !== null) ?? [];
        if (onLine.length === 0) throw new AiwgCiteError('USAGE', blameMessages.noCitationOnLine(file, line));
        if (format === 'json') context.stdout.write('[]\n');
        else context.stdout.write(`${escapeControls(blameMessages.freshOnLine(file, line))}\n`);
        return 0;
      }
      const details: BlameDetail[] = [];
      for (const { file, verdict } of selected) details.push(await blameOne(history, artifacts, workspace.root, file, verdict));
      if (format === 'json') {
        context.stdout.write(
          `${JSON.stringify(
            details.map((detail) => detail.entry),
            null,
            2,
          )}\n`,
        );
      } else if (details.length === 0) {
        context.stdout.write(`${blameMessages.nothingStale(documents.length)}\n`);
      } else {
        const palette = paletteFor(context.stdout, context.env);
        context.stdout.write(`${details.map((detail) => formatBlame(detail, palette).join('\n')).join('\n\n')}\n`);
      }
      return 0;
    } finally {
      await history.close();
    }
  },
};

/** The pretty form of one blame, laid out like `git blame` output for a single citation. */
export function formatBlame(raw: BlameDetail, palette: Palette): string[] {
  // Names, citations, commit authors and subjects, and the region diff come from the repository:
  // escaped before colour is added.
  const detail = escapeStrings(raw);
  const { entry } = detail;
  const out = [`${palette.bold(`${entry.file}:${entry.line}:${entry.column}`)}  ${entry.text}`];
  const row = (label: string, text: string): void => {
    out.push(`  ${palette.dim(label.padEnd(9))}${text}`);
  };
  const oldLines = detail.citedLines;
  if (entry.pinned !== null) {
    const where = detail.pinSource === 'other-branch' ? `  (${blameMessages.pinnedOnOtherBranch()})` : '';
    row('pinned', `${palette.yellow(short(entry.pinned.sha))} ${day(entry.pinned.date)}  hash ${entry.hash}${where}`);
  } else if (detail.pinSource === 'index') {
    row('pinned', blameMessages.pinnedInIndex());
  } else {
    row('pinned', palette.red('none'));
  }
  if (entry.drift === 'unknown-hash' || entry.drift === 'shallow') {
    row(
      'drift',
      `${palette.red(entry.drift)}: ${entry.drift === 'shallow' ? blameMessages.shallow() : blameMessages.unknownHash(entry.artifact, detail.untracked)}`,
    );
    return out;
  }
  if (entry.drift !== 'uncommitted') {
    row('staling', entry.staling === null ? blameMessages.staleInWorktree() : commitLine(entry.staling, palette));
    const regionText =
      entry.region !== null
        ? commitLine(entry.region, palette)
        : detail.classification !== null && !detail.classification.mechanical
          ? blameMessages.regionInWorktree()
          : blameMessages.regionUnchanged();
    row('region', regionText);
  }
  if (entry.drift === 'deleted') {
    row('drift', palette.red(blameMessages.deleted(entry.deletedBy === null ? null : short(entry.deletedBy.sha), detail.renamedTo)));
    return out;
  }
  const intact = detail.classification?.drift === 'intact';
  const driftText = blameMessages.driftLine(entry.drift, oldLines, entry.newLines, intact);
  row('drift', entry.drift === 'changed' ? palette.yellow(driftText) : palette.green(driftText));
  const diff = detail.classification?.regionDiff ?? [];
  if (entry.drift === 'changed' && diff.length > 0) {
    for (const line of diff.slice(0, MAX_DIFF_LINES)) {
      const colour = line.startsWith('+')
        ? palette.green
        : line.startsWith('-')
          ? palette.red
          : line.startsWith('@@')
            ? palette.cyan
            : (text: string) => text;
      out.push(`    ${colour(line)}`);
    }
    if (diff.length > MAX_DIFF_LINES) out.push(`    ${palette.dim(blameMessages.diffTruncated(diff.length - MAX_DIFF_LINES))}`);
  }
  return out;
}

function commitLine(commit: CommitInfo, palette: Palette): string {
  return `${palette.yellow(short(commit.sha))} ${day(commit.date)}  ${commit.author}  ${commit.subject}`;
}

function short(sha: string): string {
  return sha.slice(0, 12);
}

function day(date: string): string {
  return date.slice(0, 10);
}
