import { formatCount } from './count-format.ts';

/** The sentences of a check a running watch answers live beside the small client that prints them. */
export { watchServeMessages } from './watch-messages.ts';

/**
 * The CLI's own sentences (STYLE §3, "Messages live in one place"): plain text, the offending
 * value in backticks, "did you mean" for near matches. Commands add only colour and layout.
 */
export const cliMessages = {
  unknownCommand: (name: string, hint: string) => `unknown command \`${name}\`${hint}; run \`aiwg-cite --help\``,
  configNeedsPath: () => '--config takes a path to a configuration file, such as `--config ci/aiwg-cite.json`',
  rulesTakesNoArguments: () => 'rules: takes no arguments; run `aiwg-cite explain RULE` for one rule',
  explainTakesOneRule: () => 'explain: takes exactly one rule id, such as `rlm/stale`; run `aiwg-cite rules` for the list',
  unknownRule: (name: string, suggestion: string | null) =>
    `explain: unknown rule \`${name}\`${suggestion === null ? '' : `; did you mean \`${suggestion}\`?`} (run \`aiwg-cite rules\` for the list)`,
  internalError: (detail: string) => `internal error: ${detail}`,
  /** The title of an online resolver's progress task that had nothing to look up. */
  nothingToResolve: (name: string) => `${name}: nothing to resolve`,
  /** The programmatic API's error when `check` wrote nothing to say why. */
  checkExited: (code: number) => `check exited ${code}`,
  /** `" (did you mean \`x\`?)"`, appended to an unknown name. */
  didYouMean: (match: string) => ` (did you mean \`${match}\`?)`,
  deprecatedRule: (name: string, note: string) => `aiwg-cite: \`${name}\` is deprecated: ${note}`,
  /** The headings of a rule's examples, in `explain` and in SARIF's `help`. */
  raisesIt: () => 'Raises it:',
  passes: () => 'Passes:',
  example: () => 'Example:',
  okSeverity: () => ' (a citation that checked out)',
  fixableYes: () => 'yes (check --fix)',
  needsNothing: () => 'nothing',
  refines: (parent: string) => ` (a sub-case of ${parent})`,
  /** Where `explain` sends the reader: the published URL, or the README anchor when package.json names none. */
  ruleDocs: (url: string | null, anchor: string) =>
    url === null ? `Docs: the rule table of the aiwg-cite repository's README, at #${anchor}` : `Docs: ${url}`,
} as const;

/** `1 file`, `2 files`, with the number as the report prints it (`1,234`). */
function counted(value: number, one: string, many: string): string {
  return `${formatCount(value)} ${value === 1 ? one : many}`;
}

/** The sentences of the human report (format/pretty.ts); it adds only colour and layout. */
export const prettyMessages = {
  groupHeader: (findings: number) => `${findings} findings, the first:`,
  alsoAt: () => 'also at:',
  andMore: (more: number) => `and ${formatCount(more)} more (--verbose lists them)`,
  infosListedWithVerbose: () => ' (--verbose lists them)',
  checked: (files: number, kinds: string) => `Checked ${files} ${files === 1 ? 'file' : 'files'}: ${kinds === '' ? 'no citations' : kinds}`,
  rlmExplained: () => 'rlm = code citations pinned to a file, lines and a content hash',
  skippedInCode: (skipped: number) => `${skipped} in code skipped (--include-code checks them)`,
  suppressed: (suppressed: number) => `${suppressed} suppressed by aiwg-cite-disable-next-line`,
  someNotChecked: () => 'some not checked',
  infos: (infos: number) => counted(infos, 'info', 'infos'),
  seeVerbose: (extra: readonly string[]) => (extra.length === 0 ? '' : `; ${extra.join(', ')} (--verbose)`),
  /** The one line of a passing run: `PASS (0 errors, 0 warnings)` is coloured by the caller. */
  passCounts: (errors: number, warnings: number) => `PASS (${errors} errors, ${warnings} warnings)`,
  /** The last line of `--format github`. */
  githubSummary: (verdict: string, errors: number, warnings: number, files: number) =>
    `aiwg-cite: ${verdict} (${errors} errors, ${warnings} warnings in ${files} files)`,
  passScope: (files: number, citations: number) =>
    `${files} ${files === 1 ? 'file' : 'files'}, ${counted(citations, 'citation', 'citations')}`,
  verdict: (pass: boolean, errors: number, warnings: number) =>
    `${pass ? 'PASS' : 'FAIL'} (${errors} ${errors === 1 ? 'error' : 'errors'}, ${warnings} ${warnings === 1 ? 'warning' : 'warnings'})`,
} as const;

/** Usage errors of the commands' arguments; each names the command and, where it helps, the next step. */
export const usageMessages = {
  badArguments: (command: string, problem: string, hint: string) => `${command}: ${problem}${hint}; run \`aiwg-cite ${command} --help\``,
  notWholeNumber: (command: string, flag: string, value: string) => `${command}: --${flag} takes a whole number, not \`${value}\``,
  notAChoice: (command: string, flag: string, choices: readonly string[], value: string) =>
    `${command}: --${flag} must be one of ${choices.join(', ')}, not \`${value}\``,
  badDate: (value: string) => `AIWG_CITE_DATE: expected YYYY-MM-DD, not \`${value}\``,
  badThreads: (value: string) => `AIWG_CITE_THREADS: expected 1, 2 or auto, not \`${value}\``,
  badGitView: (value: string) => `AIWG_CITE_GIT_VIEW: expected off, on or auto, not \`${value}\``,
  /** `refs` reads AIWG_CITE_DATE as any date JavaScript parses, not only YYYY-MM-DD. */
  notADate: (value: string) => `AIWG_CITE_DATE: \`${value}\` is not a date`,
  rlmWithCorpusOnly: () => 'check: --rlm and --corpus-only exclude each other; run `aiwg-cite check --help`',
  reportRefused: (refused: string) => `--report: ${refused}; name a report file with --report=PATH`,
  certifyOneFile: () => 'certify: name exactly one markdown file; run `aiwg-cite certify --help`',
  noCacheNeedsOnline: () => 'certify: --no-cache only applies with --online',
  watchCorpusNeedsScholarly: () => 'watch: --corpus applies only with --scholarly; run `aiwg-cite watch --help`',
  blameLineZero: () => 'blame: --line counts from 1, not `0`',
  /** The problems below go to {@link usageMessages.badArguments}, which names the command and its --help. */
  aggregateOneFile: () => 'takes exactly one JSON file (or - for stdin)',
  annotateFiles: () => 'takes one markdown file, and optionally the verdicts file in place of --verdicts',
  noFindingsNeedsVerdicts: () => '--no-findings needs --verdicts',
  stdinOnlyWithoutFindings: () => 'standard input (-) works only with --no-findings and without --write',
  chunkOneFile: () => 'takes exactly one markdown file',
  maxTokensAtLeastOne: () => '--max-tokens must be at least 1',
  mergeNeedsReports: () => 'name the shard reports to merge',
  mergeMixedKinds: () => 'mix of SARIF and JSON reports; merge one kind at a time',
  mergeSarifOnly: () => 'SARIF inputs merge into SARIF only',
  reverseOnlyAlone: () => 'check: --reverse-only goes with --staged and no paths (it checks committed documents, not named ones)',
  shardWithStaged: () => 'check: --shard splits a full run across machines; it does not combine with --staged',
  fixWithStaged: () => 'check: --fix edits the work tree, not the index, so it does not combine with --staged; fix, then `git add`',
  gitMissing: (cwd: string, what: string) => `${cwd}: ${what} needs git, which is not installed or not on PATH`,
  changedNeedsGit: (cwd: string) => `${cwd}: --changed and --since need a git repository (not inside a git work tree)`,
  changedNeedsTopLevel: (top: string | null) =>
    `check: --changed compares the whole repository, so --root must be the repository top level (${top})`,
  changedWithPaths: () => 'check: --changed and --since choose the documents themselves; name no paths with them',
  changedWithStaged: () => 'check: --staged checks the index; --changed and --since check the working tree; use one',
  stagedNeedsTopLevel: (top: string | null) => `check: --staged reads the whole index, so --root must be the repository top level (${top})`,
  onlineAndOffline: () => 'check: --online and --offline contradict each other',
  onlineWithStaged: () => 'check: --online is not available with --staged; the commit hook stays offline',
  refsNeedsFiles: () => 'refs: name at least one .bib or markdown file; run `aiwg-cite refs --help`',
  refsFixNeedsOnline: () => 'refs: --fix needs --online (corrections come from the services)',
  shardsOverlap: (uri: string, owner: string, name: string) =>
    `merge: ${uri} has results in both ${owner} and ${name}; merge the shards of one \`--shard i/n\` split, each once`,
  initArgument: (argument: string) => `init: unexpected argument \`${argument}\`; run \`aiwg-cite init --help\``,
  initWith: (value: string) => `init: --with takes \`husky\`, not \`${value}\``,
  initHuskyNeedsPackage: () => 'init: --with husky needs a package.json (husky is an npm package); run `npm init -y` first',
} as const;

/** Problems of files a command reads; the caller puts nothing in front (each names its file). */
export const inputMessages = {
  noStdin: () => '-: no standard input to read',
  cannotRead: (path: string, reason: string) => `${path}: cannot read (${reason})`,
  notUtf8: (path: string) => `${path}: not valid UTF-8`,
  notJson: (path: string, reason: string) => `${path}: not valid JSON (${reason})`,
  notJsonObject: (path: string) => `${path}: not a JSON object`,
  /** The reason for {@link inputMessages.notJson} from a JSONC parse error. */
  jsonParseError: (code: string, offset: number) => `${code} at offset ${offset}`,
  noSuchFile: () => 'no such file',
  isDirectory: () => 'is a directory',
  corpusDirMissing: (path: string) => `${path}: the corpus directory does not exist`,
  symlinkOutsideNotRead: (path: string, real: string) => `${path}: a symlink leads it outside the root (to ${real}); not read`,
  stateFileUnreadable: (path: string, reason: string) => `${path}: cannot read the state file (${reason})`,
  stateFileNotJson: (path: string) => `${path}: the state file is not JSON; delete it to start over`,
  notStateFile: (path: string) => `${path}: not a certify state file (version 1 with items); delete it to start over`,
  notJsonReport: (name: string) => `${name}: not an aiwg-cite JSON report (\`check --format json\`, version 1)`,
  notSarifLog: (name: string) => `${name}: not an aiwg-cite SARIF log (one run with results)`,
  sourcesNotDirectory: (label: string) => `${label}: --sources must name a directory of source texts`,
  notARepositoryForInit: (cwd: string) => `${cwd}: init needs a git repository (run \`git init\` first)`,
  cannotMakeDirectory: (reason: string) => `cannot make its directory (${reason})`,
  hooksNotObject: (file: string, key: string) => `${file}: "${key}" is not an object`,
  hooksPathOutside: (hooksPath: string) =>
    `core.hooksPath ${hooksPath} lies outside the repository; add the hook there by hand (see hooks/pre-commit)`,
  lintStagedNotObject: (file: string) => `${file}: the lint-staged configuration is not an object`,
  lintStagedEntry: (file: string, command: string) =>
    `${file}: the lint-staged "*.md" entry is neither a command nor a list of commands; add "${command}" by hand`,
} as const;

/** `1 verdict`, `2 verdicts`: a count and its noun, as the commands' summaries print them. */
function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** The notes and summaries `check` adds to its report for the corpus, copies and `--fix`. */
export const checkMessages = {
  noGit: () =>
    'git is not installed or not on PATH: checked as a plain directory (.gitignore not applied, no git history for stale hashes)',
  changedScope: (since: string, changed: number, citing: number) =>
    `--changed: ${plural(changed, 'markdown document', 'markdown documents')} changed since ${since}, ${plural(citing, 'more document cites', 'more documents cite')} a changed file`,
  changedNoGitDir: (root: string) =>
    `${root}: git does not name the repository's git directory (\`git rev-parse --absolute-git-dir\` failed)`,
  changedNoCommit: () => '--changed: HEAD has no commit yet, so every document is new: every document checked',
  changedEverywhere: (path: string, since: string) =>
    `--changed: \`${path}\` changed since ${since} and can change any document's findings: every document checked`,
  corpusSources: (sources: number, roots: readonly string[]) => `corpus: ${plural(sources, 'source', 'sources')} in ${roots.join(', ')}`,
  noCorpusAuthors: () => 'author-year: no corpus entry lists authors, so only implausible years were checked',
  noCorpusFormOnly: (roots: readonly string[]) =>
    `no research corpus (looked in ${roots.join(', ')}): DOIs, arXiv ids and author-years were checked for form only`,
  /** `12 citations of 5 REF ids (REF-001, REF-002, REF-003 and 2 more)`. */
  citedIds: (ids: readonly string[], citations: number) => {
    const shown = ids.slice(0, 3).join(', ');
    const more = ids.length > 3 ? ` and ${ids.length - 3} more` : '';
    return `${plural(citations, 'citation', 'citations')} of ${ids.length} REF ${ids.length === 1 ? 'id' : 'ids'} (${shown}${more})`;
  },
  untrackedCorpus: (cited: string, roots: string, ignored: readonly string[]) =>
    `${cited} are in no tracked corpus root (${roots}); git ignores ${ignored.join(', ')}, so they may be held there and this checkout cannot judge them (listed as info)`,
  untrackedCorpusFix: () =>
    'commit the corpus, or name the tracked roots with `corpus` in aiwg-cite.config.json; --require-corpus keeps each as an error',
  identicalCopies: (count: number) => `${count} identical copies of other documents skipped (checked once, at the first)`,
  deployedCopies: (count: number) =>
    `${count} files a tool deployed into agent folders skipped (a manifest beside them lists them; check them at their source, or --profile all)`,
  /** `merge` reads this back with HELD_NOTE (commands/check-scholarly.ts): change both together. */
  held: (findings: number, documents: number) =>
    `${plural(findings, 'heuristic finding', 'heuristic findings')} in ${plural(documents, 'document', 'documents')} that are not research writing not shown (--profile research shows them)`,
  fixed: (file: string, line: number, column: number, rule: string, description: string) =>
    `fixed ${file}:${line}:${column}  ${rule}  ${description}`,
  fixNeedsPerson: (unfixable: number) =>
    `fix: ${unfixable} ${unfixable === 1 ? 'finding needs' : 'findings need'} a person: each has a suggestion (fix:) in the report; --fix never deletes or rewords`,
  fixNothing: () => 'fix: nothing to change',
  fixChanges: (total: number, files: number) =>
    `fix: ${plural(total, 'change', 'changes')} in ${plural(files, 'file', 'files')}; the report above shows the findings before the fix`,
} as const;

/** What `aggregate` says on stderr about the candidates it dropped and the quotes it checked. */
export const aggregateMessages = {
  dropped: (count: number) => `aiwg-cite: aggregate: dropped ${count} invalid ${count === 1 ? 'candidate' : 'candidates'}`,
  downgraded: (count: number) =>
    `aiwg-cite: aggregate: ${plural(count, 'verdict', 'verdicts')} downgraded to unknown by the verbatim-quote check`,
  quotesUnchecked: (count: number) =>
    `aiwg-cite: aggregate: ${plural(count, 'verdict', 'verdicts')} with quotes left unchecked (no source text; pass --sources DIR)`,
} as const;

/** What `annotate --write` says it did. */
export const annotateMessages = {
  written: (file: string, marks: number, badges: number, skipped: number, replacedReport: boolean) =>
    `${file}: ${plural(marks, 'mark', 'marks')}, ${plural(badges, 'badge', 'badges')}${
      skipped > 0 ? `, ${skipped} without a badge (code, quote or HTML)` : ''
    }; audit report ${replacedReport ? 'updated' : 'appended'}`,
  unchanged: (file: string) => `${file}: already annotated; nothing changed`,
} as const;

/** The summary lines of `certify`; the caller colours the status. */
export const certifyMessages = {
  counts: (footnotes: number, checked: number, skipped: number, notCounted: number) =>
    `${footnotes} footnotes: ${checked} checked, ${skipped} skipped, ${notCounted} not counted`,
  rate: (confirmed: number, verifiable: number, percent: string | null) =>
    percent === null ? '0/0' : `${confirmed}/${verifiable} (${percent}%)`,
  written: (rate: string, path: string) => `${rate} confirmed; certificate written to ${path}`,
  /** Why a HARD_FAIL failed, when the rate alone does not say it. */
  failedBecause: (gate: { fabricated: number; structuralErrors: number; nothingVerified: boolean }, offlineErrors: number) => {
    const why = [
      ...(gate.fabricated > 0 ? [`${gate.fabricated} likely fabricated ${gate.fabricated === 1 ? 'footnote' : 'footnotes'}`] : []),
      ...(gate.structuralErrors > 0
        ? [
            `${gate.structuralErrors} structural ${gate.structuralErrors === 1 ? 'error' : 'errors'} above (each fails the gate, tagged or not)`,
          ]
        : []),
      ...(gate.nothingVerified ? ['no footnote carries a VERIFIED or INFERRED tag, so nothing was verified'] : []),
    ];
    const offline =
      offlineErrors > 0
        ? ` (offline: ${offlineErrors} URL, DOI or arXiv ${offlineErrors === 1 ? 'footnote was' : 'footnotes were'} not fetched and ${offlineErrors === 1 ? 'counts' : 'count'} as ERROR; run with --online)`
        : '';
    return why.length === 0 ? `under 85% of the verifiable footnotes confirmed${offline}` : `hard fail: ${why.join('; ')}`;
  },
} as const;

/** The sentences of the `refs` report (format/refs.ts); it adds only colour and layout. */
export const refsReportMessages = {
  hallucinated: () => '✗ hallucinated',
  uncertain: () => '? uncertain',
  validWithWarnings: () => '⚠ valid, with warnings',
  closestRecord: (record: string) => `  closest record: ${record}`,
  agreeing: (services: readonly string[]) => `agreeing services: ${services.join(', ')}`,
  correctedEntry: () => '  corrected entry:',
  entries: (count: number) => `${count} ${count === 1 ? 'entry' : 'entries'}`,
  valid: (count: number) => `${count} valid`,
  hallucinatedCount: (count: number) => `${count} hallucinated`,
  uncertainCount: (count: number) => `${count} uncertain`,
  strictUncertainFails: () => ' (--strict: uncertain fails)',
  unlisted: (count: number) =>
    `${count} uncertain ${count === 1 ? 'entry' : 'entries'} not listed: offline, nothing could be checked for ${count === 1 ? 'it' : 'them'} (--verbose lists them)`,
} as const;

/** What `refs` says on stderr, and its coverage note offline. */
export const refsMessages = {
  /** Also the online checks' warnings in `check --online`. */
  warning: (message: string) => `aiwg-cite: warning: ${message}`,
  noServiceAnswered: (uncertain: number, entries: number) =>
    `aiwg-cite: refs: no scholarly service answered; ${uncertain} of ${entries} entries are uncertain`,
  offline: () => 'offline: only future years and placeholder authors were checked; run with --online to compare with the scholarly record',
  notLookedUp: () => 'not looked up: offline, only future years and placeholder authors are checked',
  corrected: (entries: readonly string[]) => `aiwg-cite: refs: corrected ${entries.join(', ')}`,
} as const;

/** What `check` says beside its report: the result cache and the online reference lists. */
export const runMessages = {
  cacheDirEscapes: (directory: string) =>
    `aiwg-cite: ${directory}: the result cache directory leads outside the root through a symlink; not used`,
  cacheStats: (hits: number, misses: number) => `result cache: ${hits} from the cache, ${misses} checked`,
  answerStats: (documents: number) => `result cache: the last run's answer, its ${documents} documents unchanged`,
  spliceStats: (checked: number) => `result cache: the last run's answer, built again with ${checked} documents checked`,
  stampStats: (known: number) => `file stamps: ${known} files known unread`,
  viewStats: (documents: number) => `git's index: the tree of the last run's answer, its ${documents} documents listed by git`,
  helperStats: (documents: number) => `helper thread: ${documents} documents`,
  referenceLists: (note: string) => `reference lists: ${note}`,
} as const;

/** What `init` reports: the setup it found, each change, and the notes of what is left to do. */
export const initMessages = {
  setup: (kind: 'husky' | 'pre-commit' | 'husky 4' | 'lefthook' | 'simple-git-hooks' | 'git', withLintStaged: boolean, root: string) =>
    `aiwg-cite init: ${kind === 'pre-commit' ? 'the pre-commit framework' : kind === 'git' ? 'plain git hook' : kind}${withLintStaged ? ' + lint-staged' : ''} in ${root}`,
  unchanged: (path: string, summary: string) => `  unchanged  ${path} (${summary})`,
  wouldChange: (isNew: boolean, path: string, summary: string) => `  would ${isNew ? 'create' : 'update'} ${path} (${summary})`,
  changed: (isNew: boolean, path: string, summary: string) => `  ${isNew ? 'created' : 'updated'}    ${path} (${summary})`,
  madeExecutable: (path: string) => `  chmod +x   ${path} (git skips hooks that are not executable)`,
  note: (note: string) => `  note: ${note}`,
  dryRun: () => '  (dry run: nothing was written)',
  installHusky: () => 'run `npm install` to install husky and activate .husky/ (its "prepare" script runs `husky`), then commit both',
  huskyInactive: (prepareRunsHusky: boolean) =>
    prepareRunsHusky
      ? 'husky is not active yet: run `npm install` (its "prepare" script runs `husky`) or `npx husky`'
      : 'husky is not active yet: run `npx husky` (or add `"prepare": "husky"` and `npm install`)',
  hookLocal: (hookPath: string) =>
    `${hookPath} is local to this clone: teammates get no hook. To share it through the repository, run \`aiwg-cite init --with husky\``,
  lintStagedElsewhere: (file: string, command: string) => `lint-staged is configured in ${file}; add "*.md": "${command}" there by hand`,
  lintStagedWithoutHusky: () =>
    'lint-staged runs from a husky hook: without husky the plain hook checks the whole commit and lint-staged is left as it is',
  hookWithLintStaged: () => 'husky pre-commit: lint-staged, then `aiwg-cite check --staged --reverse-only`',
  huskyHook: () => 'husky v9 pre-commit: run `aiwg-cite check --staged`',
  gitHook: () => 'git pre-commit: run `aiwg-cite check --staged`',
  lintStagedEntry: (command: string) => `lint-staged: "*.md": "${command}"`,
  huskyPackage: () => 'husky: devDependency and "prepare": "husky"',
  preCommitHook: (id: string) => `a \`repo: local\` hook \`${id}\`: \`aiwg-cite check --staged\` on every commit`,
  lefthookByHand: (file: string, command: string) =>
    `lefthook writes .git/hooks here, and its next install would drop a block init wrote there: add to ${file} \`pre-commit: commands: aiwg-cite: run: ${command}\` (README, "Other hook managers"), then run \`npx lefthook install\``,
  simpleGitHooksInstall: () => 'run `npx simple-git-hooks` to write the changed pre-commit command into .git/hooks',
  simpleGitHooksByHand: (file: string, command: string) =>
    `simple-git-hooks is configured in ${file}: add \`${command}\` to its pre-commit command by hand, then run \`npx simple-git-hooks\``,
  packageHookEntry: (key: string, command: string) => `${key}: pre-commit runs \`${command}\``,
  preCommitInstall: () => 'run `pre-commit install` to activate the hooks of the pre-commit framework in this clone',
  preCommitByHand: (file: string, id: string) =>
    `${file} has no block list under a top-level \`repos:\` to add to; add a \`repo: local\` hook \`${id}\` by hand (README, "The pre-commit framework")`,
} as const;
