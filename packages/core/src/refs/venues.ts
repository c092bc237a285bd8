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

/**
 * The known venues, one a line: `id | display name | the names it goes by (acronyms first)`, as
 * folded text. An id marked `*` is a preprint server: citing one is citing an unreviewed version.
 */
const VENUE_TABLE = `
neurips | Advances in Neural Information Processing Systems | neurips; nips; advances in neural information processing systems; neural information processing systems; conference on neural information processing systems
icml | International Conference on Machine Learning | icml; international conference on machine learning
iclr | International Conference on Learning Representations | iclr; international conference on learning representations
cvpr | IEEE/CVF Conference on Computer Vision and Pattern Recognition | cvpr; computer vision and pattern recognition; conference on computer vision and pattern recognition
iccv | IEEE/CVF International Conference on Computer Vision | iccv; international conference on computer vision
eccv | European Conference on Computer Vision | eccv; european conference on computer vision
wacv | IEEE/CVF Winter Conference on Applications of Computer Vision | wacv; winter conference on applications of computer vision
bmvc | British Machine Vision Conference | bmvc; british machine vision conference
aaai | AAAI Conference on Artificial Intelligence | aaai; aaai conference on artificial intelligence; proceedings of the aaai conference on artificial intelligence
ijcai | International Joint Conference on Artificial Intelligence | ijcai; international joint conference on artificial intelligence
uai | Conference on Uncertainty in Artificial Intelligence | uai; uncertainty in artificial intelligence; conference on uncertainty in artificial intelligence
aistats | International Conference on Artificial Intelligence and Statistics | aistats; international conference on artificial intelligence and statistics; artificial intelligence and statistics
colt | Conference on Learning Theory | colt; conference on learning theory; annual conference on learning theory
alt | International Conference on Algorithmic Learning Theory | alt; algorithmic learning theory
acl | Annual Meeting of the Association for Computational Linguistics | acl; annual meeting of the association for computational linguistics; association for computational linguistics
emnlp | Conference on Empirical Methods in Natural Language Processing | emnlp; empirical methods in natural language processing
naacl | North American Chapter of the Association for Computational Linguistics | naacl; naacl hlt; north american chapter of the association for computational linguistics
eacl | Conference of the European Chapter of the Association for Computational Linguistics | eacl; european chapter of the association for computational linguistics
coling | International Conference on Computational Linguistics | coling; international conference on computational linguistics
tacl | Transactions of the Association for Computational Linguistics | tacl; transactions of the association for computational linguistics; trans assoc comput linguistics
kdd | ACM SIGKDD Conference on Knowledge Discovery and Data Mining | kdd; sigkdd; knowledge discovery and data mining
www | The Web Conference | www; the web conference; world wide web conference; web conference
sigir | International ACM SIGIR Conference on Research and Development in Information Retrieval | sigir; research and development in information retrieval
wsdm | ACM International Conference on Web Search and Data Mining | wsdm; web search and data mining
cikm | ACM International Conference on Information and Knowledge Management | cikm; information and knowledge management
icdm | IEEE International Conference on Data Mining | icdm; international conference on data mining
icde | IEEE International Conference on Data Engineering | icde; international conference on data engineering
sigmod | Proceedings of the ACM on Management of Data | sigmod; proc acm manag data; proceedings of the acm on management of data; management of data
vldb | Proceedings of the VLDB Endowment | vldb; pvldb; proc vldb endow; proceedings of the vldb endowment
chi | CHI Conference on Human Factors in Computing Systems | chi; human factors in computing systems
ccs | ACM Conference on Computer and Communications Security | ccs; computer and communications security
sosp | Symposium on Operating Systems Principles | sosp; symposium on operating systems principles
osdi | USENIX Symposium on Operating Systems Design and Implementation | osdi; operating systems design and implementation
soups | Symposium on Usable Privacy and Security | soups; symposium on usable privacy and security
usenix-security | USENIX Security Symposium | usenix security; usenix security symposium
sp | IEEE Symposium on Security and Privacy | ieee s p; symposium on security and privacy
ndss | Network and Distributed System Security Symposium | ndss; network and distributed system security symposium
tog | ACM Transactions on Graphics | tog; acm trans graph; acm transactions on graphics; siggraph
icra | IEEE International Conference on Robotics and Automation | icra; international conference on robotics and automation
iros | IEEE/RSJ International Conference on Intelligent Robots and Systems | iros; intelligent robots and systems
corl | Conference on Robot Learning | corl; conference on robot learning
icassp | IEEE International Conference on Acoustics, Speech and Signal Processing | icassp; acoustics speech and signal processing
interspeech | Interspeech | interspeech
miccai | Medical Image Computing and Computer Assisted Intervention | miccai; medical image computing and computer assisted intervention
mlsys | Conference on Machine Learning and Systems | mlsys; machine learning and systems
aamas | International Conference on Autonomous Agents and Multiagent Systems | aamas; autonomous agents and multiagent systems
jmlr | Journal of Machine Learning Research | jmlr; j mach learn res; journal of machine learning research
tmlr | Transactions on Machine Learning Research | tmlr; trans mach learn res; transactions on machine learning research
mlj | Machine Learning | mach learn; machine learning
tpami | IEEE Transactions on Pattern Analysis and Machine Intelligence | tpami; pami; ieee trans pattern anal mach intell; transactions on pattern analysis and machine intelligence
ijcv | International Journal of Computer Vision | ijcv; int j comput vis; international journal of computer vision
tnnls | IEEE Transactions on Neural Networks and Learning Systems | tnnls; transactions on neural networks and learning systems
nature | Nature | nature
science | Science | science
pnas | Proceedings of the National Academy of Sciences | pnas; proc natl acad sci; proceedings of the national academy of sciences
arxiv* | arXiv | arxiv; corr; arxiv preprint; arxiv cornell university; arxiv org
biorxiv* | bioRxiv | biorxiv; biorxiv the preprint server for biology
medrxiv* | medRxiv | medrxiv; medrxiv the preprint server for health sciences
ssrn* | SSRN | ssrn; ssrn electronic journal
openreview* | OpenReview | openreview; openreview net
`;

const VENUES: readonly Venue[] = VENUE_TABLE.trim()
  .split('\n')
  .map((line) => {
    const [id = '', name = '', aliases = ''] = line.split(' | ');
    const preprint = id.endsWith('*');
    return { id: preprint ? id.slice(0, -1) : id, name, aliases: aliases.split('; '), ...(preprint ? { preprint } : {}) };
  });

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
