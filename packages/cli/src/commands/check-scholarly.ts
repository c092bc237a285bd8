import { type Dirent, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import {
  AiwgCiteError,
  type ArtifactReader,
  type CheckOptions,
  type CopiesPort,
  type CorpusIndex,
  compareFindings,
  createScholarlyChecker,
  type DocumentChecker,
  editableText,
  type Finding,
  fromOkKey,
  isFixableFinding,
  type MentionResolution,
  type MentionResolver,
  PROFILES,
  planFixes,
  type Report,
  type RunStage,
  rlmChecker,
  SCHOLARLY_RULES,
  type ScholarlyChecker,
  scholarlyMessages,
} from '@aiwg-cite/core';
import {
  type AiwgCiteConfig,
  assertWriteConfined,
  CONFIG_FILE,
  createMentionResolver,
  type FileStamps,
  filterByGlobs,
  isDirectory,
  loadCorpus,
  locateAiwgDir,
  readRegularFile,
  runGit,
  toPosix,
  type Workspace,
  writeFileAtomic,
} from '@aiwg-cite/node';
import { parseChoice } from '../args.ts';
import { type CliContext, loadRunConfig, type RunDate, runDate } from '../context.ts';
import { formatMarkdownReport } from '../format/markdown-report.ts';
import { checkMessages, inputMessages, usageMessages } from '../messages.ts';
import {
  BODY_STAMP,
  bodyDigest,
  deployedCopies,
  findGeneratedCopies,
  type GeneratedCopies,
  identicalCopies,
  type KnownBodies,
} from './generated-copies.ts';

/** The `check` flags of the corpus and scholarly checks (issue #3), merged into `check`'s parser. */
export const SCHOLARLY_FLAGS = {
  'corpus-only': { type: 'boolean' },
  corpus: { type: 'string', multiple: true },
  'require-corpus': { type: 'boolean' },
  fix: { type: 'boolean' },
  report: { type: 'string' },
  profile: { type: 'string' },
  verbose: { type: 'boolean' },
} as const;

/** Help lines of those flags. */
export const SCHOLARLY_HELP = `  --corpus-only        @-mention checks only
  --corpus DIR         a research corpus root (repeatable; replaces the configured and default roots)
  --require-corpus     keep corpus findings at full severity when no corpus root exists
  --profile NAME       recommended (default): certain findings everywhere, heuristic ones (statistics,
                       hedging, author-year, quotes) only in research writing; research: heuristic
                       ones everywhere; strict: research, and warnings fail; all: every finding in
                       every document, generated copies included
  --verbose            list every finding (infos too) instead of the first few of each rule
  --fix                mechanical, reversible edits only: re-pin stale code citations, fix a DOI's
                       form; findings it cannot fix are reported with a suggestion
  --report[=PATH]      also write the Markdown report (default .aiwg/reports/citation-verification.md)
`;

/** The parsed values of the flags. */
export interface ScholarlyValues {
  readonly rlm?: boolean | undefined;
  readonly 'corpus-only'?: boolean | undefined;
  readonly corpus?: string[] | undefined;
  readonly 'require-corpus'?: boolean | undefined;
  readonly fix?: boolean | undefined;
  readonly report?: string | undefined;
  readonly profile?: string | undefined;
}

/** What `check` runs for one invocation, and what it does with the report afterwards. */
export interface ScholarlyRun {
  readonly checkers: readonly DocumentChecker[];
  /** Under `--fix`, remembers the bytes each document had when it was checked. */
  wrapReader(reader: ArtifactReader): ArtifactReader;
  /** `options` plus the configured rule severities. */
  withOptions(options: CheckOptions): CheckOptions;
  /**
   * Config include/exclude globs, applied only when no paths were given; then generated copies are
   * left out (unless the profile is `all`). With `identity: 'pipeline'` the content-identity rule is
   * left to {@link copiesPort}'s port, which sees each document's bytes as the pipeline reads them.
   * `stamps` and `known` give body identities without reading (see findGeneratedCopies).
   */
  filterDocuments(
    documents: readonly string[],
    explicit: boolean,
    options?: { readonly stamps?: FileStamps | null; readonly known?: KnownBodies; readonly identity?: 'now' | 'pipeline' },
  ): string[];
  /**
   * The pipeline's copies port for a run whose {@link filterDocuments} left content identity to it;
   * it asks nothing of the documents otherwise. `stamps` give the identity of documents answered unread.
   */
  copiesPort(stamps: FileStamps | null): CopiesPort;
  /**
   * The pipeline's corpus stage: the run-level corpus findings (`corpus/absent`, `ref/not-in-corpus`
   * softened under a git-ignored corpus root) and the run's notes, before the report is built.
   */
  readonly corpusStage: RunStage;
  /**
   * Whether the run's citations that checked out may be counted instead of kept: the corpus stage
   * reads their counts, and `afterReport` needs them (`--fix`, `--report`) only when asked.
   */
  readonly countsOk: boolean;
  /**
   * What the run-level stage reads besides the findings and the cache's context, as one string,
   * after {@link filterDocuments}: the copies discovery left out, what reading the corpus noted and
   * found, and which absent corpus roots git ignores. Two runs whose documents, findings and state
   * are the same add the same findings and notes (`check` keeps a whole answer on it).
   */
  runState(): string;
  /**
   * Every `@`-mention target this run's checks resolved against the tree, with what it resolved to,
   * one string each (a mention's finding depends on nothing else of the tree).
   */
  mentionsResolved(): string[];
  /** Whether each of {@link mentionsResolved}'s targets, resolved now, resolves as it did. */
  resolveAsBefore(resolved: readonly string[]): Promise<boolean>;
  /**
   * Forgets what the mention targets resolved to, so the next checks look at the tree again (a
   * watch, before each batch: a file created since makes a mention found).
   */
  forgetMentions(): void;
  /** After the one report is built: applies `--fix` and writes `--report`. */
  afterReport(report: Report, documents: readonly string[]): void;
  /**
   * Everything besides a document and its artifacts that can change its findings (configuration,
   * corpus, date, flags), as one string for the result cache's key (issue 18).
   */
  readonly cacheContext: () => string;
  /**
   * Whether a change of this root-relative path can change the findings of documents that do not
   * cite it: the configuration, and the corpus roots, assessments and bibliographies (`check --changed`
   * then checks every document).
   */
  changesEveryDocument(path: string): boolean;
  /**
   * The folders (root-relative) that hold what {@link changesEveryDocument} names outside the root
   * folder, to be watched one level deep: each corpus root inside the root and every folder below
   * it (one not there yet by its nearest folder that is), the quality assessments, and the
   * configured bibliographies' folders.
   */
  settingsFolders(): string[];
  /**
   * Whether {@link settingsFolders} and {@link changesEveryDocument} name every place this run read
   * its configuration and corpus from: the `.aiwg` directory where it is by default, and every
   * corpus root and configured bibliography inside the root. A watch that sees those files then
   * knows when to read them again.
   */
  settingsWatchable(): boolean;
  /**
   * A run of the configuration and corpus as this one read them (nothing is read again), with
   * state of its own (documents left out, mention targets resolved, what its checks held back) and
   * the month as it is now.
   */
  again(): ScholarlyRun;
  /** Finding kinds that depend on files no citation names (mentions resolve against the tree): never cached. */
  readonly uncacheableKinds: readonly string[];
  /**
   * What a helper thread's run (`check`'s worker) must share with the run it helps: whether
   * {@link filterDocuments} left content identity to the copies port, and what the checks held
   * back in the documents it checked (the run's note counts them).
   */
  readonly thread: ScholarlyThread;
}

/** See {@link ScholarlyRun.thread}. */
export interface ScholarlyThread {
  /** Whether the copies port identifies documents' bodies (the last {@link ScholarlyRun.filterDocuments} chose so). */
  identityInPipeline(): boolean;
  /** In a helper thread, which filters no documents itself: the choice of the run it helps. */
  assumeIdentityInPipeline(value: boolean): void;
  /** What this thread's checks held back, by document. */
  held(): [string, number][];
  /** Counts what a helper thread's checks held back as this run's own. */
  adoptHeld(held: readonly (readonly [string, number])[]): void;
}

/**
 * `--report` takes an optional value: `--report` alone means the default path and `--report=PATH`
 * names one. parseArgs needs a value, so a bare `--report` becomes `--report=`.
 */
export function normaliseReportFlag(args: readonly string[]): string[] {
  return args.map((arg) => (arg === '--report' ? '--report=' : arg));
}

/** Loads the configuration and the corpus once and builds the checkers of this run. */
export async function prepareScholarly(values: ScholarlyValues, workspace: Workspace, context: CliContext): Promise<ScholarlyRun> {
  if (values.rlm === true && values['corpus-only'] === true) {
    throw new AiwgCiteError('USAGE', usageMessages.rlmWithCorpusOnly());
  }
  const config = loadRunConfig(workspace.root, context);
  const profile = parseChoice('check', 'profile', values.profile, PROFILES, 'recommended');
  const now = runDate(context);
  const runsScholarly = values.rlm !== true;
  // What reading the corpus noted (refused or named-outside paths, invalid YAML): coverage notes.
  const corpusNotes: string[] = [];
  const corpus = runsScholarly ? await loadRunCorpus(values, workspace, context, config, (note) => corpusNotes.push(note)) : null;
  return runOf(values, workspace, context, { config, profile, corpus, corpusNotes }, now);
}

/** What {@link prepareScholarly} reads once: the configuration, the profile, the corpus and what reading it noted. */
interface RunInputs {
  readonly config: AiwgCiteConfig;
  readonly profile: (typeof PROFILES)[number];
  readonly corpus: CorpusIndex | null;
  readonly corpusNotes: readonly string[];
}

/** The run of `inputs` as they were read, with state of its own, in the month `now`. */
function runOf(values: ScholarlyValues, workspace: Workspace, context: CliContext, inputs: RunInputs, now: RunDate): ScholarlyRun {
  const { config, profile, corpus, corpusNotes } = inputs;
  const checkers: DocumentChecker[] = [];
  if (values['corpus-only'] !== true) checkers.push(rlmChecker);
  let scholarly: ScholarlyChecker | null = null;
  // Every @-mention target the checks resolved, by `base` and path: what their findings read of the tree.
  const mentions = new Map<string, MentionResolution>();
  let resolveMention: MentionResolver | null = null;
  // Made again by `forgetMentions`: the resolvers keep what they found, and a watch's tree changes.
  let resolveOnDisk: MentionResolver | null = null;
  const newResolver = (index: CorpusIndex): MentionResolver =>
    withIgnoredPaths(
      createMentionResolver(workspace.root, context.env, new Set(index.sources.map((source) => source.path))),
      workspace,
      context.env,
    );
  if (corpus !== null) {
    // Each target resolved once per run (a kept answer's check asks first; git's check-ignore is a process).
    resolveMention = async (target) => {
      const key = `${target.base}\u0000${target.path}`;
      let resolution = mentions.get(key);
      if (resolution === undefined) {
        resolveOnDisk ??= newResolver(corpus);
        resolution = await resolveOnDisk(target);
        mentions.set(key, resolution);
      }
      return resolution;
    };
    scholarly = createScholarlyChecker({
      corpus,
      now: { year: now.year, month: now.month },
      resolveMention,
      doiPlaceholders: config.doi?.placeholders ?? [],
      requireCorpus: values['require-corpus'] === true,
      profile,
      ...(config.research === undefined ? {} : { researchPaths: ['.aiwg/research', ...config.research] }),
      ...(values['corpus-only'] === true ? { kinds: ['mention'] as const } : {}),
    });
    checkers.push(scholarly);
  }
  let copies: GeneratedCopies | null = null;
  // Whether the last filterDocuments left the content-identity rule to the pipeline's copies port.
  let identityInPipeline = false;
  const read = new Map<string, Uint8Array>();
  // Asked of git once per run, by the corpus stage or the run's state, whichever comes first.
  let unjudged: string[] | undefined;
  const unjudgedOnce = (index: CorpusIndex): string[] =>
    (unjudged ??= values['require-corpus'] === true ? [] : unjudgedRoots(workspace, index));
  return {
    checkers,
    mentionsResolved: () => [...mentions].map(([target, resolution]) => `${target}\u0000${resolution}`),
    forgetMentions() {
      mentions.clear();
      resolveOnDisk = null;
    },
    async resolveAsBefore(resolved) {
      for (const line of resolved) {
        const [base, path, resolution] = line.split('\u0000');
        if ((base !== 'root' && base !== 'aiwg-root') || path === undefined || resolveMention === null) return false;
        if ((await resolveMention({ base, path })) !== resolution) return false;
      }
      return true;
    },
    runState: () =>
      JSON.stringify({
        identityInPipeline,
        copies: copies === null ? null : { skipped: [...copies.skipped].sort(), identical: copies.identical, deployed: copies.deployed },
        corpusNotes,
        corpus:
          corpus === null
            ? null
            : {
                exists: corpus.exists,
                roots: corpus.roots.map((root) => [root.path, root.exists]),
                sources: corpus.sources.length,
                hasAuthors: corpus.hasAuthors,
                unjudged: unjudgedOnce(corpus),
              },
      }),
    cacheContext: () =>
      JSON.stringify({
        flags: {
          rlm: values.rlm === true,
          corpusOnly: values['corpus-only'] === true,
          requireCorpus: values['require-corpus'] === true,
          // The profile decides which heuristic findings a document keeps (all of them under `all`).
          profile,
        },
        config,
        month: [now.year, now.month],
        corpus: corpus === null ? null : corpus.input,
      }),
    changesEveryDocument: (path) =>
      path === CONFIG_FILE ||
      path === 'package.json' ||
      path === AIWG_LOCATION ||
      BIBLIOGRAPHY_NAME.test(path) ||
      (config.bibliography ?? []).some((named) => isUnder(path, named)) ||
      corpus?.roots.some((root) => isUnder(path, root.path)) === true ||
      isUnder(path, '.aiwg/research/quality-assessments'),
    settingsFolders: () =>
      foldersUnder(workspace.root, [
        ...(corpus?.roots.map((root) => root.path) ?? []),
        '.aiwg/research/quality-assessments',
        ...(config.bibliography ?? []).map((named) => parentFolder(named)),
      ]),
    settingsWatchable: () =>
      corpus === null ||
      (locateAiwgDir(workspace.root, context.env).path === `${workspace.root}/.aiwg` &&
        [...corpus.roots.map((root) => root.path), ...(config.bibliography ?? [])].every((path) => isInsideRoot(cleanBase(path)))),
    again: () => runOf(values, workspace, context, inputs, runDate(context)),
    uncacheableKinds: ['mention'],
    thread: {
      identityInPipeline: () => identityInPipeline,
      assumeIdentityInPipeline(value) {
        identityInPipeline = value;
      },
      held: () => (scholarly === null ? [] : [...scholarly.held]),
      adoptHeld(held) {
        scholarly?.adoptHeld(held);
      },
    },
    wrapReader: (reader) =>
      values.fix !== true
        ? reader
        : {
            async read(path) {
              const result = await reader.read(path);
              if (result.kind === 'file' && !read.has(path)) read.set(path, result.bytes);
              return result;
            },
          },
    withOptions: (options) => ({
      ...options,
      ...(config.strict === true || profile === 'strict' ? { strict: true } : {}),
      ...(config.rules === undefined ? {} : { severityOverrides: { ...config.rules, ...options.severityOverrides } }),
    }),
    filterDocuments: (documents, explicit, options = {}) => {
      identityInPipeline = false;
      if (explicit) return [...documents];
      const selected = filterByGlobs(documents, config.include, config.exclude);
      if (profile === 'all') return selected;
      if (options.identity === 'pipeline') {
        const deployed = deployedCopies(workspace.root, selected);
        copies = { skipped: deployed, identical: 0, deployed: deployed.size };
        identityInPipeline = true;
        return deployed.size === 0 ? selected : selected.filter((document) => !deployed.has(document));
      }
      copies = findGeneratedCopies(workspace.root, selected, options.stamps ?? null, options.known);
      const skipped = copies.skipped;
      return skipped.size === 0 ? selected : selected.filter((document) => !skipped.has(document));
    },
    copiesPort: (stamps) => ({
      bodyOf(file, bytes) {
        if (!identityInPipeline) return null;
        if (bytes === null) return stamps?.derived(file, BODY_STAMP, bodyDigest) ?? null;
        // The stamps hashed these bytes as the reader returned them: a body without front matter is not hashed again.
        return stamps === null ? bodyDigest(bytes) : stamps.deriveFrom(file, BODY_STAMP, bytes, (read) => bodyDigest(read, stamps.sha256));
      },
      leaveOut(bodies) {
        if (!identityInPipeline || copies === null) return new Set<string>();
        const identical = identicalCopies(bodies);
        copies = { skipped: new Set([...copies.skipped, ...identical]), identical: identical.size, deployed: copies.deployed };
        return identical;
      },
    }),
    countsOk: values.fix !== true && values.report === undefined,
    corpusStage: {
      run(findings, _documents, ok) {
        const added: Finding[] = [];
        const notes: string[] = [];
        let revised: Finding[] | undefined;
        if (corpus !== null) {
          let current = findings;
          const folded = foldUnjudgedRefs(findings, corpus, unjudgedOnce(corpus));
          if (folded !== null) {
            revised = folded.findings;
            current = revised;
            added.push(folded.note);
          }
          added.push(...runFindings(current, ok, corpus, values['require-corpus'] === true, notes));
        }
        notes.push(...passOverNotes(scholarly, copies));
        // What reading the corpus noted: refused or named-outside paths, files with invalid YAML.
        notes.push(...corpusNotes);
        if (corpus?.exists) {
          const roots = corpus.roots.filter((root) => root.exists).map((root) => root.path);
          notes.push(checkMessages.corpusSources(corpus.sources.length, roots));
        }
        if (corpus?.exists && !corpus.hasAuthors && values['corpus-only'] !== true) {
          notes.push(checkMessages.noCorpusAuthors());
        }
        return { ...(revised === undefined ? {} : { revised }), findings: added, notes };
      },
    },
    afterReport(report, documents) {
      if (values.fix === true) applyFixes(report, workspace.root, read, context.stderr);
      if (values.report !== undefined) {
        const aiwg = locateAiwgDir(workspace.root, context.env);
        if (values.report === '' && aiwg.refused !== null) {
          throw new AiwgCiteError('INPUT_OUTSIDE_ROOT', usageMessages.reportRefused(aiwg.refused));
        }
        const path = values.report === '' ? `${aiwg.path}/reports/citation-verification.md` : resolve(context.cwd, values.report);
        // A report directory (or file) that a symlink in the repository leads outside the root is refused.
        assertWriteConfined(workspace.root, path, 'report');
        mkdirSync(dirname(path), { recursive: true });
        writeFileAtomic(path, formatMarkdownReport(report, { documents, date: now.iso }));
      }
    },
  };
}

async function loadRunCorpus(
  values: ScholarlyValues,
  workspace: Workspace,
  context: CliContext,
  config: AiwgCiteConfig,
  onNote: (note: string) => void,
): Promise<CorpusIndex> {
  const dirs = values.corpus ?? config.corpus;
  const corpus = await loadCorpus({
    root: workspace.root,
    isGit: workspace.isGit,
    env: context.env,
    onNote,
    ...(dirs === undefined ? {} : { dirs: dirs.map((dir) => toRootPath(workspace.root, context.cwd, dir, values.corpus !== undefined)) }),
    ...(config.bibliography === undefined ? {} : { bibliography: config.bibliography }),
  });
  // A directory named on the command line must exist (a typo is bad input); configured and
  // default roots may be absent, as `.aiwg/` is in a fresh clone.
  if (values.corpus !== undefined) {
    corpus.roots.forEach((root, index) => {
      if (!root.exists) throw new AiwgCiteError('INPUT_UNREADABLE', inputMessages.corpusDirMissing(values.corpus?.[index] ?? root.path));
    });
  }
  return corpus;
}

/** The file that moves the `.aiwg` directory (`locateAiwgDir`). */
const AIWG_LOCATION = '.aiwg-location';

/** Whether a cleaned path (see `cleanBase`) names a folder or file below the root: relative, with no `..`. */
function isInsideRoot(path: string): boolean {
  return path !== '' && path !== '.' && !path.startsWith('/') && !/^[A-Za-z]:/.test(path) && !path.split('/').includes('..');
}

/** The names the bibliography discovery takes (`.bib`, CSL JSON). */
const BIBLIOGRAPHY_NAME = /\.(bib|csl\.json)$/i;

/** A root-relative path's folder (`''` for the root). */
function parentFolder(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

/**
 * Each of `bases` (root-relative; those outside the root are left out) and every folder below it,
 * as root-relative paths; a base not there yet by its nearest folder that is.
 */
function foldersUnder(root: string, bases: readonly string[]): string[] {
  const folders = new Set<string>();
  const walk = (folder: string): void => {
    if (folders.has(folder)) return;
    folders.add(folder);
    let entries: Dirent[];
    try {
      entries = readdirSync(folder === '' ? root : join(root, folder), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) if (entry.isDirectory()) walk(folder === '' ? entry.name : `${folder}/${entry.name}`);
  };
  for (const base of bases) {
    let folder = cleanBase(base);
    if (!isInsideRoot(folder)) continue;
    while (folder !== '' && !isDirectory(join(root, folder))) folder = parentFolder(folder);
    // The root itself is watched anyway; a corpus at the root is its tracked folders, watched too.
    if (folder !== '') walk(folder);
  }
  return [...folders];
}

/** A configured folder without its leading `./` and trailing `/` (`./docs/refs/` is `docs/refs`). */
function cleanBase(base: string): string {
  return base.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
}

/** Whether a root-relative path is `base` or lies under it (`.`, or a base named as `./dir/`, included). */
function isUnder(path: string, base: string): boolean {
  const clean = cleanBase(base);
  return clean === '' || clean === '.' || path === clean || path.startsWith(`${clean}/`);
}

/** `--corpus` paths are relative to the working directory; configured ones to the root. */
function toRootPath(root: string, cwd: string, dir: string, fromFlag: boolean): string {
  if (!fromFlag || dir.startsWith('.aiwg/') || dir === '.aiwg') return dir;
  const absolute = toPosix(resolve(cwd, dir));
  return absolute === root ? '.' : absolute.startsWith(`${root}/`) ? absolute.slice(root.length + 1) : absolute;
}

/**
 * The one `corpus/absent` warning (SPEC §3.1), when no corpus root exists and REF ids were cited;
 * ids, DOIs and author-years alone leave a coverage note instead, since without a corpus nothing
 * says they should be in one.
 */
function runFindings(
  findings: readonly Finding[],
  ok: ReadonlyMap<string, number>,
  corpus: CorpusIndex,
  requireCorpus: boolean,
  notes: string[],
): Finding[] {
  if (corpus.exists) return [];
  // In report order, so the run-level finding sits at the first citation it stands for.
  const needing = findings.filter((finding) => finding.rule === 'ref/not-in-corpus').sort(compareFindings);
  if (needing.length === 0) {
    // No code citation is checked for its form alone: the kind first, which is `rlm` for most.
    const formOnly = (finding: Pick<Finding, 'kind' | 'rule'>) =>
      finding.kind !== 'rlm' && (finding.kind === 'author-year' || finding.rule.endsWith('/unverified'));
    if (findings.some(formOnly) || [...ok.keys()].some((key) => formOnly(fromOkKey(key))))
      notes.push(checkMessages.noCorpusFormOnly(corpus.roots.map((root) => root.path)));
    return [];
  }
  const ids = [...new Set(needing.map((finding) => finding.text))];
  return [
    corpusAbsent(
      needing[0] as Finding,
      `${scholarlyMessages.corpusAbsent(corpus.roots.map((root) => root.path))}: ${checkMessages.citedIds(ids, needing.length)}`,
      scholarlyMessages.corpusAbsentFix(),
      requireCorpus ? 'error' : SCHOLARLY_RULES['corpus/absent'].severity,
    ),
  ];
}

/** The one `corpus/absent` finding of a run, placed at the first citation it speaks for. */
function corpusAbsent(first: Finding, message: string, fix: string, severity: Finding['severity']): Finding {
  const { file, line, column, text } = first;
  return { file, line, column, kind: 'corpus', text, status: 'absent', severity, rule: 'corpus/absent', message, fix };
}

/**
 * Corpus roots that git ignores: present on the author's disk, absent from every clone. An id
 * missing from the tracked roots may be held there, so this checkout cannot judge it.
 */
function unjudgedRoots(workspace: Workspace, corpus: CorpusIndex): string[] {
  if (!workspace.isGit || !corpus.exists) return [];
  const candidates = corpus.roots.filter((root) => !root.exists && !root.path.startsWith('/')).map((root) => root.path);
  if (candidates.length === 0) return [];
  const out = runGit(workspace.root, ['check-ignore', '--no-index', '--', ...candidates]);
  return out === null ? [] : out.split('\n').filter((line) => line !== '');
}

/**
 * With a git-ignored corpus root, `ref/missing` becomes info and one `corpus/absent` warning says
 * which ids this checkout cannot judge, instead of one error per citation.
 */
function foldUnjudgedRefs(
  findings: readonly Finding[],
  corpus: CorpusIndex,
  ignored: readonly string[],
): { findings: Finding[]; note: Finding } | null {
  if (ignored.length === 0) return null;
  // In report order, so the run-level finding sits at the first citation it stands for.
  const missing = findings.filter((finding) => finding.rule === 'ref/not-in-corpus' && finding.severity !== 'info').sort(compareFindings);
  if (missing.length === 0) return null;
  const ids = [...new Set(missing.map((finding) => finding.text))];
  const roots = corpus.roots
    .filter((root) => root.exists && !ignored.includes(root.path))
    .map((root) => root.path)
    .join(', ');
  const note = corpusAbsent(
    missing[0] as Finding,
    checkMessages.untrackedCorpus(checkMessages.citedIds(ids, missing.length), roots, ignored),
    checkMessages.untrackedCorpusFix(),
    SCHOLARLY_RULES['corpus/absent'].severity,
  );
  const folded = new Set(missing);
  const softened = findings.map((finding) => (folded.has(finding) ? { ...finding, severity: 'info' as const } : finding));
  return { findings: softened, note };
}

/** Coverage notes for what the run passed over on purpose, so silence never reads as a pass. */
function passOverNotes(scholarly: ScholarlyChecker | null, copies: GeneratedCopies | null): string[] {
  const notes: string[] = [];
  if (scholarly !== null) {
    // Generated copies the pipeline checked and then left out hold nothing back in this report.
    let findings = 0;
    let documents = 0;
    for (const [file, count] of scholarly.held) {
      if (copies?.skipped.has(file) === true) continue;
      findings += count;
      documents += 1;
    }
    if (findings > 0) notes.push(heldNote(findings, documents));
  }
  if (copies !== null && copies.identical > 0) {
    notes.push(checkMessages.identicalCopies(copies.identical));
  }
  if (copies !== null && copies.deployed > 0) {
    notes.push(checkMessages.deployedCopies(copies.deployed));
  }
  return notes;
}

/**
 * `--fix`: plans byte-range edits per file from its findings and writes each file atomically,
 * only if it still holds the bytes that were checked.
 */
function applyFixes(report: Report, root: string, checked: ReadonlyMap<string, Uint8Array>, stderr: CliContext['stderr']): void {
  const byFile = new Map<string, Finding[]>();
  for (const finding of report.citations) {
    const list = byFile.get(finding.file);
    if (list === undefined) byFile.set(finding.file, [finding]);
    else list.push(finding);
  }
  const out: string[] = [];
  let total = 0;
  let files = 0;
  for (const [file, findings] of [...byFile].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (!findings.some(isFixableFinding)) continue;
    const path = `${root}/${file}`;
    // The bytes the check read: a file changed on disk since then is not written (WRITE_CONFLICT).
    const bytes = checked.get(file) ?? readRegularFile(path);
    // UTF-16 with a byte-order mark is edited in its own encoding; anything else as UTF-8, the
    // writer keeping lines that are not UTF-8 byte for byte.
    const editable = editableText(bytes);
    const plan = planFixes(editable?.text ?? new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes), findings);
    if (plan.fixes.length === 0) continue;
    writeFileAtomic(path, editable === null ? plan.text : editable.encode(plan.text), bytes, file);
    files += 1;
    total += plan.fixes.length;
    for (const fix of plan.fixes) out.push(checkMessages.fixed(file, fix.line, fix.column, fix.rule, fix.description));
  }
  const unfixable = report.citations.filter(
    (finding) => (finding.severity === 'error' || finding.severity === 'warning') && !isFixableFinding(finding),
  ).length;
  if (unfixable > 0) out.push(checkMessages.fixNeedsPerson(unfixable));
  out.push(total === 0 ? checkMessages.fixNothing() : checkMessages.fixChanges(total, files));
  stderr.write(`${out.join('\n')}\n`);
}

/** A missing mention of a path git ignores is `ignored`: absent from every clone, so not judged. */
function withIgnoredPaths(resolve: MentionResolver, workspace: Workspace, env: CliContext['env']): MentionResolver {
  if (!workspace.isGit) return resolve;
  // The files a sparse checkout left off the disk (empty otherwise): tracked, so they exist.
  let offDisk: Promise<ReadonlyMap<string, string>> | undefined;
  return async (target) => {
    const found = await resolve(target);
    if (found !== 'missing' || target.base !== 'root') return found;
    offDisk ??= import('@aiwg-cite/git').then((git) => git.skipWorktreeBlobs(workspace.root, { env: { ...env } }));
    if ((await offDisk).has(target.path)) return 'file';
    return runGit(workspace.root, ['check-ignore', '--no-index', '-q', '--', target.path]) === null ? found : 'ignored';
  };
}

/**
 * The note of heuristic findings held back outside research writing. `merge` adds up the counts of
 * its shards, so the wording is shared through this one function and {@link HELD_NOTE}.
 */
export function heldNote(findings: number, documents: number): string {
  return checkMessages.held(findings, documents);
}

/** Reads a {@link heldNote} back: its two counts. */
export const HELD_NOTE = /^(\d+) heuristic findings? in (\d+) documents? that are not research writing not shown /;
