import type { ArtifactCache } from './artifacts.ts';
import type { Suppression } from './markdown/scan.ts';
import { stagedChangeMessages } from './messages.ts';
import type { Finding } from './report.ts';
import type { RlmCitation } from './rlm/extract.ts';
import { verifyRlm } from './rlm/verify.ts';
import { isSuppressed } from './suppression.ts';

/** A citation, in a committed document outside the run, of an artifact the change touches. */
export interface CitingCitation {
  /** The citing document, root-relative. */
  readonly document: string;
  /** The artifact it cites, normalised root-relative. */
  readonly artifact: string;
  readonly citation: RlmCitation;
  /** The citing document's suppression comments. */
  readonly suppressions: readonly Suppression[];
}

/** How the change touches an artifact. */
export type ArtifactChange =
  /**
   * Deleted, or no longer a regular file (a symlink or submodule now). `renamedTo`: the path the
   * change adds with the same content (a rename git would find exactly).
   */
  | { readonly kind: 'removed'; readonly deleted: boolean; readonly renamedTo?: string }
  /** Modified: the content hashes it had before the change (both routines of SPEC §2.4). */
  | { readonly kind: 'modified'; readonly previousHashes: () => Promise<readonly string[]> };

/** The facts of the staged-change stage, from git. */
export interface StagedChangeFacts {
  readonly citing: readonly CitingCitation[];
  readonly changes: ReadonlyMap<string, ArtifactChange>;
}

/** What the change does to committed documents. */
export interface StagedChangeSummary {
  /** Citations in committed documents this commit makes stale. */
  readonly stale: number;
  /** Citations in committed documents whose artifact this commit deletes. */
  readonly missing: number;
}

/**
 * The staged-change verdicts (SPEC §11.1, reverse direction): a citation in a committed document
 * that was fresh before the change and is stale after it, or whose artifact the change removes.
 * `artifacts` reads what the commit will contain. Findings are suppressed by their own document's
 * comments; severity overrides are applied by the caller with everything else.
 */
export async function judgeStagedChange(
  facts: StagedChangeFacts,
  artifacts: ArtifactCache,
): Promise<{ findings: Finding[]; summary: StagedChangeSummary }> {
  const judged = await Promise.all(
    facts.citing.map(async (entry): Promise<Finding | null> => {
      const change = facts.changes.get(entry.artifact);
      if (change === undefined) return null;
      const finding = await verifyRlm(entry.citation, entry.document, artifacts);
      if (finding === null || isSuppressed(finding, entry.suppressions)) return null;
      if (change.kind === 'removed') {
        if (finding.severity !== 'error' || finding.status === 'invalid-range') return null;
        const gone = finding.status === 'missing' && change.deleted;
        const renamedTo = gone ? change.renamedTo : undefined;
        return {
          ...finding,
          ...(gone
            ? {
                message:
                  renamedTo === undefined
                    ? stagedChangeMessages.deleted(entry.artifact)
                    : stagedChangeMessages.renamed(entry.artifact, renamedTo),
              }
            : {}),
          fix:
            renamedTo === undefined
              ? stagedChangeMessages.missingFix(entry.artifact)
              : stagedChangeMessages.renamedFix(entry.artifact, renamedTo),
          cause: 'staged-change',
        };
      }
      // Only citations that were fresh before the change are made stale by it.
      if (finding.status !== 'stale' || entry.citation.hash === null) return null;
      if (!(await change.previousHashes()).includes(entry.citation.hash)) return null;
      return { ...finding, fix: stagedChangeMessages.staleFix(entry.artifact), cause: 'staged-change' };
    }),
  );
  const findings = judged.filter((finding): finding is Finding => finding !== null);
  const stale = findings.filter((finding) => finding.status === 'stale').length;
  return { findings, summary: { stale, missing: findings.length - stale } };
}
