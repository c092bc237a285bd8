export { appendAll, isStrings, sameItems, sortedHas } from './arrays.ts';
export type { Artifact } from './artifacts.ts';
export { ArtifactCache, countLines } from './artifacts.ts';
export type { CheckerResult, CheckInput, CheckOptions, DocumentChecker, DocumentContext, ResultPort, VerifiedDocument } from './check.ts';
export { applyOverrides, checkDocument, decodeDocument, documentFinding, rlmChecker, settleFindings, verifyDocument } from './check.ts';
export { forEachLimited } from './concurrency.ts';
export type { ConfigInput, ConfigParse } from './config-schema.ts';
export { CONFIG_SCHEMA, ONLINE_SERVICES, parseConfigValue, SEVERITY_OVERRIDES } from './config-schema.ts';
export type { BibliographyEntry, BibliographyResult } from './corpus/bibliography.ts';
export { parseBibtex, parseCslJson } from './corpus/bibliography.ts';
export type { AuthorEntry, CorpusInput } from './corpus/corpus-index.ts';
export { CorpusIndex } from './corpus/corpus-index.ts';
export type { GradeLevel } from './corpus/grade.ts';
export { findGradeMarker, GRADE_LABELS, parseGradeLevel } from './corpus/grade.ts';
export type { RefMatch } from './corpus/ref-ids.ts';
export { findRefIds, idsFromBasename, refStem } from './corpus/ref-ids.ts';
export type { CorpusFile, CorpusSource } from './corpus/source.ts';
export { normaliseSurname, parseCorpusSource, readFrontmatter } from './corpus/source.ts';
export type { YamlParse, YamlValue } from './corpus/yaml.ts';
export { parseYaml } from './corpus/yaml.ts';
export type { DocumentText, EditableText } from './document-text.ts';
export { editableText, escapeControls, readDocumentText } from './document-text.ts';
export type { DriftClassification, RegionDrift } from './drift/classify.ts';
export { classifyDrift, formatRange, normaliseWhitespace } from './drift/classify.ts';
export type { DiffOp } from './drift/line-diff.ts';
export { diffLines, mapRange, splitLines, unifiedHunks } from './drift/line-diff.ts';
export { blameMessages, historyMessages, stampMessages } from './drift/messages.ts';
export type { StampTarget } from './drift/stamp-plan.ts';
export { planStampEdit, stampedText, unifiedDiff } from './drift/stamp-plan.ts';
export type { EditDistanceOptions } from './edit-distance.ts';
export { editDistance } from './edit-distance.ts';
export type { AppliedEdits, TextEdit } from './edits.ts';
export { applyEdits, removeInsertions } from './edits.ts';
export type { ErrorCode } from './errors.ts';
export { AiwgCiteError, isAiwgCiteError } from './errors.ts';
export type { TextTemplate } from './finding-rows.ts';
export { decodeFindingRows, encodeFindingRows, findingRowsDecoder, TextTemplates } from './finding-rows.ts';
export type { FileFix, FixPlan } from './fix/plan.ts';
export { planFixes } from './fix/plan.ts';
export type {
  CertificateInput,
  CertificateItem,
  CertificateStatus,
  GateDecision,
  ItemOutcome,
  UncheckedFootnote,
} from './footnotes/certificate.ts';
export { decideGate, formatPercent, gateContextOf, renderCertificate } from './footnotes/certificate.ts';
export type { ClassifiedFootnote, FootnoteCategory, FootnoteDisposition } from './footnotes/classify.ts';
export { classifyFootnotes, FOOTNOTE_CATEGORIES, findUrls } from './footnotes/classify.ts';
export type { CorpusMatch } from './footnotes/corpus-match.ts';
export { matchInCorpus, titleSimilarity } from './footnotes/corpus-match.ts';
export { certificateReasons, footnoteMessages } from './footnotes/messages.ts';
export type { FootnoteDefinition, FootnoteMarker, FootnoteParseOptions, FootnoteStyle, ParsedFootnotes } from './footnotes/parse.ts';
export { NO_SECTION, parseFootnotes } from './footnotes/parse.ts';
export type { StatuteCitation, StatuteCode, StatuteProblem } from './footnotes/statutes.ts';
export { findStatutes, formatStatute } from './footnotes/statutes.ts';
export type { EvidenceQuality, FootnoteTag, TagKind } from './footnotes/tags.ts';
export { evidenceQuality, findPlaceholder, findTags } from './footnotes/tags.ts';
export type { HashRoutine } from './hash.ts';
export {
  CONTENT_HASH_LENGTH,
  codeUnitHash,
  contentHash,
  isValidUtf8,
  replacementContentHash,
  toHex,
  webCryptoSha256,
} from './hash.ts';
export type { HistoryAnswer, HistoryFacts, HistoryJudgement, Pin, PinFacts, VersionSource } from './history-verdict.ts';
export { judgeHistory, pinKey, stalePins } from './history-verdict.ts';
export type { AggregateOptions, AggregatePolicy, AggregateResult, QuoteCheck, QuoteOutcome } from './interop/aggregate.ts';
export { aggregateBundles, aggregateCandidates, enforceQuotes } from './interop/aggregate.ts';
export type { BlockKind, ChunkOptions, ChunkSegment, MarkdownBlock, MarkdownChunk, OffsetRole } from './interop/chunk.ts';
export { chunkMarkdown, DEFAULT_MAX_TOKENS, estimateTokens, mapChunkOffset, mapChunkSpan, splitBlocks } from './interop/chunk.ts';
export { interopMessages } from './interop/messages.ts';
export type { OffsetIndex } from './interop/offsets.ts';
export { createOffsetIndex } from './interop/offsets.ts';
export type { Annotated, AnnotateMode, AnnotationMark } from './interop/render.ts';
export { annotateMarkdown, marksFromAggregate, marksFromFindings, REPORT_MARKER, sortMarks } from './interop/render.ts';
export type {
  AggregatedVerdict,
  AggregateInput,
  ChunkPayload,
  Claim,
  ClaimType,
  DroppedCandidate,
  Evidence,
  SentenceSpan,
  SourceCheckClaimType,
  SourceCheckVerdict,
  Validated,
  Verdict,
  VerdictBundle,
  VerdictLabel,
} from './interop/schema.ts';
export {
  CLAIM_TYPES,
  isSourceCheckVerdict,
  isVerdictLabel,
  labelOfSourceCheck,
  SOURCE_CHECK_CLAIM_TYPES,
  SOURCE_CHECK_VERDICTS,
  VERDICT_LABELS,
  validateAggregateInput,
  validateAggregateOutput,
} from './interop/schema.ts';
export type { SourceCheckDocument, SourceCheckResult } from './interop/source-check.ts';
export { toSourceCheck, toSourceCheckDocument } from './interop/source-check.ts';
export type { FindingVerdicts } from './interop/verdict-model.ts';
export {
  claimTypeOf,
  okJsonOf,
  STATUS_VERDICTS,
  sourceCheckOfLabel,
  VERDICT_ICONS,
  VERDICT_WORDS,
  verdictJsonWriter,
  verdictOfSeverity,
  verdictsOf,
  withVerdicts,
  writeOkJson,
} from './interop/verdict-model.ts';
export type {
  Heading,
  MarkdownModel,
  Range,
  Region,
  RegionKind,
  ScannedDocument,
  ScanOptions,
  Suppression,
} from './markdown/scan.ts';
export {
  createRegionCursor,
  isCodeKind,
  isEscapedAt,
  isHtmlKind,
  isOutsideRegions,
  isProse,
  lineOf,
  normaliseLabel,
  parseMarkdown,
  positionOf,
  scanMarkdown,
} from './markdown/scan.ts';
export type { MemoryEntry, MemoryFileSystemOptions } from './memory-fs.ts';
export { createMemoryFileSystem } from './memory-fs.ts';
export type { NamedReport } from './merge.ts';
export { mergeReports, RUN_LEVEL_RULES } from './merge.ts';
export { RLM_LABELS, rlmMessages, stagedChangeMessages } from './messages.ts';
export { OutcomeTally } from './outcome-tally.ts';
export type { NormalisedPath } from './paths.ts';
export { fromDocumentFolder, joinRoot, normaliseArtifactPath, relativeToRoot } from './paths.ts';
export type {
  BatchHelper,
  BatchOutcome,
  BatchPorts,
  BatchShare,
  CopiesPort,
  Discovery,
  DocumentOutcome,
  HelperRun,
  PipelinePlan,
  PipelinePorts,
  PipelineResult,
  RunStage,
  RunStageResult,
  TalliedOutcomes,
} from './pipeline.ts';
export {
  batchPortsOf,
  checkDocumentBatch,
  checkDocumentShare,
  checkDocuments,
  finishPipeline,
  outcomeForPlan,
  PIPELINE_STAGES,
  runPipeline,
} from './pipeline.ts';
export type { Admission, DocumentPolicy, SkipReason } from './policy.ts';
export { admitDocument, BINARY_SNIFF_BYTES, DEFAULT_MAX_DOCUMENT_BYTES, describeSkip, skippedNote } from './policy.ts';
export type { ArtifactReader, EntryKind, FileSystem, MaybePromise, ReadResult, Sha256 } from './ports.ts';
export { createConfinedReader } from './reader.ts';
export * from './refs/index.ts';
export type { Coverage, Finding, FindingCore, Report, RlmSummary, Severity, Summary, VerdictOptions } from './report.ts';
export {
  addOkCounts,
  buildReport,
  compareFindings,
  compareInFile,
  countOk,
  escalate,
  fromOkKey,
  inReportOrder,
  type OkCounts,
  type OkJson,
  okJsonHolds,
  okKey,
} from './report.ts';
export type { DocumentResult, KnownDigest, OkMode, ResultStorage } from './result-cache.ts';
export { artifactState, memoryResultStorage, RecordingArtifacts, ResultCache } from './result-cache.ts';
export type { Located, RlmCitation, RlmExtraction, RlmNearMiss } from './rlm/extract.ts';
export { extractRlm } from './rlm/extract.ts';
export type { LineRange, RlmClassification, RlmForm, RlmMalformed, RlmParsed } from './rlm/grammar.ts';
export { classifyInner, formatCitation, parseFooterBullet, parseLineRange } from './rlm/grammar.ts';
export type { ReplacementLookup } from './rlm/verify.ts';
export { judgeCitation, judgeMalformed, prepareArtifacts, verifyMalformed, verifyRlm } from './rlm/verify.ts';
export type { Confidence, Profile, Rule, RuleAlias, RuleRequirement } from './rules/define.ts';
export { NO_OPTIONS, PROFILES } from './rules/define.ts';
export type {
  FindingKind,
  FindingOf,
  KnownFinding,
  RegisteredRule,
  RuleId,
  RuleOfKind,
  RuleResolution,
  SeverityOverride,
  StatusOf,
} from './rules.ts';
export {
  defaultSeverity,
  findRule,
  isFixableFinding,
  isRuleId,
  namesFinding,
  nearestName,
  RULE_ALIASES,
  RULE_LIST,
  RULES,
  resolveRuleId,
  ruleAnchor,
  ruleIdsOf,
} from './rules.ts';
export type { AuthorYearMatch } from './scholarly/author-year.ts';
export { findAuthorYears } from './scholarly/author-year.ts';
export type { ScholarlyChecker, ScholarlyKind, ScholarlyOptions } from './scholarly/checker.ts';
export { createScholarlyChecker, SCHOLARLY_KINDS } from './scholarly/checker.ts';
export type { ClaimTier } from './scholarly/hedging.ts';
export { claimTier, findOpener, OPENER_FOR_LEVEL } from './scholarly/hedging.ts';
export type { IdentifierMatch, YearMonth } from './scholarly/identifiers.ts';
export { arxivProblem, doiProblem, findArxivIds, findDois, isPlaceholderDoi, trimDoi } from './scholarly/identifiers.ts';
export type { MentionMatch, MentionResolution, MentionResolver, MentionTarget } from './scholarly/mentions.ts';
export { findMentions } from './scholarly/mentions.ts';
export { scholarlyMessages } from './scholarly/messages.ts';
export { normaliseQuoteText, quoteOccursIn } from './scholarly/normalise-quote.ts';
export { CORPUS_ONLY_IN_RESEARCH, isHeuristicRule, PROFILE_SUMMARIES, researchReason } from './scholarly/profile.ts';
export type { ProseView, Sentence } from './scholarly/prose.ts';
export { buildProseView, splitSentences } from './scholarly/prose.ts';
export type { ScholarlyRuleId } from './scholarly/rules.ts';
export { SCHOLARLY_RULES } from './scholarly/rules.ts';
export type { Shard } from './shard.ts';
export { parseShard, pathHash, selectShard, shardOf } from './shard.ts';
export type { ArtifactChange, CitingCitation, StagedChangeFacts, StagedChangeSummary } from './staged-change.ts';
export { judgeStagedChange } from './staged-change.ts';
export { isSuppressed } from './suppression.ts';
