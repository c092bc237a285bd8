import type { ArtifactCache } from './artifacts.ts';
import { readDocumentText } from './document-text.ts';
import { type ScannedDocument, type Suppression, scanMarkdown } from './markdown/scan.ts';
import { documentMessages } from './messages.ts';
import type { DocumentPolicy } from './policy.ts';
import type { ArtifactReader, ReadResult, Sha256 } from './ports.ts';
import type { Finding, VerdictOptions } from './report.ts';
import type { KnownDigest, ResultCache } from './result-cache.ts';
import { extractRlm } from './rlm/extract.ts';
import type { RlmParsed } from './rlm/grammar.ts';
import { judgeCitation, judgeMalformed, prepareArtifacts, readFromDocumentFolder } from './rlm/verify.ts';
import type { SeverityOverride } from './rules.ts';
import { isSuppressed } from './suppression.ts';

/** Options of a check run. */
export interface CheckOptions extends VerdictOptions, DocumentPolicy {
  /** Check citations inside fenced, indented and inline code too. @default false */
  readonly includeCode?: boolean;
  /** Per-rule severities from configuration; `off` drops the rule's findings. */
  readonly severityOverrides?: Readonly<Record<string, SeverityOverride>>;
  /** How many documents are checked at once. @default 32 */
  readonly concurrency?: number;
}

/** What a checker sees of one document. */
export interface DocumentContext {
  /** The document's POSIX path relative to the root. */
  readonly file: string;
  readonly document: ScannedDocument;
  readonly artifacts: ArtifactCache;
  readonly options: CheckOptions;
}

/** What a checker returns for one document. */
export interface CheckerResult {
  readonly findings: readonly Finding[];
  /** Candidates skipped because they stand in code. */
  readonly skippedInCode?: number;
  /**
   * The result depends on more than the document and what it cites (a checker held findings back
   * by a run-level count): the result cache must not store it. @default false
   */
  readonly uncacheable?: boolean;
}

/** One family of checks (RLM, corpus, DOI, …) run over every document. */
export interface DocumentChecker {
  /** A short name used in coverage lines. */
  readonly name: string;
  check(context: DocumentContext): Promise<CheckerResult>;
}

/** The RLM code-citation checks (SPEC §2). */
export const rlmChecker: DocumentChecker = {
  name: 'rlm',
  async check({ file, document, artifacts }) {
    const extraction = extractRlm(document);
    const normalisedNearMisses = extraction.malformed.map((nearMiss) => nearMiss.normalised);
    await prepareArtifacts([...extraction.citations, ...normalisedNearMisses], artifacts);
    const replacement = (path: string) => artifacts.replacementOf(path);
    const judged: [RlmParsed, Finding][] = [];
    for (const citation of extraction.citations) {
      const finding = judgeCitation(citation, file, artifacts, replacement);
      if (finding !== null) judged.push([citation, finding]);
    }
    const findings = (await readFromDocumentFolder(judged, file, artifacts)).filter((finding) => finding !== null);
    for (const nearMiss of extraction.malformed) findings.push(judgeMalformed(nearMiss, file, artifacts, replacement));
    return { findings, skippedInCode: extraction.skippedInCode };
  },
};

/** Input of {@link checkDocuments}. */
export interface CheckInput {
  /** Reads documents and artifacts, confined to the root. */
  readonly reader: ArtifactReader;
  /** Root-relative POSIX paths of the markdown documents to check. */
  readonly documents: readonly string[];
  readonly sha256?: Sha256;
  readonly options?: CheckOptions;
  /** The checks to run. @default [rlmChecker] */
  readonly checkers?: readonly DocumentChecker[];
  /** A shared cache, so a long-running caller can reuse hashes between runs. */
  readonly artifacts?: ArtifactCache;
  /**
   * Results of earlier runs (issue 18): a document whose bytes, artifacts and run context are
   * unchanged takes its stored findings instead of being checked again.
   */
  readonly results?: ResultPort;
}

/** The result cache as the pipeline's read and extract+verify stages use it. */
export interface ResultPort {
  readonly cache: ResultCache;
  /** Kinds whose findings depend on more than the document, its artifacts and the context: never stored. */
  readonly uncacheableKinds?: readonly string[];
  /**
   * Digests of files known without reading them (unchanged since an earlier run): a document whose
   * digest is known, and whose stored result holds, is not read at all.
   */
  readonly known?: KnownDigest;
}

/**
 * Decodes a markdown document's bytes (UTF-8, BOM removed by the scanner; UTF-16 with a BOM
 * decoded); a binary file has no text. See {@link readDocumentText} for the notes.
 */
export function decodeDocument(bytes: Uint8Array): string {
  const decoded = readDocumentText('', bytes);
  return decoded.kind === 'text' ? decoded.text : '';
}

/** The finding of a document that cannot be read: one bad document never stops the run. */
export function documentFinding(file: string, read: Exclude<ReadResult, { kind: 'file' }>): Finding {
  const why =
    read.kind === 'outside-root'
      ? documentMessages.outsideRoot()
      : read.kind === 'unreadable' || read.kind === 'unchecked'
        ? documentMessages.cannotRead(read.reason)
        : read.kind === 'directory'
          ? documentMessages.isDirectory()
          : documentMessages.doesNotExist();
  return {
    file,
    line: 1,
    column: 1,
    kind: 'document',
    text: file,
    status: read.kind,
    severity: 'error',
    rule: 'document/unreadable',
    message: `${file}: ${why}`,
    fix: read.kind === 'outside-root' ? documentMessages.outsideRootFix() : null,
  };
}

/** One document after the extract and verify stages: raw findings, before suppression and overrides. */
export interface VerifiedDocument {
  readonly file: string;
  readonly findings: readonly Finding[];
  readonly suppressions: readonly Suppression[];
  /** Candidates skipped because they stand in code. */
  readonly skippedInCode: number;
  /** A checker said the result cannot be stored (see {@link CheckerResult}). */
  readonly uncacheable: boolean;
}

/** The extract and verify stages of one document: scans it once and runs every checker over it. */
export async function verifyDocument(
  file: string,
  text: string,
  artifacts: ArtifactCache,
  options: CheckOptions = {},
  checkers: readonly DocumentChecker[] = [rlmChecker],
): Promise<VerifiedDocument> {
  const document = scanMarkdown(text, options.includeCode === true ? { includeCode: true } : {});
  const context: DocumentContext = { file, document, artifacts, options };
  const results = await Promise.all(checkers.map((checker) => checker.check(context)));
  let skippedInCode = 0;
  let uncacheable = false;
  const findings: Finding[] = [];
  for (const result of results) {
    for (const finding of result.findings) findings.push(finding);
    skippedInCode += result.skippedInCode ?? 0;
    uncacheable ||= result.uncacheable === true;
  }
  return { file, findings, suppressions: document.suppressions, skippedInCode, uncacheable };
}

/**
 * The settle stage: a document's suppression comments, then the configured severities. Findings
 * `unsettled` names are left as they are (neither suppressed nor overridden), for a later settle.
 */
export function settleFindings(
  findings: readonly Finding[],
  suppressions: readonly Suppression[],
  overrides: Readonly<Record<string, SeverityOverride>> | undefined,
  unsettled?: (finding: Finding) => boolean,
): { findings: Finding[]; suppressed: number } {
  const visible =
    suppressions.length === 0
      ? findings
      : findings.filter((finding) => unsettled?.(finding) === true || !isSuppressed(finding, suppressions));
  return { findings: applyOverrides(visible, overrides, unsettled), suppressed: findings.length - visible.length };
}

/**
 * Checks one already-read document and returns its findings, suppressions and overrides applied:
 * the extract, verify and settle stages without history (the pipeline adds it).
 */
export async function checkDocument(
  file: string,
  text: string,
  artifacts: ArtifactCache,
  options: CheckOptions = {},
  checkers: readonly DocumentChecker[] = [rlmChecker],
): Promise<{ findings: Finding[]; skippedInCode: number; suppressed: number }> {
  const verified = await verifyDocument(file, text, artifacts, options, checkers);
  const settled = settleFindings(verified.findings, verified.suppressions, options.severityOverrides);
  return { findings: settled.findings, skippedInCode: verified.skippedInCode, suppressed: settled.suppressed };
}

/**
 * Applies configured severities; `off` removes the finding. Fresh (`ok`) findings are left alone,
 * and those `unsettled` names.
 */
export function applyOverrides(
  findings: readonly Finding[],
  overrides: Readonly<Record<string, SeverityOverride>> | undefined,
  unsettled?: (finding: Finding) => boolean,
): Finding[] {
  if (overrides === undefined || Object.keys(overrides).length === 0) return [...findings];
  const out: Finding[] = [];
  for (const finding of findings) {
    const override = finding.severity === 'ok' || unsettled?.(finding) === true ? undefined : overrides[finding.rule];
    if (override === 'off') continue;
    out.push(override === undefined ? finding : { ...finding, severity: override });
  }
  return out;
}
