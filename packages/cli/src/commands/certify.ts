import { mkdirSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import {
  AiwgCiteError,
  ArtifactCache,
  type CertificateItem,
  type ClassifiedFootnote,
  type CorpusIndex,
  certificateReasons,
  classifyFootnotes,
  type DocumentChecker,
  decideGate,
  decodeDocument,
  escapeControls,
  type Finding,
  gateContextOf,
  type ItemOutcome,
  matchInCorpus,
  parseFootnotes,
  renderCertificate,
  scanMarkdown,
  type UncheckedFootnote,
} from '@aiwg-cite/core';
import {
  assertWriteConfined,
  confineExplicitFile,
  createNodeReader,
  loadCorpus,
  nodeSha256,
  readRegularFile,
  resolveWorkspace,
  toPosix,
  writeFileAtomic,
} from '@aiwg-cite/node';
import packageJson from '../../package.json' with { type: 'json' };
import { parseCommandArgs } from '../args.ts';
import { paletteFor } from '../color.ts';
import { type CliContext, type Command, loadRunConfig, runNow } from '../context.ts';
import { formatFinding } from '../format/pretty.ts';
import { certifyMessages, inputMessages, usageMessages } from '../messages.ts';
import { openCliOnlineSession } from './check-online.ts';

const HELP = `Usage: aiwg-cite certify FILE.md [options]

Checks every footnote of a memo by its verification tag and writes a certificate
(SPEC §7). [VERIFIED: …] and [INFERRED: …] footnotes are checked: U.S.C. and C.F.R. citations
by structure, URLs and DOIs/arXiv ids online (with --online), REF ids, author-year citations
and quoted titles against the research corpus and bibliographies; the rest need a search
provider (none configured: UNCONFIRMED, needs-search). [ASSUMED: …] and [METHODOLOGY: …]
are skipped and counted; untagged ones are reported.

Options:
  --root DIR           project root (default: the git top level, else the current directory)
  --online             fetch URLs and resolve DOIs and arXiv ids (otherwise they count as ERROR)
  --no-cache           with --online: neither read nor write the online cache
  --state FILE         record progress in FILE; a rerun reuses final outcomes of unchanged
                       footnotes and re-checks ERROR ones, so it repeats no request
  --output FILE        where to write the certificate
                       (default: qa-outputs/citation-verification-certificate.md under the root)
  --strict             PASS_WITH_EXCEPTIONS exits 1
  --bare-numerals      count bare numerals after punctuation (recovery.6) as footnote markers
  -h, --help           show this help

Status: PASS (>= 95% confirmed), PASS_WITH_EXCEPTIONS (>= 85%), HARD_FAIL (below, any
likely-fabricated footnote, any structural error such as a statute that cannot exist, tagged or
not, or untagged footnotes and none verified). Exit codes: 0 PASS or PASS_WITH_EXCEPTIONS,
1 HARD_FAIL, 2 usage or tool error.
`;

/** The default certificate path under the root (SPEC §7.3). */
export const CERTIFICATE_PATH = 'qa-outputs/citation-verification-certificate.md';

/** One item of the state file. */
interface StateItem {
  readonly text_sha256: string;
  readonly outcome: ItemOutcome;
  readonly reason: string;
  readonly source?: string;
  readonly checked_at: string;
}

/** The state file (SPEC §7.3). */
interface CertifyState {
  version: 1;
  document: string;
  document_sha256: string;
  status: 'initialized' | 'in_progress' | 'complete' | 'blocked';
  items: Record<string, StateItem>;
  metrics: { verifiable: number; confirmed: number; checked: number; reused: number };
  errors: string[];
}

/** `aiwg-cite certify`. */
export const certify: Command = {
  summary: 'verify every tagged footnote of a memo and write a citation verification certificate',
  async run(args: readonly string[], context: CliContext): Promise<number> {
    const { values, positionals } = parseCommandArgs('certify', args, {
      root: { type: 'string' },
      online: { type: 'boolean' },
      'no-cache': { type: 'boolean' },
      state: { type: 'string' },
      output: { type: 'string' },
      strict: { type: 'boolean' },
      'bare-numerals': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help === true) {
      context.stdout.write(HELP);
      return 0;
    }
    if (positionals.length !== 1) throw new AiwgCiteError('USAGE', usageMessages.certifyOneFile());
    if (values['no-cache'] === true && values.online !== true) throw new AiwgCiteError('USAGE', usageMessages.noCacheNeedsOnline());
    const workspace = resolveWorkspace(context.cwd, values.root);
    // Confined as check confines its paths: inside the root, symlinks resolved.
    const { absolute, relative: documentPath } = confineExplicitFile(workspace.root, context.cwd, positionals[0] as string);
    let bytes: Uint8Array;
    try {
      bytes = readRegularFile(absolute);
    } catch (error) {
      throw new AiwgCiteError(
        'INPUT_UNREADABLE',
        inputMessages.cannotRead(positionals[0] as string, (error as NodeJS.ErrnoException).code ?? String(error)),
        {
          cause: error,
        },
      );
    }
    const text = decodeDocument(bytes);
    const documentSha = await nodeSha256(bytes);
    const started = runNow(context);
    const now = { year: started.getUTCFullYear(), month: started.getUTCMonth() + 1 };
    const parsed = parseFootnotes(text, { bareNumerals: values['bare-numerals'] === true });
    const { footnotes, findings } = classifyFootnotes(documentPath, parsed, now);

    const config = loadRunConfig(workspace.root, context);
    const statePath = values.state === undefined ? null : resolve(context.cwd, values.state);
    if (statePath !== null) assertWriteConfined(workspace.root, statePath, 'state file');
    const state = statePath === null ? null : loadState(statePath, documentPath, documentSha);

    const session = values.online === true ? await openCliOnlineSession(workspace.root, context, values['no-cache'] === true) : null;
    const artifacts = new ArtifactCache(createNodeReader(workspace.root), nodeSha256);
    // The corpus is read only when a text footnote needs it (SPEC §7.2).
    const needsCorpus = footnotes.some((footnote) => footnote.category === 'text-verified' || footnote.category === 'text-inferred');
    const corpus = needsCorpus
      ? await loadCorpus({
          root: workspace.root,
          isGit: workspace.isGit,
          env: context.env,
          onNote: (line) => context.stderr.write(`aiwg-cite certify: ${escapeControls(line)}\n`),
          ...(config.corpus === undefined ? {} : { dirs: config.corpus }),
          ...(config.bibliography === undefined ? {} : { bibliography: config.bibliography }),
        })
      : null;
    const items: CertificateItem[] = [];
    const unchecked: UncheckedFootnote[] = [];
    let sinceSave = 0;
    let note: string | null = null;
    try {
      for (const footnote of footnotes) {
        const { definition } = footnote;
        if (footnote.disposition !== 'checked' || footnote.category === null) {
          unchecked.push({
            section: definition.section,
            tag: footnote.tag,
            disposition: footnote.disposition as UncheckedFootnote['disposition'],
          });
          continue;
        }
        const textSha = await nodeSha256(new TextEncoder().encode(definition.text));
        const previous = state?.items[definition.key];
        let result: { outcome: ItemOutcome; reason: string; source?: string };
        if (previous !== undefined && previous.text_sha256 === textSha && previous.outcome !== 'error') {
          result = {
            outcome: previous.outcome,
            reason: certificateReasons.fromState(previous.reason),
            ...(previous.source ? { source: previous.source } : {}),
          };
          if (state !== null) state.metrics.reused += 1;
        } else {
          result = await checkFootnote(footnote, documentPath, artifacts, session?.checker ?? null, corpus);
          if (state !== null) {
            state.items[definition.key] = {
              text_sha256: textSha,
              outcome: result.outcome,
              reason: result.reason,
              ...(result.source === undefined ? {} : { source: result.source }),
              checked_at: runNow(context).toISOString(),
            };
            state.metrics.checked += 1;
            state.status = 'in_progress';
            sinceSave += 1;
            // At least every 10 items (SPEC §7.3), and after every item that went to the network, so
            // an interrupted run never repeats a request it already made.
            const networked = session !== null && result.source !== undefined && result.source !== 'structure';
            if ((sinceSave >= 10 || networked) && statePath !== null) {
              saveState(statePath, state);
              sinceSave = 0;
            }
          }
        }
        items.push({
          number: definition.label,
          section: definition.section,
          tag: footnote.tag as 'VERIFIED' | 'INFERRED',
          category: footnote.category,
          citation: footnote.citation,
          ...result,
        });
      }
    } finally {
      note = session === null ? null : await session.close();
      if (state !== null && statePath !== null) {
        const gate = decideGate(items, gateContextOf(unchecked, findings));
        state.status = items.length + unchecked.length === footnotes.length ? 'complete' : 'blocked';
        state.metrics = { ...state.metrics, verifiable: gate.verifiable, confirmed: gate.confirmed };
        state.errors = items.filter((item) => item.outcome === 'error').map((item) => `${item.number}: ${item.reason}`);
        saveState(statePath, state);
      }
    }

    const certificate = renderCertificate({
      document: documentPath,
      sha256: documentSha,
      date: started.toISOString(),
      toolVersion: packageJson.version,
      mode: session === null ? 'offline' : 'online',
      items,
      unchecked,
      findings,
      sections: [...new Set(footnotes.map((footnote) => footnote.definition.section))],
    });
    const output = resolve(values.output === undefined ? resolve(workspace.root, CERTIFICATE_PATH) : resolve(context.cwd, values.output));
    assertWriteConfined(workspace.root, output, 'certificate');
    mkdirSync(dirname(output), { recursive: true });
    writeFileAtomic(output, certificate);

    const gate = decideGate(items, gateContextOf(unchecked, findings));
    const palette = paletteFor(context.stdout, context.env);
    const lines: string[] = [];
    for (const finding of findings) lines.push(...formatFinding(finding as Finding, palette));
    if (findings.length > 0) lines.push('');
    const rate = certifyMessages.rate(gate.confirmed, gate.verifiable, gate.percent);
    const skipped = unchecked.filter((u) => u.disposition === 'skipped').length;
    const counts = certifyMessages.counts(footnotes.length, gate.verifiable, skipped, unchecked.length - skipped);
    lines.push(palette.dim(`${counts}${note === null ? '' : `; ${note}`}.`));
    const shown = toPosix(relative(context.cwd, output)) || output;
    const status =
      gate.status === 'PASS'
        ? palette.green(gate.status)
        : gate.status === 'HARD_FAIL'
          ? palette.red(palette.bold(gate.status))
          : palette.yellow(gate.status);
    lines.push(`${status}: ${certifyMessages.written(rate, shown)}`);
    if (gate.status === 'HARD_FAIL') {
      const offlineErrors = session === null ? items.filter((item) => item.outcome === 'error').length : 0;
      lines.push(certifyMessages.failedBecause(gate, offlineErrors));
    }
    context.stdout.write(`${lines.join('\n')}\n`);
    if (gate.status === 'HARD_FAIL') return 1;
    return gate.status === 'PASS_WITH_EXCEPTIONS' && values.strict === true ? 1 : 0;
  },
};

/**
 * Checks one VERIFIED or INFERRED footnote (SPEC §7.2). Statutes by structure; everything else
 * through the online checker run over the footnote's own text, so URLs, DOIs and arXiv ids in it
 * (tag payloads included) get the same resolvers, cache and attribution checks as `check --online`.
 */
async function checkFootnote(
  footnote: ClassifiedFootnote,
  file: string,
  artifacts: ArtifactCache,
  online: DocumentChecker | null,
  corpus: CorpusIndex | null,
): Promise<{ outcome: ItemOutcome; reason: string; source?: string }> {
  if (footnote.placeholder !== null) {
    return { outcome: 'fabricated', reason: certificateReasons.placeholder(footnote.placeholder), source: 'structure' };
  }
  // A statute is checked by its structure; any URL, DOI or arXiv id beside it is checked as
  // `check --online` checks it, and the worse outcome stands (issue 15, item 5).
  const structural = footnote.category === 'statutory' ? statuteOutcome(footnote) : null;
  const hasIdentifiers = footnote.urls.length > 0 || footnote.dois.length > 0 || footnote.arxiv.length > 0;
  const inCorpus =
    structural !== null || corpus === null || footnote.urls.length > 0 ? null : matchInCorpus(footnote, corpus, online === null);
  if (!hasIdentifiers) return structural ?? inCorpus ?? { outcome: 'unconfirmed', reason: certificateReasons.needsSearch() };
  const malformed = [...footnote.dois, ...footnote.arxiv].find((id) => id.problem !== null);
  if (malformed !== undefined) return { outcome: 'fabricated', reason: `\`${malformed.raw}\`: ${malformed.problem}`, source: 'structure' };
  if (online === null) {
    if (inCorpus?.outcome === 'confirmed') return inCorpus;
    const what = footnote.urls.length > 0 ? 'URL' : footnote.dois.length > 0 ? 'DOI' : 'arXiv id';
    return worst(structural, { outcome: 'error', reason: certificateReasons.offline(what) });
  }
  const document = scanMarkdown(footnote.definition.text);
  const result = await online.check({ file, document, artifacts, options: {} });
  return worst(structural, summarise(result.findings));
}

type Outcome = { outcome: ItemOutcome; reason: string; source?: string };

const OUTCOME_RANK: Record<ItemOutcome, number> = { fabricated: 3, unconfirmed: 2, error: 1, confirmed: 0 };

/** The worse of two outcomes (the second when the first is absent). */
function worst(first: Outcome | null, second: Outcome): Outcome {
  return first !== null && OUTCOME_RANK[first.outcome] > OUTCOME_RANK[second.outcome] ? first : second;
}

function statuteOutcome(footnote: ClassifiedFootnote): Outcome {
  const problem = footnote.statutes.find((statute) => statute.problem !== null)?.problem ?? null;
  if (problem !== null) {
    return { outcome: 'unconfirmed', reason: certificateReasons.statuteInvalid(problem.message), source: 'structure' };
  }
  const valid = footnote.statutes.map((statute) => statute.raw.trim()).join('; ');
  return { outcome: 'confirmed', reason: certificateReasons.statuteValid(valid), source: 'structure' };
}

/** One outcome for a footnote from the findings of its identifiers: the worst wins. */
function summarise(findings: readonly Finding[]): { outcome: ItemOutcome; reason: string; source?: string } {
  const judged = findings.map((finding) => ({ finding, outcome: outcomeOf(finding) }));
  judged.sort((a, b) => OUTCOME_RANK[b.outcome] - OUTCOME_RANK[a.outcome]);
  const worst = judged[0];
  if (worst === undefined) return { outcome: 'unconfirmed', reason: certificateReasons.needsSearch() };
  const source = typeof worst.finding.source === 'string' ? worst.finding.source : undefined;
  return {
    outcome: worst.outcome,
    reason: `${worst.finding.rule}: ${worst.finding.message}`,
    ...(source === undefined ? {} : { source }),
  };
}

function outcomeOf(finding: Finding): ItemOutcome {
  switch (finding.status) {
    case 'verified':
    case 'alive':
      return 'confirmed';
    case 'fabricated':
    case 'malformed':
    case 'placeholder':
      return 'fabricated';
    case 'dead':
    case 'retracted':
      return 'unconfirmed';
    case 'misattributed':
      return finding.severity === 'error' ? 'unconfirmed' : 'confirmed';
    default:
      return 'error';
  }
}

function loadState(path: string, document: string, documentSha: string): CertifyState {
  let text: string;
  try {
    text = readRegularFile(path).toString('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new AiwgCiteError('INPUT_UNREADABLE', inputMessages.stateFileUnreadable(path, (error as Error).message), { cause: error });
    }
    return {
      version: 1,
      document,
      document_sha256: documentSha,
      status: 'initialized',
      items: {},
      metrics: { verifiable: 0, confirmed: 0, checked: 0, reused: 0 },
      errors: [],
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new AiwgCiteError('CONFIG_INVALID', inputMessages.stateFileNotJson(path), { cause: error });
  }
  const state = value as Partial<CertifyState>;
  if (state.version !== 1 || typeof state.items !== 'object' || state.items === null) {
    throw new AiwgCiteError('CONFIG_INVALID', inputMessages.notStateFile(path));
  }
  return {
    version: 1,
    document,
    document_sha256: documentSha,
    status: 'in_progress',
    items: state.items,
    metrics: { verifiable: 0, confirmed: 0, checked: 0, reused: 0 },
    errors: [],
  };
}

function saveState(path: string, state: CertifyState): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomic(path, `${JSON.stringify(state, null, 2)}\n`);
}
