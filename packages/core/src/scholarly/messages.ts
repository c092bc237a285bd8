/**
 * Every user-facing sentence of the corpus and scholarly checks. The offending value goes in
 * backticks and the fix names the next step; the CLI and the TUI add only colour and layout.
 */
export const scholarlyMessages = {
  corpusAbsent: (roots: readonly string[]) =>
    `no research corpus found (looked in ${roots.map((root) => `\`${root}\``).join(', ')}); corpus findings are reported as info`,
  corpusAbsentFix: () =>
    'add the corpus, name it with `--corpus DIR` or `corpus` in aiwg-cite.config.json, or pass `--require-corpus` to fail',
  mentionFound: (path: string) => `\`${path}\` exists`,
  mentionFoundBeside: (path: string) => `\`${path}\` exists (the mention is read from the document's folder)`,
  mentionMissing: (path: string, where: string) => `\`${path}\` does not exist${where}`,
  mentionMissingResearch: () => ' (an error here: a mention inside a research corpus or research path is a citation)',
  mentionIgnored: (path: string) => `\`${path}\` is absent here and git ignores it, so no clone has it: it cannot be checked`,
  mentionIgnoredFix: () => 'commit the file, or mention a tracked one',
  mentionMissingFix: () => 'mention a file that exists, or create it',
  mentionOutside: (path: string) => `\`${path}\` leaves the project root`,
  mentionUnsetRoot: () => '`$AIWG_ROOT` is not set, so this mention cannot be resolved (unresolvable by design, not missing)',
  mentionUnsetRootFix: () => 'set AIWG_ROOT to the aiwg installation to check these mentions',
  mentionNoAiwgDir: (path: string) => `\`${path}\` lies in the \`.aiwg/\` directory, which is absent here (it is usually gitignored)`,
  mentionNoAiwgDirFix: () => 'run where the .aiwg/ directory exists, or set AIWG_ARTIFACTS_PATH',
  refFound: (id: string, path: string) => `\`${id}\` is \`${path}\``,
  refMissing: (id: string, roots: readonly string[], absentRoots: readonly string[]) => {
    const present = roots.filter((root) => !absentRoots.includes(root));
    const where = present.length === 0 ? 'no corpus root exists' : `not in ${present.map((root) => `\`${root}\``).join(', ')}`;
    const absent =
      present.length > 0 && absentRoots.length > 0
        ? ` (${absentRoots.length} other configured ${absentRoots.length === 1 ? 'root does' : 'roots do'} not exist here)`
        : '';
    return `\`${id}\` is in no corpus source: ${where}${absent}`;
  },
  refMissingFix: (id: string) => `add ${id} to the corpus, cite a source that exists, or remove the citation (\`--fix\` removes it)`,
  refMalformed: (id: string) => `\`${id}\` is not a REF number aiwg issues (three digits, or four or more without a leading zero)`,
  refMalformedFix: (id: string) => `write it as \`REF-${id.replace(/^REF-0*/, '').padStart(3, '0')}\``,
  refDuplicate: (id: string, paths: readonly string[]) =>
    `\`${id}\` answers to several sources: ${paths.map((path) => `\`${path}\``).join(', ')}`,
  doiVerified: (doi: string, where: string) => `\`${doi}\` is recorded in \`${where}\``,
  doiUnverified: (doi: string) =>
    `\`${doi}\` is well-formed but recorded in no corpus source or bibliography; \`--online\` checks resolve it`,
  doiUnverifiedFix: () => 'add the source to the corpus or a .bib / .csl.json bibliography, or confirm it online',
  doiMalformed: (doi: string, problem: string) => `\`${doi}\` is not a DOI: ${problem}`,
  doiMalformedFix: () => 'copy the DOI from the publisher page; a DOI that cannot exist is a fabrication',
  doiPlaceholder: (doi: string) => `\`${doi}\` is a placeholder DOI, not a real identifier`,
  doiPlaceholderFix: () => 'replace it with the real DOI, or remove the citation',
  arxivVerified: (id: string, where: string) => `arXiv \`${id}\` is recorded in \`${where}\``,
  arxivUnverified: (id: string) =>
    `arXiv \`${id}\` is well-formed but recorded in no corpus source or bibliography; \`--online\` checks resolve it`,
  arxivMalformed: (id: string, problem: string) => `arXiv \`${id}\`: ${problem}`,
  arxivMalformedFix: () => 'copy the id from the arXiv abstract page',
  authorFound: (citation: string, path: string) => `\`${citation}\` matches \`${path}\``,
  authorNotInCorpus: (names: readonly string[]) =>
    `no corpus source lists ${names.map((name) => `\`${name}\``).join(' or ')} among its authors`,
  authorNotInCorpusFix: () => 'add the source to the corpus, or check the author name',
  yearMismatch: (name: string, year: number, years: readonly number[]) =>
    `\`${name}\` is in the corpus with ${years.length === 0 ? 'no year' : `year ${years.join(', ')}`}, not ${year}`,
  yearMismatchFix: (years: readonly number[]) => (years.length === 0 ? 'check the year' : `did you mean ${years.join(' or ')}?`),
  implausibleYear: (year: number, latest: number) => `year ${year} is outside 1900-${latest}`,
  implausibleYearFix: () =>
    'check the year; a year that cannot be right is a fabrication (a work before 1900 counts once the corpus records it)',
  quoteFound: (path: string) => `the quote occurs in \`${path}\``,
  quoteNotFound: (path: string, closest: string | null) =>
    `the quote occurs nowhere in \`${path}\`${closest === null ? '' : `; the closest passage is "${closest}"`}`,
  quoteNotFoundFix: () => 'quote the source exactly, or paraphrase without quotation marks',
  quoteMissingPage: () => 'the quote carries no page locator (`p. N`)',
  quoteMissingPageFix: () => 'add the page the quote is on, e.g. `(p. 7)`',
  quoteUncheckable: (path: string) => `\`${path}\` has no text to check the quote against`,
  statisticUnsourced: (statistic: string) => `\`${statistic}\` has no citation in its sentence or paragraph`,
  statisticUnsourcedFix: () => 'cite the source of the number, or remove it',
  pagesInvalid: (locator: string, problem: string) => `\`${locator}\`: ${problem}`,
  pagesInvalidFix: () => 'cite pages that exist in the source',
  gradeOk: (tier: string, level: string) => `${tier} wording fits ${level} evidence`,
  gradeOverclaim: (trigger: string, tier: string, level: string, id: string) =>
    `"${trigger}" makes a ${tier} claim, but ${id} is ${level} evidence`,
  gradeOverclaimFix: (replacement: string | null, allowed: string) =>
    replacement === null ? `use ${allowed} wording` : `write "${replacement}" (\`--fix\` rewrites the opening)`,
  gradeAbsolute: (trigger: string) => `"${trigger}" is absolute wording; research rarely proves anything conclusively`,
  gradeAbsoluteFix: () => 'use "demonstrates" or weaker wording',
  gradeUnderclaim: (trigger: string, id: string) => `"${trigger}" hedges a claim that ${id} supports with HIGH evidence`,
  gradeUnassessed: (id: string, tier: string) => `${id} has no GRADE assessment, so the ${tier} claim cannot be weighed`,
  gradeUnassessedFix: (id: string) => `assess ${id} (a quality-assessments/*.yaml file or \`grade_level\` in its frontmatter)`,
  gradeMismatch: (id: string, written: string, stored: string) => `the text says ${id} is ${written}, but its assessment is ${stored}`,
  gradeMismatchFix: (stored: string) => `write GRADE: ${stored}`,
} as const;

/** Problems of corpus files, noted in the report's coverage; each names its file. */
export const corpusMessages = {
  frontmatterNotYaml: (path: string, problem: string) =>
    `${path}: the frontmatter is not valid YAML (${problem}); its fields may be misread until it is fixed`,
  cslNotJson: (reason: string) => `not valid JSON (${reason})`,
  cslNotArray: () => 'expected an array of CSL items',
  bibtexParserFailed: (reason: string) => `the BibTeX parser failed: ${reason}`,
  assessmentNotYaml: (path: string, problem: string) => `${path}: not valid YAML (${problem}); its grade may be misread until it is fixed`,
} as const;
