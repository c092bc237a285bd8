/**
 * Author-year citations (SPEC §5.2): `Smith et al., 2023`, `Smith et al. (2023)`, `(Smith, 2023)`,
 * `Smith (2023)`, `Smith and Jones (2020)`, `(A & B, 2020)`, with `2023a` suffixes, page
 * locators and `;` lists. Months, sentence openers, product names (`ReAct`, `MetaGPT`) and
 * all-caps words are not surnames.
 */

/** One author-year citation. */
export interface AuthorYearMatch {
  /** The citation as written (one item of a `;` list). */
  readonly text: string;
  readonly start: number;
  readonly end: number;
  /** Surnames as written, first author first. */
  readonly surnames: readonly string[];
  readonly etAl: boolean;
  readonly year: number;
}

/**
 * A regular expression built on its first use. Building one with `\\p{…}` classes takes
 * milliseconds, and a module-level one is built on every start-up of the CLI, commit hook included,
 * whether or not a document is checked.
 */
function builtOnUse(source: string, flags: string): () => RegExp {
  let built: RegExp | undefined;
  return () => {
    built ??= new RegExp(source, flags);
    return built;
  };
}

const PARTICLE = '(?:(?:van|von|de|der|den|da|di|du|la|le|del|della|dos|ten|ter)\\s+)*';
const NAME = "\\p{Lu}[\\p{L}'’-]*\\p{Ll}[\\p{L}'’-]*";
const SURNAME = `${PARTICLE}${NAME}`;
const PAIR = `(${SURNAME})(?:\\s*(?:,\\s*)?(?:and|&)\\s+(${SURNAME}))?`;
const ET_AL = '(\\s+et\\s+al\\.?)?';
const YEAR = '(\\d{4})[a-z]?';
const LOCATOR = '(?:\\s*,\\s*(?:pp?\\.|p\\.|ch\\.|sec\\.|§)\\s*[\\w–-]+)?';

/** The year part of `Surname et al. (2023)`, `Surname and Surname (2020)`, `Surname (2023)`. */
const NARRATIVE_ANCHOR = new RegExp(`\\(\\s*${YEAR}${LOCATOR}\\s*\\)`, 'g');
/** The names before such a year, read back from the anchor. */
const NARRATIVE_NAMES = builtOnUse(`(?<![\\p{L}\\d])${PAIR}${ET_AL}\\s*$`, 'u');
/** The tail of `Surname et al., 2023` and `Surname et al. 2023`, in or out of parentheses. */
const ET_AL_ANCHOR = new RegExp(`\\bet\\s+al\\.?,?\\s+${YEAR}(?!\\d)`, 'g');
const ET_AL_NAMES = builtOnUse(`(?<![\\p{L}\\d])${PAIR}\\s+$`, 'u');
/** How far back from an anchor the names may start. */
const WINDOW = 72;
/** One item of a parenthetical list: `Surname, 2023`, `A & B, 2020`, `Surname et al., 2023`. */
const ITEM = builtOnUse(`^\\s*(?:see\\s+|e\\.g\\.,?\\s+|cf\\.\\s+)?${PAIR}${ET_AL},?\\s+${YEAR}${LOCATOR}\\s*$`, 'u');
const PARENTHESES = /\(([^()\n]{6,300})\)/g;

const NOT_SURNAMES = new Set(
  [
    'January February March April May June July August September October November December',
    'Jan Feb Mar Apr Jun Jul Aug Sep Sept Oct Nov Dec Monday Tuesday Wednesday Thursday Friday Saturday Sunday',
    'In The This That These Those Since From See Per As By Of On At For With And Or But Also Until Before After During Through Between',
    'Version Release Edition Update Updated Report Standard Specification Draft Guide Handbook Working Group Model Framework Protocol',
    'Paper Study Studies Survey Review Published Accessed Retrieved Copyright Revised Recommendation Proceedings Conference Journal',
    'Research Evidence Data Figure Table Section Chapter Appendix Volume Issue Note Notes Summer Winter Spring Fall Autumn Q1 Q2 Q3 Q4',
    'Year Years Today Circa Around About Established Founded Introduced Launched Spec Blog Post Article Book Thesis',
    // Plans and schedules: `Planned (2025)`, `Target (2026)`.
    'Planned Planning Plan Target Targets Targeted Expected Estimated Estimate Scheduled Proposed Projected Forecast Deprecated Launch',
    'Roadmap Milestone Phase Sprint Budget Goal Goals Deadline Due Completed Started Ended Beta Alpha Preview Baseline Current',
    'Previous Next Last First Future Past Present Fiscal Quarter Season Cohort Class Batch',
    // Template placeholders: `(Smith & Doe, 2023)`, `(Author, 2024)`.
    'Doe Author Authors Surname Lastname Name Names Example Examples Sample Placeholder Foo Bar Baz Someone Person Researcher Researchers',
  ]
    .join(' ')
    .split(' '),
);

/** True when a capitalised word can be a surname here. */
export function isPlausibleSurname(word: string): boolean {
  const bare = word.replace(/^(?:(?:van|von|de|der|den|da|di|du|la|le|del|della|dos|ten|ter)\s+)+/, '');
  if (NOT_SURNAMES.has(bare)) return false;
  // Acronyms (`SCCs`, `LLMs`, `APIs`): two capitals in a row open no surname.
  if (/^\p{Lu}\p{Lu}/u.test(bare)) return false;
  // Product names (`ReAct`, `MetaGPT`) have an inner capital; `McDonald` and `Dwivedi-Yu` are surnames.
  if (/\p{Ll}\p{Lu}/u.test(bare) && !/^(?:Mc|Mac|De|Di|Da|Van|Le|La)\p{Lu}/u.test(bare)) return false;
  return true;
}

/** Finds author-year citations in prose. */
export function findAuthorYears(text: string): AuthorYearMatch[] {
  if (!/\d{4}/.test(text)) return [];
  const found: AuthorYearMatch[] = [];
  const covered: { start: number; end: number }[] = [];
  const add = (match: AuthorYearMatch | null): void => {
    if (match === null) return;
    if (covered.some((range) => match.start < range.end && match.end > range.start)) return;
    covered.push({ start: match.start, end: match.end });
    found.push(match);
  };

  PARENTHESES.lastIndex = 0;
  for (let group = PARENTHESES.exec(text); group !== null; group = PARENTHESES.exec(text)) {
    const inner = group[1] as string;
    if (!/\d{4}/.test(inner)) continue;
    let offset = group.index + 1;
    for (const part of inner.split(';')) {
      const item = ITEM().exec(part);
      if (item !== null) {
        const lead = part.length - part.trimStart().length;
        const trimmed = part.trim();
        add(build(trimmed, offset + lead, item[1], item[2], item[3] !== undefined, item[4] as string));
      }
      offset += part.length + 1;
    }
  }
  NARRATIVE_ANCHOR.lastIndex = 0;
  for (let anchor = NARRATIVE_ANCHOR.exec(text); anchor !== null; anchor = NARRATIVE_ANCHOR.exec(text)) {
    const from = Math.max(0, anchor.index - WINDOW);
    const names = NARRATIVE_NAMES().exec(text.slice(from, anchor.index));
    if (names === null) continue;
    const start = from + names.index;
    // `Agile Manifesto (2001)`, `Few-Shot Learners (2020)`: a lone capitalised word after another is a title.
    if (names[2] === undefined && names[3] === undefined && followsTitleWord(text, start)) continue;
    add(build(text.slice(start, anchor.index + anchor[0].length), start, names[1], names[2], names[3] !== undefined, anchor[1] as string));
  }
  ET_AL_ANCHOR.lastIndex = 0;
  for (let anchor = ET_AL_ANCHOR.exec(text); anchor !== null; anchor = ET_AL_ANCHOR.exec(text)) {
    const from = Math.max(0, anchor.index - WINDOW);
    const names = ET_AL_NAMES().exec(text.slice(from, anchor.index));
    if (names === null) continue;
    const start = from + names.index;
    add(build(text.slice(start, anchor.index + anchor[0].length), start, names[1], names[2], true, anchor[1] as string));
  }
  return found.sort((a, b) => a.start - b.start);
}

const OPENERS = new Set([
  'Per',
  'See',
  'As',
  'By',
  'In',
  'Following',
  'From',
  'Cf',
  'Also',
  'And',
  'After',
  'Like',
  'Unlike',
  'Both',
  'While',
  'Whereas',
]);

function followsTitleWord(text: string, start: number): boolean {
  const before = /(\S+)\s+$/u.exec(text.slice(Math.max(0, start - 40), start));
  if (before === null) return false;
  const word = (before[1] as string).replace(/^[("'“*_[]+/, '');
  return /^\p{Lu}/u.test(word) && !OPENERS.has(word) && !/[.:!?,;|)]$/.test(word);
}

function build(
  text: string,
  start: number,
  first: string | undefined,
  second: string | undefined,
  etAl: boolean,
  year: string,
): AuthorYearMatch | null {
  if (first === undefined || !isPlausibleSurname(first)) return null;
  if (second !== undefined && !isPlausibleSurname(second)) return null;
  const surnames = second === undefined ? [first] : [first, second];
  return { text, start, end: start + text.length, surnames, etAl, year: Number(year) };
}
