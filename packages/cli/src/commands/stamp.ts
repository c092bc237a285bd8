import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import {
  AiwgCiteError,
  ArtifactCache,
  appendAll,
  applyEdits,
  editableText,
  escapeControls,
  planStampEdit,
  type StampTarget,
  stampedText,
  stampMessages,
  type TextEdit,
  unifiedDiff,
} from '@aiwg-cite/core';
import type { GitHistory } from '@aiwg-cite/git';
import { discoverDocuments, nodeSha256, resolveWorkspace, writeFileAtomic } from '@aiwg-cite/node';
import { parseCommandArgs } from '../args.ts';
import { paletteFor } from '../color.ts';
import type { CliContext, Command } from '../context.ts';
import { escapeLines, escapeStrings } from '../format/escape.ts';
import { worktreeReader } from '../pipeline-ports.ts';
import { blameOne, type CitationVerdict, readCitations } from './blame.ts';

const HELP = `Usage: aiwg-cite stamp [DOC.md...] [options]

Pins citations to the current content hash, keeping each citation's form:
  - UN-VERSIONED citations get the current hash: [p, L1] -> [p@hash, L1],
    and in a ## Sources footer p (L1) [un-versioned] -> p@hash (L1);
  - STALE citations whose cited lines are unchanged (in place or moved) or changed only in
    whitespace are re-pinned to the current hash and their new line range (needs git history);
  - STALE citations whose lines changed are left alone unless --accept names them.
Only the characters of each citation change; files are written atomically, and a second run
changes nothing.

Options:
  --dry-run            print the changes as a unified diff; write nothing
  --accept FILE:LINE   also re-pin the changed citation(s) on that line (repeatable)
  --root DIR           project root (default: the git top level, else the current directory)
  -h, --help           show this help

Exit codes: 0 everything stamped or already current, 1 stale citations left for review,
2 usage or tool error.
`;

interface Change {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly before: string;
  readonly after: string;
  readonly reason: string;
}

interface Review {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly text: string;
  readonly reason: string;
}

/** `aiwg-cite stamp`. */
export const stamp: Command = {
  summary: 'pin un-versioned citations and re-pin moved or whitespace-only stale ones to the current hash',
  async run(args: readonly string[], context: CliContext): Promise<number> {
    const { values, positionals } = parseCommandArgs('stamp', args, {
      'dry-run': { type: 'boolean' },
      accept: { type: 'string', multiple: true },
      root: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help === true) {
      context.stdout.write(HELP);
      return 0;
    }
    const dryRun = values['dry-run'] === true;
    const workspace = resolveWorkspace(context.cwd, values.root);
    const accepted = new Map<string, string>();
    for (const value of values.accept ?? []) {
      const match = /^(.+):(\d+)$/.exec(value);
      if (match === null || match[2] === '0') throw new AiwgCiteError('USAGE', stampMessages.badAccept(value));
      const [file] = discoverDocuments(workspace, context.cwd, [match[1] as string]);
      accepted.set(`${file}:${Number(match[2])}`, value);
    }
    // Directories and documents that cannot be read are left out, each said in one line.
    const notes: string[] = [];
    const documents = uniqueFiles(
      workspace.root,
      discoverDocuments(workspace, context.cwd, positionals, (note) => notes.push(note)),
    );
    // Pins what git would store (clean filters applied), the content every mode compares with.
    const artifacts = new ArtifactCache(await worktreeReader(workspace, context), nodeSha256);
    const read = await readCitations(workspace, documents, artifacts, (note) => notes.push(note));

    let history: GitHistory | null | undefined;
    const getHistory = async (): Promise<GitHistory | null> => {
      if (history === undefined) {
        const { GitHistory } = await import('@aiwg-cite/git');
        history = workspace.isGit ? GitHistory.open(workspace.root, { ...context.env }) : null;
      }
      return history;
    };

    const changes: Change[] = [];
    const reviews: Review[] = [];
    const diffs: string[] = [];
    const usedAccepts = new Set<string>();
    let changedFiles = 0;
    try {
      for (const document of read) {
        const edits: TextEdit[] = [];
        const planned: Change[] = [];
        // UTF-8, or UTF-16 with a byte-order mark, written back in the same encoding; else not edited.
        const editable = editableText(document.bytes);
        const text = editable?.text ?? '';
        const base = text.charCodeAt(0) === 0xfeff ? 1 : 0;
        for (const verdict of document.citations) {
          const decision = await decide(verdict, document.file, accepted, usedAccepts, artifacts, workspace.root, getHistory);
          if (decision === null) continue;
          if ('review' in decision) {
            reviews.push({ ...where(document.file, verdict), text: verdict.citation.text, reason: decision.review });
            continue;
          }
          const edit = planStampEdit(verdict.citation, decision.target, base);
          if (edit === null) continue;
          edits.push(edit);
          planned.push({
            ...where(document.file, verdict),
            before: verdict.citation.text,
            after: stampedText(verdict.citation, decision.target),
            reason: decision.reason,
          });
        }
        if (edits.length === 0) continue;
        if (editable === null) {
          notes.push(stampMessages.notUtf8(document.file));
          continue;
        }
        const next = applyEdits(text, edits).text;
        appendAll(changes, planned);
        changedFiles += 1;
        if (dryRun) diffs.push(unifiedDiff(document.file, text, next));
        // Write through a symlinked document to its target, never replacing the link with a file.
        else writeFileAtomic(realpathSync(join(workspace.root, document.file)), editable.encode(next), document.bytes, document.file);
      }
    } finally {
      await history?.close();
    }

    for (const [key, value] of accepted) if (!usedAccepts.has(key)) notes.push(stampMessages.acceptUnused(value));
    const palette = paletteFor(context.stdout, context.env);
    const out: string[] = [];
    // Names, citations and document lines come from the repository: escaped before colour is added.
    if (dryRun)
      appendAll(
        out,
        diffs.map((diff) => escapeLines(diff.replace(/\n$/, ''))),
      );
    for (const change of escapeStrings(changes)) {
      out.push(
        `${palette.bold(`${change.file}:${change.line}:${change.column}`)}  ${change.before} → ${palette.green(change.after)}  ${palette.dim(change.reason)}`,
      );
    }
    for (const review of escapeStrings(reviews)) {
      out.push(`${palette.bold(`${review.file}:${review.line}:${review.column}`)}  ${review.text}  ${palette.yellow(review.reason)}`);
    }
    appendAll(
      out,
      notes.map((note) => palette.dim(escapeControls(note))),
    );
    out.push(
      changes.length === 0 ? stampMessages.noChanges(documents.length) : stampMessages.changed(changedFiles, changes.length, dryRun),
    );
    context.stdout.write(`${out.join('\n')}\n`);
    return reviews.length > 0 ? 1 : 0;
  },
};

type Decision = { readonly target: StampTarget; readonly reason: string } | { readonly review: string };

/** What to do with one citation: stamp it (and why), leave it for review (and why), or nothing. */
async function decide(
  verdict: CitationVerdict,
  file: string,
  accepted: ReadonlyMap<string, string>,
  usedAccepts: Set<string>,
  artifacts: ArtifactCache,
  root: string,
  getHistory: () => Promise<GitHistory | null>,
): Promise<Decision | null> {
  const { citation, finding } = verdict;
  const currentHash = typeof finding.currentHash === 'string' ? finding.currentHash : null;
  if (finding.status === 'unversioned' && currentHash !== null) {
    return { target: { hash: currentHash, lines: null }, reason: stampMessages.reasonUnversioned() };
  }
  if (finding.status !== 'stale' || citation.hash === null || currentHash === null) return null;
  const history = await getHistory();
  if (history === null) return { review: stampMessages.needsHistory() };
  const detail = await blameOne(history, artifacts, root, file, verdict);
  const classification = detail.classification;
  const key = `${file}:${citation.line}`;
  const isAccepted = accepted.has(key);
  if (isAccepted) usedAccepts.add(key);
  if (classification?.mechanical) {
    const drift = classification.drift;
    const lines = citation.lines === null ? null : classification.newRange;
    return {
      target: { hash: currentHash, lines },
      reason: stampMessages.reasonRepin(drift, citation.lines?.text ?? null, lines?.text ?? null),
    };
  }
  if (isAccepted && (classification !== null || detail.entry.drift === 'unknown-hash' || detail.entry.drift === 'shallow')) {
    const lines = citation.lines === null ? null : (classification?.newRange ?? null);
    return { target: { hash: currentHash, lines }, reason: stampMessages.reasonAccepted(detail.entry.drift) };
  }
  return { review: stampMessages.needsReview(detail.entry.drift) };
}

/** Drops documents that are symlinks to another listed document, so each file is edited once. */
function uniqueFiles(root: string, documents: readonly string[]): string[] {
  const seen = new Set<string>();
  return documents.filter((file) => {
    let real: string;
    try {
      real = realpathSync(join(root, file));
    } catch {
      return true;
    }
    if (seen.has(real)) return false;
    seen.add(real);
    return true;
  });
}

function where(file: string, verdict: CitationVerdict): { file: string; line: number; column: number } {
  return { file, line: verdict.citation.line, column: verdict.citation.column };
}
