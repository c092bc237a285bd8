/**
 * Venue names: the same venue is written `NeurIPS`, `NIPS`, `Advances in Neural Information
 * Processing Systems 35` or `Proceedings of the 36th Conference on Neural Information Processing
 * Systems`; journals are abbreviated (ISO 4: `J. Mach. Learn. Res.`). A venue is reduced to a
 * canonical id when it is a known one, and otherwise compared by abbreviation.
 */
import { foldText, words } from './normalize.ts';

/** A known venue: its canonical id, display name and the names it goes by (acronyms first). */
interface Venue {
  readonly id: string;
  readonly name: string;
  readonly aliases: readonly string[];
  /** Preprint servers: citing one is citing an unreviewed version. */
  readonly preprint?: boolean;
}

const VENUES: readonly Venue[] = [
  {
    id: 'neurips',
    name: 'Advances in Neural Information Processing Systems',
    aliases: [
      'neurips',
      'nips',
      'advances in neural information processing systems',
      'neural information processing systems',
      'conference on neural information processing systems',
    ],
  },
  { id: 'icml', name: 'International Conference on Machine Learning', aliases: ['icml', 'international conference on machine learning'] },
  {
    id: 'iclr',
    name: 'International Conference on Learning Representations',
    aliases: ['iclr', 'international conference on learning representations'],
  },
  {
    id: 'cvpr',
    name: 'IEEE/CVF Conference on Computer Vision and Pattern Recognition',
    aliases: ['cvpr', 'computer vision and pattern recognition', 'conference on computer vision and pattern recognition'],
  },
  {
    id: 'iccv',
    name: 'IEEE/CVF International Conference on Computer Vision',
    aliases: ['iccv', 'international conference on computer vision'],
  },
  { id: 'eccv', name: 'European Conference on Computer Vision', aliases: ['eccv', 'european conference on computer vision'] },
  {
    id: 'wacv',
    name: 'IEEE/CVF Winter Conference on Applications of Computer Vision',
    aliases: ['wacv', 'winter conference on applications of computer vision'],
  },
  { id: 'bmvc', name: 'British Machine Vision Conference', aliases: ['bmvc', 'british machine vision conference'] },
  {
    id: 'aaai',
    name: 'AAAI Conference on Artificial Intelligence',
    aliases: ['aaai', 'aaai conference on artificial intelligence', 'proceedings of the aaai conference on artificial intelligence'],
  },
  {
    id: 'ijcai',
    name: 'International Joint Conference on Artificial Intelligence',
    aliases: ['ijcai', 'international joint conference on artificial intelligence'],
  },
  {
    id: 'uai',
    name: 'Conference on Uncertainty in Artificial Intelligence',
    aliases: ['uai', 'uncertainty in artificial intelligence', 'conference on uncertainty in artificial intelligence'],
  },
  {
    id: 'aistats',
    name: 'International Conference on Artificial Intelligence and Statistics',
    aliases: ['aistats', 'international conference on artificial intelligence and statistics', 'artificial intelligence and statistics'],
  },
  {
    id: 'colt',
    name: 'Conference on Learning Theory',
    aliases: ['colt', 'conference on learning theory', 'annual conference on learning theory'],
  },
  { id: 'alt', name: 'International Conference on Algorithmic Learning Theory', aliases: ['alt', 'algorithmic learning theory'] },
  {
    id: 'acl',
    name: 'Annual Meeting of the Association for Computational Linguistics',
    aliases: ['acl', 'annual meeting of the association for computational linguistics', 'association for computational linguistics'],
  },
  {
    id: 'emnlp',
    name: 'Conference on Empirical Methods in Natural Language Processing',
    aliases: ['emnlp', 'empirical methods in natural language processing'],
  },
  {
    id: 'naacl',
    name: 'North American Chapter of the Association for Computational Linguistics',
    aliases: ['naacl', 'naacl hlt', 'north american chapter of the association for computational linguistics'],
  },
  {
    id: 'eacl',
    name: 'Conference of the European Chapter of the Association for Computational Linguistics',
    aliases: ['eacl', 'european chapter of the association for computational linguistics'],
  },
  {
    id: 'coling',
    name: 'International Conference on Computational Linguistics',
    aliases: ['coling', 'international conference on computational linguistics'],
  },
  {
    id: 'tacl',
    name: 'Transactions of the Association for Computational Linguistics',
    aliases: ['tacl', 'transactions of the association for computational linguistics', 'trans assoc comput linguistics'],
  },
  {
    id: 'kdd',
    name: 'ACM SIGKDD Conference on Knowledge Discovery and Data Mining',
    aliases: ['kdd', 'sigkdd', 'knowledge discovery and data mining'],
  },
  { id: 'www', name: 'The Web Conference', aliases: ['www', 'the web conference', 'world wide web conference', 'web conference'] },
  {
    id: 'sigir',
    name: 'International ACM SIGIR Conference on Research and Development in Information Retrieval',
    aliases: ['sigir', 'research and development in information retrieval'],
  },
  { id: 'wsdm', name: 'ACM International Conference on Web Search and Data Mining', aliases: ['wsdm', 'web search and data mining'] },
  {
    id: 'cikm',
    name: 'ACM International Conference on Information and Knowledge Management',
    aliases: ['cikm', 'information and knowledge management'],
  },
  { id: 'icdm', name: 'IEEE International Conference on Data Mining', aliases: ['icdm', 'international conference on data mining'] },
  {
    id: 'icde',
    name: 'IEEE International Conference on Data Engineering',
    aliases: ['icde', 'international conference on data engineering'],
  },
  {
    id: 'sigmod',
    name: 'Proceedings of the ACM on Management of Data',
    aliases: ['sigmod', 'proc acm manag data', 'proceedings of the acm on management of data', 'management of data'],
  },
  {
    id: 'vldb',
    name: 'Proceedings of the VLDB Endowment',
    aliases: ['vldb', 'pvldb', 'proc vldb endow', 'proceedings of the vldb endowment'],
  },
  { id: 'chi', name: 'CHI Conference on Human Factors in Computing Systems', aliases: ['chi', 'human factors in computing systems'] },
  { id: 'ccs', name: 'ACM Conference on Computer and Communications Security', aliases: ['ccs', 'computer and communications security'] },
  { id: 'sosp', name: 'Symposium on Operating Systems Principles', aliases: ['sosp', 'symposium on operating systems principles'] },
  {
    id: 'osdi',
    name: 'USENIX Symposium on Operating Systems Design and Implementation',
    aliases: ['osdi', 'operating systems design and implementation'],
  },
  { id: 'soups', name: 'Symposium on Usable Privacy and Security', aliases: ['soups', 'symposium on usable privacy and security'] },
  { id: 'usenix-security', name: 'USENIX Security Symposium', aliases: ['usenix security', 'usenix security symposium'] },
  { id: 'sp', name: 'IEEE Symposium on Security and Privacy', aliases: ['ieee s p', 'symposium on security and privacy'] },
  {
    id: 'ndss',
    name: 'Network and Distributed System Security Symposium',
    aliases: ['ndss', 'network and distributed system security symposium'],
  },
  { id: 'tog', name: 'ACM Transactions on Graphics', aliases: ['tog', 'acm trans graph', 'acm transactions on graphics', 'siggraph'] },
  {
    id: 'icra',
    name: 'IEEE International Conference on Robotics and Automation',
    aliases: ['icra', 'international conference on robotics and automation'],
  },
  {
    id: 'iros',
    name: 'IEEE/RSJ International Conference on Intelligent Robots and Systems',
    aliases: ['iros', 'intelligent robots and systems'],
  },
  { id: 'corl', name: 'Conference on Robot Learning', aliases: ['corl', 'conference on robot learning'] },
  {
    id: 'icassp',
    name: 'IEEE International Conference on Acoustics, Speech and Signal Processing',
    aliases: ['icassp', 'acoustics speech and signal processing'],
  },
  { id: 'interspeech', name: 'Interspeech', aliases: ['interspeech'] },
  {
    id: 'miccai',
    name: 'Medical Image Computing and Computer Assisted Intervention',
    aliases: ['miccai', 'medical image computing and computer assisted intervention'],
  },
  { id: 'mlsys', name: 'Conference on Machine Learning and Systems', aliases: ['mlsys', 'machine learning and systems'] },
  {
    id: 'aamas',
    name: 'International Conference on Autonomous Agents and Multiagent Systems',
    aliases: ['aamas', 'autonomous agents and multiagent systems'],
  },
  {
    id: 'jmlr',
    name: 'Journal of Machine Learning Research',
    aliases: ['jmlr', 'j mach learn res', 'journal of machine learning research'],
  },
  {
    id: 'tmlr',
    name: 'Transactions on Machine Learning Research',
    aliases: ['tmlr', 'trans mach learn res', 'transactions on machine learning research'],
  },
  { id: 'mlj', name: 'Machine Learning', aliases: ['mach learn', 'machine learning'] },
  {
    id: 'tpami',
    name: 'IEEE Transactions on Pattern Analysis and Machine Intelligence',
    aliases: ['tpami', 'pami', 'ieee trans pattern anal mach intell', 'transactions on pattern analysis and machine intelligence'],
  },
  {
    id: 'ijcv',
    name: 'International Journal of Computer Vision',
    aliases: ['ijcv', 'int j comput vis', 'international journal of computer vision'],
  },
  {
    id: 'tnnls',
    name: 'IEEE Transactions on Neural Networks and Learning Systems',
    aliases: ['tnnls', 'transactions on neural networks and learning systems'],
  },
  { id: 'nature', name: 'Nature', aliases: ['nature'] },
  { id: 'science', name: 'Science', aliases: ['science'] },
  {
    id: 'pnas',
    name: 'Proceedings of the National Academy of Sciences',
    aliases: ['pnas', 'proc natl acad sci', 'proceedings of the national academy of sciences'],
  },
  { id: 'arxiv', name: 'arXiv', aliases: ['arxiv', 'corr', 'arxiv preprint', 'arxiv cornell university', 'arxiv org'], preprint: true },
  { id: 'biorxiv', name: 'bioRxiv', aliases: ['biorxiv', 'biorxiv the preprint server for biology'], preprint: true },
  { id: 'medrxiv', name: 'medRxiv', aliases: ['medrxiv', 'medrxiv the preprint server for health sciences'], preprint: true },
  { id: 'ssrn', name: 'SSRN', aliases: ['ssrn', 'ssrn electronic journal'], preprint: true },
  { id: 'openreview', name: 'OpenReview', aliases: ['openreview', 'openreview net'], preprint: true },
];

const NOISE = new Set([
  'proceedings',
  'proc',
  'of',
  'the',
  'in',
  'on',
  'annual',
  'ieee',
  'cvf',
  'acm',
  'usenix',
  'international',
  'conference',
  'conf',
  'and',
  'th',
  'st',
  'nd',
  'rd',
  'volume',
  'vol',
  'workshops',
  'track',
]);

const BY_ALIAS = new Map<string, Venue>();
const BY_ACRONYM = new Map<string, Venue>();
for (const venue of VENUES) {
  for (const alias of venue.aliases) {
    BY_ALIAS.set(alias, venue);
    if (!alias.includes(' ')) BY_ACRONYM.set(alias, venue);
  }
}

/** The folded venue without years, ordinals, edition numbers and `Proceedings of the`. */
function stripVenue(venue: string): string {
  return foldText(venue)
    .replace(/\b(19|20)\d{2}\b/g, ' ')
    .replace(/\b\d+(st|nd|rd|th)?\b/g, ' ')
    .replace(
      /\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|[a-z]+teenth|[a-z]+ieth|[a-z]+ty [a-z]+(st|nd|rd|th))\b/g,
      ' ',
    )
    .replace(/^(in )?(the )?(proceedings|proc) (of )?(the )?/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** What a venue string names. */
export interface VenueIdentity {
  /** The canonical id of a known venue, or `null`. */
  readonly id: string | null;
  readonly preprint: boolean;
  /** The known venue's display name, or the input. */
  readonly name: string;
}

/** Identifies a venue: a known one by alias, acronym or its acronym in parentheses (`… (CVPR)`). */
export function identifyVenue(venue: string): VenueIdentity {
  const stripped = stripVenue(venue);
  const exact = BY_ALIAS.get(stripped);
  if (exact !== undefined) return known(exact);
  // `Advances in Neural Information Processing Systems 35`, `Findings of EMNLP`, `CVPR Workshops`…
  for (const [alias, candidate] of BY_ALIAS) {
    const longAlias = alias.split(' ').length >= 3;
    if (alias.includes(' ') && (stripped.startsWith(`${alias} `) || (longAlias && stripped.endsWith(` ${alias}`)))) return known(candidate);
  }
  const tokens = stripped.split(' ');
  const acronyms = tokens.map((token) => BY_ACRONYM.get(token)).filter((candidate): candidate is Venue => candidate !== undefined);
  const distinct = new Set(acronyms.map((candidate) => candidate.id));
  if (distinct.size === 1 && (acronyms[0] as Venue).id !== 'mlj') return known(acronyms[0] as Venue);
  return { id: null, preprint: false, name: venue };
}

function known(venue: Venue): VenueIdentity {
  return { id: venue.id, preprint: venue.preprint === true, name: venue.name };
}

/**
 * Whether `short` abbreviates `long` (ISO 4 style): each word of `short` is a prefix of a later
 * word of `long`, in order, and the significant words of `long` are all used.
 */
export function abbreviates(short: string, long: string): boolean {
  const shortWords = words(short).filter((word) => !NOISE.has(word));
  const longWords = words(long).filter((word) => !NOISE.has(word) && !/^\d+$/.test(word));
  if (shortWords.length === 0 || longWords.length === 0) return false;
  let at = 0;
  for (const word of shortWords) {
    while (at < longWords.length && !(longWords[at] as string).startsWith(word)) at += 1;
    if (at === longWords.length) return false;
    at += 1;
  }
  return shortWords.length === longWords.length;
}

/** Whether two venue strings name the same venue; `null` when neither side lets us tell. */
export function sameVenue(cited: string, recorded: string): boolean {
  const a = identifyVenue(cited);
  const b = identifyVenue(recorded);
  if (a.id !== null && b.id !== null) return a.id === b.id;
  const foldedA = stripVenue(cited);
  const foldedB = stripVenue(recorded);
  if (foldedA === foldedB) return true;
  if (abbreviates(cited, recorded) || abbreviates(recorded, cited)) return true;
  // A known venue against an unknown string that spells one of its aliases inside it.
  const knownSide = a.id !== null ? a : b.id !== null ? b : null;
  if (knownSide !== null) {
    const other = a.id !== null ? foldedB : foldedA;
    const venue = VENUES.find((candidate) => candidate.id === knownSide.id) as Venue;
    return venue.aliases.some((alias) => ` ${other} `.includes(` ${alias} `));
  }
  return false;
}
