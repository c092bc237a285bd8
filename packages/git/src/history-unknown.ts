import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { applyOverrides, buildReport, type CheckOptions, type Finding, historyMessages, type Report, RULES } from '@aiwg-cite/core';
import { GitHistory } from './history.ts';

/** Options of {@link markUnknownHashes}. */
export interface UnknownHashOptions {
  /** The check root (absolute). */
  readonly root: string;
  /** The options the report was built with, so verdict, strictness and overrides stay the same. */
  readonly options?: CheckOptions;
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * The fabricated-hash pass of `check` (issue #6): a STALE citation whose hash matches no version
 * the artifact ever had (any ref, the index, the working tree) becomes `unknown-hash`, an error.
 * It runs after the core report and only over stale findings, so a clean tree costs nothing.
 * Outside git it changes nothing; in a shallow clone or before the first commit it changes nothing
 * and says so in the coverage notes (an incomplete history must not pass for a checked one); a
 * file git never tracked is left stale (there is no history to search).
 */
export async function markUnknownHashes(report: Report, input: UnknownHashOptions): Promise<Report> {
  const stale = report.citations.filter(isStaleVersioned);
  if (stale.length === 0) return report;
  const history = GitHistory.open(input.root, input.env);
  // Outside git there is no history to consult, and none is expected: stale stays stale, silently.
  if (history === null) return report;
  if (history.isShallow) return withNote(report, historyMessages.shallow(), input.options);
  if (!history.hasCommits()) return withNote(report, historyMessages.noCommits(), input.options);

  const known = new Map<string, Set<string> | null>();
  const replaced = new Map<Finding, Finding>();
  let untracked = 0;
  try {
    // First pass: every blob of every stale artifact under its current name, from one git log.
    const byPath = history.blobsByPath([...new Set(stale.map((finding) => finding.artifact as string))]);
    const quick = await history.hashBlobs([...byPath.values()].flatMap((oids) => [...oids]));
    const quickHashes = (artifact: string): Set<string> => {
      const hashes = new Set<string>();
      for (const oid of byPath.get(artifact) ?? []) {
        const hash = quick.get(oid);
        if (hash === undefined) continue;
        hashes.add(hash.raw);
        if (hash.replacement !== null) hashes.add(hash.replacement);
      }
      return hashes;
    };
    for (const finding of stale) {
      const artifact = finding.artifact as string;
      if (isSymlink(input.root, artifact)) {
        // git stores a link's target path, not the content it leads to: there is nothing to compare.
        untracked += 1;
        continue;
      }
      if (quickHashes(artifact).has(finding.hash as string)) continue;
      // Only a hash the first pass cannot explain pays for the full walk (renames, the index).
      if (!known.has(artifact)) known.set(artifact, await history.knownHashes(artifact));
      const hashes = known.get(artifact) ?? null;
      if (hashes === null) {
        untracked += 1;
        continue;
      }
      if (hashes.has(finding.hash as string)) continue;
      const currentHash = typeof finding.currentHash === 'string' ? finding.currentHash : null;
      replaced.set(finding, {
        ...finding,
        status: 'unknown-hash',
        severity: RULES['rlm/unknown-hash'].severity,
        rule: 'rlm/unknown-hash',
        message: historyMessages.unknownHash(artifact, finding.hash as string),
        fix: historyMessages.unknownHashFix(artifact, currentHash),
      });
    }
  } finally {
    await history.close();
  }
  const notes = untracked > 0 ? [historyMessages.untracked(untracked)] : [];
  if (replaced.size === 0 && notes.length === 0) return report;
  const changed = applyOverrides([...replaced.values()], input.options?.severityOverrides);
  const findings = report.citations.filter((finding) => !replaced.has(finding)).concat(changed);
  const coverage = { ...report.coverage, notes: [...report.coverage.notes, ...notes] };
  return buildReport(findings, report.summary.files, coverage, input.options);
}

function isSymlink(root: string, artifact: string): boolean {
  try {
    return lstatSync(join(root, artifact)).isSymbolicLink();
  } catch {
    return false;
  }
}

function isStaleVersioned(finding: Finding): boolean {
  return finding.kind === 'rlm' && finding.status === 'stale' && typeof finding.hash === 'string' && typeof finding.artifact === 'string';
}

function withNote(report: Report, note: string, options: CheckOptions | undefined): Report {
  return buildReport(report.citations, report.summary.files, { ...report.coverage, notes: [...report.coverage.notes, note] }, options);
}
