import type { Artifact, ArtifactCache } from '../artifacts.ts';
import { RLM_LABELS, rlmMessages } from '../messages.ts';
import { fromDocumentFolder, normaliseArtifactPath } from '../paths.ts';
import type { Finding, Severity } from '../report.ts';
import { type FindingOf, RULES } from '../rules.ts';
import type { RlmCitation, RlmNearMiss } from './extract.ts';
import { formatCitation, type LineRange, type RlmParsed } from './grammar.ts';

/** A status and rule pair of the rlm kind, tied by the registry (`unknown-hash` comes from history). */
type RlmJudgement = Exclude<Pick<FindingOf<'rlm'>, 'status' | 'rule'>, { readonly status: 'unknown-hash' | 'unstaged' | 'malformed' }>;

/** The verdict on one parsed citation, before it is placed in a document. */
type Verdict = RlmJudgement & {
  readonly message: string;
  readonly fix: string | null;
  readonly artifact: string;
  readonly currentHash: string | null;
  readonly hashRoutine?: 'raw-bytes' | 'utf8-replacement';
};

/**
 * Loads every artifact the citations name, and the UTF-8 replacement hashes that mismatched
 * hashes need, so that {@link verifyRlm} and {@link verifyMalformed} can then judge each
 * citation synchronously, without a promise per citation.
 */
export async function prepareArtifacts(citations: readonly RlmParsed[], artifacts: ArtifactCache): Promise<void> {
  const paths = new Set<string>();
  for (const citation of citations) {
    const normalised = normaliseArtifactPath(citation.id);
    if (normalised.ok) paths.add(normalised.path);
  }
  await artifacts.loadAll(paths);
  const mismatched: Promise<string | null>[] = [];
  for (const citation of citations) {
    if (citation.hash === null) continue;
    const normalised = normaliseArtifactPath(citation.id);
    if (!normalised.ok) continue;
    const found = artifacts.peek(normalised.path);
    if (found?.kind === 'file' && found.hash !== citation.hash) mismatched.push(artifacts.replacementHash(normalised.path));
  }
  if (mismatched.length > 0) await Promise.all(mismatched);
}

/**
 * Verifies a citation against the artifact it names, after {@link prepareArtifacts}. Returns
 * `null` for a bare `[name]` that names no existing file: that is plain text, not a citation.
 */
export async function verifyRlm(citation: RlmCitation, file: string, artifacts: ArtifactCache): Promise<Finding | null> {
  await prepareArtifacts([citation], artifacts);
  return judgeCitation(citation, file, artifacts, await replacementOf(citation, artifacts));
}

/** The synchronous half of {@link verifyRlm}; the artifact must already be loaded. */
export function judgeCitation(
  citation: RlmCitation,
  file: string,
  artifacts: ArtifactCache,
  replacement: ReplacementLookup = () => null,
): Finding | null {
  const verdict = judge(citation, artifacts, replacement);
  if (verdict === null) return null;
  return {
    file,
    line: citation.line,
    column: citation.column,
    kind: 'rlm',
    text: citation.text,
    status: verdict.status,
    severity: RULES[verdict.rule].severity,
    rule: verdict.rule,
    message: verdict.message,
    fix: verdict.fix,
    artifact: verdict.artifact,
    hash: citation.hash,
    currentHash: verdict.currentHash,
    lines: citation.lines?.text ?? null,
    ...(verdict.hashRoutine === undefined ? {} : { hashRoutine: verdict.hashRoutine }),
  };
}

/**
 * Reads again, from its document's folder, a citation that is missing from the root or leaves it
 * through `..` (a package README's `[src/index.ts]`, a `[../src/a.ts]` in `docs/`), and when its
 * path names a file there: a bare `[path]` is a reference relative to its document, as a link's
 * destination would be, and no citation (`null`); any other form stays what it was, since
 * citation paths start at the project root, with a fix that names the root-relative path. The
 * folder's files are looked up through `artifacts`, so a result cache records them as inputs.
 * `judged` pairs each citation with its finding, in order; the findings come back in that order.
 */
export async function readFromDocumentFolder(
  judged: readonly (readonly [RlmParsed, Finding])[],
  file: string,
  artifacts: ArtifactCache,
): Promise<(Finding | null)[]> {
  const findings: (Finding | null)[] = judged.map(([, finding]) => finding);
  if (!file.includes('/')) return findings;
  const besides = new Map<number, string>();
  for (const [index, [, finding]] of judged.entries()) {
    const artifact = finding.artifact;
    if (typeof artifact !== 'string') continue;
    if (finding.status === 'missing') {
      const found = artifacts.peek(artifact);
      if (found?.kind !== 'missing' || found.suggestion !== undefined || found.untracked === true) continue;
    } else {
      const normalised = normaliseArtifactPath(artifact);
      if (finding.status !== 'outside-root' || normalised.ok || normalised.reason !== 'escapes-root') continue;
    }
    const beside = fromDocumentFolder(file, artifact);
    if (beside !== null) besides.set(index, beside);
  }
  if (besides.size === 0) return findings;
  await artifacts.loadAll(besides.values());
  for (const [index, path] of besides) {
    if (artifacts.peek(path)?.kind !== 'file') continue;
    const [citation, finding] = judged[index] as readonly [RlmParsed, Finding];
    findings[index] = citation.form === 'bare' ? null : { ...finding, fix: rlmMessages.besideDocumentFix(path) };
  }
  return findings;
}

/** Reports a near-miss, with the verdict its normalised form would get. */
export async function verifyMalformed(nearMiss: RlmNearMiss, file: string, artifacts: ArtifactCache): Promise<Finding> {
  await prepareArtifacts([nearMiss.normalised], artifacts);
  return judgeMalformed(nearMiss, file, artifacts, await replacementOf(nearMiss.normalised, artifacts));
}

/** The synchronous half of {@link verifyMalformed}. */
export function judgeMalformed(
  nearMiss: RlmNearMiss,
  file: string,
  artifacts: ArtifactCache,
  replacement: ReplacementLookup = () => null,
): Finding {
  const normalisedText = formatCitation(nearMiss.normalised);
  const verdict = judge(nearMiss.normalised, artifacts, replacement);
  const label = verdict === null ? 'MISSING' : (RLM_LABELS[verdict.status] ?? verdict.status.toUpperCase());
  const severity: Severity = RULES['rlm/malformed'].severity;
  return {
    file,
    line: nearMiss.line,
    column: nearMiss.column,
    kind: 'rlm',
    text: nearMiss.text,
    status: 'malformed',
    severity,
    rule: 'rlm/malformed',
    message: rlmMessages.malformed(nearMiss.defects, normalisedText, label),
    fix: rlmMessages.malformedFix(normalisedText),
    artifact: verdict?.artifact ?? nearMiss.normalised.id,
    hash: nearMiss.normalised.hash,
    currentHash: verdict?.currentHash ?? null,
    lines: nearMiss.normalised.lines?.text ?? null,
  };
}

/** Looks up a prepared UTF-8 replacement hash for an artifact path (see {@link prepareArtifacts}). */
export type ReplacementLookup = (path: string) => string | null;

async function replacementOf(citation: RlmParsed, artifacts: ArtifactCache): Promise<ReplacementLookup> {
  const normalised = normaliseArtifactPath(citation.id);
  if (!normalised.ok || citation.hash === null) return () => null;
  const replacement = await artifacts.replacementHash(normalised.path);
  return () => replacement;
}

function judge(citation: RlmParsed, artifacts: ArtifactCache, replacement: ReplacementLookup): Verdict | null {
  const normalised = normaliseArtifactPath(citation.id);
  if (!normalised.ok) {
    if (citation.needsExistingFile) return null;
    return outside(citation.id, normalised.reason);
  }
  const artifact = normalised.path;
  const found = artifacts.peek(artifact);
  if (found === undefined) throw new Error(`artifact \`${artifact}\` was not prepared before judging`);
  if (found.kind !== 'file') {
    if (citation.needsExistingFile) return null;
    return unreachable(artifact, found);
  }
  const structural = structuralRangeProblem(citation.lines);
  if (citation.hash === null) {
    const problem = structural ?? beyondEnd(citation.lines, found.lineCount);
    if (problem !== null) return rangeVerdict(artifact, citation.lines as LineRange, found, problem);
    return {
      status: 'unversioned',
      rule: 'rlm/unversioned',
      message: rlmMessages.unversioned(artifact),
      fix: rlmMessages.unversionedFix(),
      artifact,
      currentHash: found.hash,
    };
  }
  const routine = citation.hash === found.hash ? 'raw-bytes' : replacement(artifact) === citation.hash ? 'utf8-replacement' : null;
  if (routine === null) {
    if (structural !== null) return rangeVerdict(artifact, citation.lines as LineRange, found, structural);
    return {
      status: 'stale',
      rule: 'rlm/stale',
      message: rlmMessages.stale(artifact, citation.hash, found.hash),
      fix: rlmMessages.staleFix(artifact),
      artifact,
      currentHash: found.hash,
    };
  }
  const problem = structural ?? beyondEnd(citation.lines, found.lineCount);
  if (problem !== null) return { ...rangeVerdict(artifact, citation.lines as LineRange, found, problem), hashRoutine: routine };
  return {
    status: 'fresh',
    rule: 'rlm/fresh',
    message: rlmMessages.fresh(artifact, routine),
    fix: null,
    artifact,
    currentHash: found.hash,
    hashRoutine: routine,
  };
}

function structuralRangeProblem(lines: LineRange | null): 'zero' | 'reversed' | null {
  if (lines === null) return null;
  if (lines.start < 1) return 'zero';
  if (lines.end < lines.start) return 'reversed';
  return null;
}

function beyondEnd(lines: LineRange | null, lineCount: number): 'beyond' | null {
  return lines !== null && lines.end > lineCount ? 'beyond' : null;
}

function rangeVerdict(
  artifact: string,
  lines: LineRange,
  found: Extract<Artifact, { kind: 'file' }>,
  problem: 'zero' | 'reversed' | 'beyond',
): Verdict {
  return {
    status: 'invalid-range',
    rule: 'rlm/invalid-range',
    message: rlmMessages.range(lines.text, artifact, found.lineCount, problem),
    fix: rlmMessages.rangeFix(found.lineCount),
    artifact,
    currentHash: found.hash,
  };
}

function outside(id: string, reason: 'absolute' | 'home' | 'escapes-root' | 'empty' | 'symlink'): Verdict {
  return {
    status: 'outside-root',
    rule: 'rlm/outside-root',
    message: rlmMessages.outsideRoot(id, reason),
    fix: rlmMessages.outsideRootFix(),
    artifact: id,
    currentHash: null,
  };
}

function unreachable(artifact: string, found: Exclude<Artifact, { kind: 'file' }>): Verdict {
  switch (found.kind) {
    case 'outside-root':
      return outside(artifact, 'symlink');
    case 'directory':
      return {
        status: 'not-a-file',
        rule: 'rlm/not-a-file',
        message: rlmMessages.notAFile(artifact),
        fix: rlmMessages.notAFileFix(),
        artifact,
        currentHash: null,
      };
    case 'missing':
      return {
        status: 'missing',
        rule: 'rlm/missing',
        message: found.untracked === true ? rlmMessages.missingUntracked(artifact) : rlmMessages.missing(artifact),
        fix: found.untracked === true ? rlmMessages.missingUntrackedFix(artifact) : rlmMessages.missingFix(artifact, found.suggestion),
        artifact,
        currentHash: null,
      };
    case 'unchecked':
      return {
        status: 'unchecked',
        rule: 'rlm/unchecked',
        message: rlmMessages.unchecked(artifact, found.reason),
        fix: rlmMessages.uncheckedFix(),
        artifact,
        currentHash: null,
      };
    case 'unreadable':
      return {
        status: 'missing',
        rule: 'rlm/missing',
        message: rlmMessages.missing(artifact, found.reason),
        fix: rlmMessages.missingFix(artifact),
        artifact,
        currentHash: null,
      };
  }
}
