import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import {
  AiwgCiteError,
  type BibEntry,
  bibSites,
  buildReport,
  type Finding,
  judgeReference,
  pandocKeys,
  parseReferenceText,
  REF_RULES,
  type ReferenceSite,
  type RefJudgement,
  readBibtex,
  referenceListItems,
  type ScholarlyRecord,
} from '@aiwg-cite/core';
import packageJson from '../../package.json' with { type: 'json' };
import { parseChoice, parseCommandArgs } from '../args.ts';
import { type Palette, paletteFor } from '../color.ts';
import { type CliContext, type Command, loadRunConfig } from '../context.ts';
import { formatGithub } from '../format/github.ts';
import { correctedEntry, formatRefsPretty, type RefOutcome } from '../format/refs.ts';
import { formatSarif } from '../format/sarif.ts';
import { inputMessages, refsMessages, refsReportMessages, usageMessages } from '../messages.ts';
import { applyCorrections } from './refs-fix.ts';

const FORMATS = ['pretty', 'json', 'sarif', 'github'] as const;

const HELP = `Usage: aiwg-cite refs FILE... [--online] [--format FORMAT] [--strict] [--fix]

Verifies every entry of a .bib file, and every item of a markdown reference list (a
"References" or "Bibliography" section, numbered or bulleted; Pandoc and Manubot keys such as
[@smith2020] resolve through the .bib files given or named by \`bibliography:\`), against the
scholarly record: doi.org, Crossref, OpenAlex, arXiv, DBLP and Semantic Scholar. Each entry is
valid, hallucinated or uncertain, with the fields that disagree and the record compared.

Options:
  --online             look the entries up (without it only the offline checks run: future years,
                       placeholder authors; every other entry stays uncertain)
  --format FORMAT      pretty (default), json, sarif (SARIF 2.1.0), github (Actions annotations)
  --strict             uncertain entries fail the run too
  --fix                with --online: write the corrections every service agrees on into the .bib
                       files (authors, year, venue); never deletes an entry
  --bib FILE           a .bib that resolves Pandoc keys of the markdown files (repeatable)
  --no-cache           neither read nor write .aiwg-cite/cache.jsonl
  --verbose            offline, list the entries nothing could be checked for too (they are
                       counted as uncertain, not listed)
  -h, --help           show this help

Environment: AIWG_CITE_DOI_URL, AIWG_CITE_CROSSREF_URL, AIWG_CITE_OPENALEX_URL, AIWG_CITE_ARXIV_URL,
AIWG_CITE_DBLP_URL, AIWG_CITE_S2_URL (service base URLs; also the "online" configuration key),
AIWG_CITE_MAILTO (sent to Crossref and OpenAlex), AIWG_CITE_S2_KEY, AIWG_CITE_OPENALEX_KEY.

Exit codes: 0 no entry hallucinated, 1 an entry hallucinated (or uncertain with --strict),
2 usage or input error.
`;

/** The reference sites of the files, and the .bib texts by path (for --fix). */
async function collectSites(
  files: readonly string[],
  extraBibs: readonly string[],
  cwd: string,
): Promise<{ sites: ReferenceSite[]; bibTexts: Map<string, { path: string; text: string }> }> {
  const bibTexts = new Map<string, { path: string; text: string }>();
  const bibEntries = new Map<string, BibEntry[]>();
  const display = (path: string) => {
    const rel = relative(cwd, path);
    return rel.startsWith('..') || isAbsolute(rel) ? path : rel.split('\\').join('/');
  };
  const readText = async (path: string): Promise<string> => {
    try {
      return await readFile(path, 'utf8');
    } catch (error) {
      throw new AiwgCiteError(
        'INPUT_UNREADABLE',
        inputMessages.cannotRead(display(path), (error as NodeJS.ErrnoException).code ?? (error as Error).message),
      );
    }
  };
  const loadBib = async (path: string): Promise<BibEntry[]> => {
    const known = bibEntries.get(path);
    if (known !== undefined) return known;
    const text = await readText(path);
    const file = await readBibtex(text);
    if (file.entries.length === 0 && file.problems.length > 0) {
      throw new AiwgCiteError('INPUT_UNREADABLE', `${display(path)}: ${file.problems[0]}`);
    }
    bibTexts.set(display(path), { path, text });
    bibEntries.set(path, [...file.entries]);
    return [...file.entries];
  };
  const sites: ReferenceSite[] = [];
  const seenBib = new Set<string>();
  const addBibEntry = (path: string, entry: BibEntry) => {
    const id = `${path}\u0000${entry.key}`;
    if (seenBib.has(id)) return;
    seenBib.add(id);
    sites.push(...bibSites(display(path), [entry]));
  };
  for (const file of files) {
    const path = resolve(cwd, file);
    if (/\.bib$/i.test(path)) {
      for (const entry of await loadBib(path)) addBibEntry(path, entry);
      continue;
    }
    const text = await readText(path);
    const items = referenceListItems(text);
    for (const item of items) {
      const cited = parseReferenceText(`${display(path)}:${item.line}`, item.text);
      sites.push({ file: display(path), line: item.line, cited, bib: null });
    }
    const keys = pandocKeys(text);
    if (keys.length === 0) continue;
    const bibPaths = [
      ...extraBibs.map((bib) => resolve(cwd, bib)),
      ...frontmatterBibliographies(text).map((bib) => resolve(dirname(path), bib)),
    ];
    const byKey = new Map<string, { path: string; entry: BibEntry }>();
    for (const bibPath of bibPaths) for (const entry of await loadBib(bibPath)) byKey.set(entry.key, { path: bibPath, entry });
    for (const { key, line } of keys) {
      const found = byKey.get(key);
      if (found !== undefined) addBibEntry(found.path, found.entry);
      else if (/^doi:10\./i.test(key)) {
        const doi = key.slice(4);
        sites.push({
          file: display(path),
          line,
          cited: { key, title: null, authors: [], authorsTruncated: false, year: null, venue: null, doi, arxiv: null },
          bib: null,
        });
      }
    }
  }
  return { sites, bibTexts };
}

/** `bibliography:` of a YAML front matter block (a string or a list). */
function frontmatterBibliographies(text: string): string[] {
  const block = /^---\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)\r?\n/.exec(text)?.[1];
  if (block === undefined) return [];
  const inline = /^bibliography:\s*(?:\[(.*)\]|(\S.*))\s*$/m.exec(block);
  if (inline?.[1] !== undefined)
    return inline[1]
      .split(',')
      .map((item) => item.trim().replace(/^['"]|['"]$/g, ''))
      .filter(Boolean);
  if (inline?.[2] !== undefined) return [inline[2].trim().replace(/^['"]|['"]$/g, '')];
  const list = /^bibliography:\s*\r?\n((?:\s+-\s+.*\r?\n?)+)/m.exec(block)?.[1];
  return list === undefined ? [] : [...list.matchAll(/-\s+(.*)/g)].map((match) => (match[1] as string).trim().replace(/^['"]|['"]$/g, ''));
}

/** `aiwg-cite refs`. */
export const refs: Command = {
  summary: 'verify every entry of .bib files and markdown reference lists against the scholarly record',
  async run(args: readonly string[], context: CliContext): Promise<number> {
    const { values, positionals } = parseCommandArgs('refs', args, {
      online: { type: 'boolean' },
      format: { type: 'string' },
      strict: { type: 'boolean' },
      fix: { type: 'boolean' },
      bib: { type: 'string', multiple: true },
      'no-cache': { type: 'boolean' },
      verbose: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help === true) {
      context.stdout.write(HELP);
      return 0;
    }
    if (positionals.length === 0) throw new AiwgCiteError('USAGE', usageMessages.refsNeedsFiles());
    if (values.fix === true && values.online !== true) throw new AiwgCiteError('USAGE', usageMessages.refsFixNeedsOnline());
    const format = parseChoice('refs', 'format', values.format, FORMATS, 'pretty');
    const { sites, bibTexts } = await collectSites(positionals, values.bib ?? [], context.cwd);
    const strict = values.strict === true;
    const now = clockOf(context.env);
    let outcomes: RefOutcome[];
    let note: string;
    if (values.online === true) {
      const online = await import('@aiwg-cite/online');
      const config = safeConfig(context);
      const session = online.openRefsSession({
        root: context.cwd,
        env: context.env,
        version: packageJson.version,
        urls: config,
        useCache: values['no-cache'] !== true,
        entries: sites.length,
        warn: (message) => context.stderr.write(`${refsMessages.warning(message)}\n`),
        now: () => now,
      });
      const results = await session.verify(sites);
      note = session.close();
      outcomes = results.map((result) => ({ site: result.site, judgement: result.judgement, lookups: result.lookups }));
      const asked = outcomes.flatMap((outcome) => outcome.lookups);
      if (asked.length > 0 && asked.every((lookup) => !lookup.ok)) {
        const uncertain = outcomes.filter((outcome) => outcome.judgement.verdict === 'uncertain').length;
        context.stderr.write(`${refsMessages.noServiceAnswered(uncertain, outcomes.length)}\n`);
      }
    } else {
      outcomes = sites.map((site) => ({ site, judgement: offlineJudgement(site, now), lookups: [] }));
      note = refsMessages.offline();
    }
    if (values.fix === true) {
      const written = applyCorrections(outcomes, bibTexts);
      if (written.length > 0) context.stderr.write(`${refsMessages.corrected(written.map((item) => `${item.file}#${item.key}`))}\n`);
    }
    const hallucinated = outcomes.filter((outcome) => outcome.judgement.verdict === 'hallucinated').length;
    const uncertain = outcomes.filter((outcome) => outcome.judgement.verdict === 'uncertain').length;
    // Offline, an entry nothing could be checked for is counted, not listed: listing a thousand of
    // them buries the ones an offline check did flag.
    const unlisted = values.online === true || values.verbose === true ? 0 : outcomes.filter(isUnlooked).length;
    const listed = unlisted === 0 ? outcomes : outcomes.filter((outcome) => !isUnlooked(outcome));
    context.stdout.write(render(outcomes, format, { strict, note, palette: paletteFor(context.stdout, context.env), listed, unlisted }));
    return hallucinated > 0 || (strict && uncertain > 0) ? 1 : 0;
  },
};

function safeConfig(context: CliContext): Partial<Record<'doi' | 'crossref' | 'openalex' | 'arxiv' | 'dblp' | 's2', string>> {
  return loadRunConfig(context.cwd, context).online ?? {};
}

function clockOf(env: Readonly<Record<string, string | undefined>>): Date {
  const fixed = env.AIWG_CITE_DATE;
  if (fixed !== undefined && fixed !== '') {
    const date = new Date(fixed);
    if (!Number.isNaN(date.getTime())) return date;
    throw new AiwgCiteError('USAGE', usageMessages.notADate(fixed));
  }
  return new Date();
}

function recordJson(record: ScholarlyRecord | null) {
  if (record === null) return null;
  return {
    service: record.service,
    id: record.id,
    url: record.url,
    title: record.title,
    authors: record.authors.map((person) => (person.given === '' ? person.family : `${person.given} ${person.family}`)),
    year: record.year,
    venue: record.venue,
    doi: record.doi,
    arxiv: record.arxiv,
  };
}

function severityOf(judgement: RefJudgement, strict: boolean): 'error' | 'warning' | 'ok' {
  if (judgement.verdict === 'hallucinated') return 'error';
  if (judgement.verdict === 'uncertain') return strict ? 'error' : 'warning';
  return judgement.findings.length > 0 ? 'warning' : 'ok';
}

/** The outcomes as check-style findings, for the SARIF and GitHub formats. */
function asFindings(outcomes: readonly RefOutcome[], strict: boolean): Finding[] {
  const findings: Finding[] = [];
  for (const { site, judgement } of outcomes) {
    const severity = severityOf(judgement, strict);
    for (const reason of judgement.findings) {
      const level = reason.severity === 'error' ? 'error' : severity === 'error' ? 'error' : 'warning';
      findings.push({
        file: site.file,
        line: site.line,
        column: 1,
        kind: 'refs',
        text: site.cited.key,
        status: judgement.verdict,
        severity: level,
        rule: reason.rule,
        message: `${site.cited.key}: ${reason.message}${reason.record === null ? '' : ` <${reason.record.url}>`}`,
        fix: REF_RULES[reason.rule].good,
      });
    }
  }
  return findings;
}

/**
 * The offline judgement of an entry: the offline checks (future years, placeholder authors), and
 * for the rest "not looked up", not "too few services answered" (none was asked).
 */
function offlineJudgement(site: ReferenceSite, now: Date): RefJudgement {
  const judgement = judgeReference(
    site.cited,
    { records: [], searched: [], failed: [], doi: null, arxiv: null },
    { year: now.getUTCFullYear() },
  );
  return {
    ...judgement,
    findings: judgement.findings.map((finding) =>
      finding.rule === 'refs/unverified' ? { ...finding, message: refsMessages.notLookedUp() } : finding,
    ),
  };
}

/** An uncertain entry with nothing against it but that nobody looked it up (offline). */
function isUnlooked(outcome: RefOutcome): boolean {
  const { judgement } = outcome;
  return outcome.lookups.length === 0 && judgement.verdict === 'uncertain' && judgement.findings.every((f) => f.rule === 'refs/unverified');
}

/** What the human formats list (`listed`) and count without listing (`unlisted`, offline). */
interface RenderOptions {
  readonly strict: boolean;
  readonly note: string;
  readonly palette: Palette;
  readonly listed: readonly RefOutcome[];
  readonly unlisted: number;
}

function render(outcomes: readonly RefOutcome[], format: (typeof FORMATS)[number], options: RenderOptions): string {
  switch (format) {
    case 'json': {
      const entries = outcomes.map(({ site, judgement }) => ({
        key: site.cited.key,
        file: site.file,
        line: site.line,
        verdict: judgement.verdict,
        reasons: judgement.findings.map((reason) => ({
          rule: reason.rule,
          severity: reason.severity,
          field: reason.field,
          message: reason.message,
          record: reason.record,
        })),
        matched: recordJson(judgement.matched),
        agreeing: judgement.agreeing,
        corrected: correctedEntry(site, judgement),
      }));
      const count = (verdict: string) => outcomes.filter((outcome) => outcome.judgement.verdict === verdict).length;
      const summary = {
        entries: outcomes.length,
        valid: count('valid'),
        hallucinated: count('hallucinated'),
        uncertain: count('uncertain'),
      };
      return `${JSON.stringify({ entries, summary, notes: [options.note] }, null, 2)}\n`;
    }
    case 'sarif':
    case 'github': {
      const report = buildReport(asFindings(options.listed, options.strict), new Set(outcomes.map((outcome) => outcome.site.file)).size, {
        skippedInCode: 0,
        suppressed: 0,
        notes: [options.note, ...(options.unlisted > 0 ? [refsReportMessages.unlisted(options.unlisted)] : [])],
      });
      return format === 'sarif' ? formatSarif(report, { version: packageJson.version }) : formatGithub(report);
    }
    default:
      return formatRefsPretty(outcomes, options);
  }
}
