import { appendAll } from './arrays.ts';
import { ArtifactCache } from './artifacts.ts';
import { forEachLimited } from './concurrency.ts';
import { readDocumentText } from './document-text.ts';
import { type ScannedDocument, type Suppression, scanMarkdown } from './markdown/scan.ts';
import type { ArtifactReader, ReadResult, Sha256 } from './ports.ts';
import { buildReport, type Coverage, type Finding, type Report, type VerdictOptions } from './report.ts';
import { type DocumentResult, RecordingArtifacts, type ResultCache } from './result-cache.ts';
import { extractRlm } from './rlm/extract.ts';
import { judgeCitation, judgeMalformed, prepareArtifacts } from './rlm/verify.ts';
import { namesFinding, type SeverityOverride } from './rules.ts';

/** Options of a check run. */
export interface CheckOptions extends VerdictOptions {
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
    const findings: Finding[] = [];
    for (const citation of extraction.citations) {
      const finding = judgeCitation(citation, file, artifacts, replacement);
      if (finding !== null) findings.push(finding);
    }
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
  readonly results?: {
    readonly cache: ResultCache;
    /** Kinds whose findings depend on more than the document, its artifacts and the context: never stored. */
    readonly uncacheableKinds?: readonly string[];
  };
}

/**
 * Decodes a markdown document's bytes (UTF-8, BOM removed by the scanner; UTF-16 with a BOM
 * decoded); a binary file has no text. See {@link readDocumentText} for the notes.
 */
export function decodeDocument(bytes: Uint8Array): string {
  const decoded = readDocumentText('', bytes);
  return decoded.kind === 'text' ? decoded.text : '';
}

/** Checks one already-read document and returns its findings, suppressions and overrides applied. */
export async function checkDocument(
  file: string,
  text: string,
  artifacts: ArtifactCache,
  options: CheckOptions = {},
  checkers: readonly DocumentChecker[] = [rlmChecker],
): Promise<{ findings: Finding[]; skippedInCode: number; suppressed: number }> {
  const document = scanMarkdown(text, options.includeCode === true ? { includeCode: true } : {});
  const context: DocumentContext = { file, document, artifacts, options };
  const results = await Promise.all(checkers.map((checker) => checker.check(context)));
  let skippedInCode = 0;
  const raw: Finding[] = [];
  for (const result of results) {
    appendAll(raw, result.findings);
    skippedInCode += result.skippedInCode ?? 0;
  }
  const visible = raw.filter((finding) => !isSuppressed(finding, document.suppressions));
  return {
    findings: applyOverrides(visible, options.severityOverrides),
    skippedInCode,
    suppressed: raw.length - visible.length,
  };
}

/** Checks documents and builds the report. */
export async function checkDocuments(input: CheckInput): Promise<Report> {
  const options = input.options ?? {};
  const artifacts = input.artifacts ?? new ArtifactCache(input.reader, input.sha256);
  const checkers = input.checkers ?? [rlmChecker];
  const findings: Finding[] = [];
  const coverage: Coverage = { skippedInCode: 0, suppressed: 0, notes: [] };

  await forEachLimited(input.documents, options.concurrency ?? 32, async (file) => {
    const read = await input.reader.read(file);
    if (read.kind !== 'file') {
      // One bad document (a symlink out of the root, a FIFO, an unreadable file) is that
      // document's finding; the others are still checked.
      findings.push(documentFinding(file, read));
      return;
    }
    const decoded = readDocumentText(file, read.bytes);
    if (decoded.note !== null) coverage.notes.push(decoded.note);
    if (decoded.kind === 'binary') return;
    const result =
      input.results === undefined
        ? await checkDocument(file, decoded.text, artifacts, options, checkers)
        : await checkThroughCache(file, read.bytes, artifacts, options, checkers, input.results);
    appendAll(findings, result.findings);
    coverage.skippedInCode += result.skippedInCode;
    coverage.suppressed += result.suppressed;
  });
  return buildReport(findings, input.documents.length, coverage, options);
}

async function checkThroughCache(
  file: string,
  bytes: Uint8Array,
  artifacts: ArtifactCache,
  options: CheckOptions,
  checkers: readonly DocumentChecker[],
  results: NonNullable<CheckInput['results']>,
): Promise<DocumentResult> {
  const key = await results.cache.keyOf(file, bytes);
  const cached = await results.cache.lookup(key, file, artifacts);
  if (cached !== null) return cached;
  const recording = new RecordingArtifacts(artifacts);
  const result = await checkDocument(file, decodeDocument(bytes), recording, options, checkers);
  const uncacheable = results.uncacheableKinds ?? [];
  if (!result.findings.some((finding) => uncacheable.includes(finding.kind))) {
    await results.cache.store(key, file, result, recording.looked, artifacts);
  }
  return result;
}

/** The finding of a document that cannot be read. */
export function documentFinding(file: string, read: Exclude<ReadResult, { kind: 'file' }>): Finding {
  const why =
    read.kind === 'outside-root'
      ? 'it resolves outside the root (a symlink), so it was not read'
      : read.kind === 'unreadable'
        ? `it cannot be read (${read.reason})`
        : read.kind === 'directory'
          ? 'it is a directory'
          : 'it does not exist';
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
    fix: read.kind === 'outside-root' ? 'keep documents inside the repository, or leave the link out of the check' : null,
  };
}

function isSuppressed(finding: Finding, suppressions: readonly Suppression[]): boolean {
  for (const suppression of suppressions) {
    if (suppression.line !== finding.line) continue;
    if (suppression.rules.length === 0) return true;
    if (suppression.rules.some((rule) => namesFinding(rule, finding))) return true;
  }
  return false;
}

/** Applies configured severities; `off` removes the finding. Fresh (`ok`) findings are left alone. */
export function applyOverrides(findings: readonly Finding[], overrides: Readonly<Record<string, SeverityOverride>> | undefined): Finding[] {
  if (overrides === undefined || Object.keys(overrides).length === 0) return [...findings];
  const out: Finding[] = [];
  for (const finding of findings) {
    const override = finding.severity === 'ok' ? undefined : overrides[finding.rule];
    if (override === 'off') continue;
    out.push(override === undefined ? finding : { ...finding, severity: override });
  }
  return out;
}
