/**
 * Quote normalisation (SPEC §5.3): both a quote and its source are normalised the same way
 * before a case-sensitive substring match, so typography and line breaks never decide.
 */

const SINGLE_QUOTES = /[\u2018\u2019\u201A\u201B\u2032\u00B4]/g;
const DOUBLE_QUOTES = /[\u201C\u201D\u201E\u201F\u2033\u00AB\u00BB]/g;
const DASHES = /[\u2010\u2011\u2012\u2013\u2014\u2015\u2212]/g;

/** NFKC, straight quotes, `-` for every dash, no soft hyphens, joined `-\n` hyphenation, collapsed whitespace. */
export function normaliseQuoteText(text: string): string {
  return text
    .normalize('NFKC')
    .replace(SINGLE_QUOTES, "'")
    .replace(DOUBLE_QUOTES, '"')
    .replace(DASHES, '-')
    .replace(/\u00AD/g, '')
    .replace(/(\p{L})-[ \t]*\r?\n[ \t]*(\p{L})/gu, '$1$2')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * True when every segment of the quote (split at `…` or `...`) occurs in the source in order,
 * after both are normalised. `normalisedSource` must already be normalised.
 */
export function quoteOccursIn(quote: string, normalisedSource: string): boolean {
  const segments = quote
    .split(/\u2026|\.\.\./)
    .map(normaliseQuoteText)
    .filter((segment) => segment !== '');
  if (segments.length === 0) return false;
  let from = 0;
  for (const segment of segments) {
    const at = normalisedSource.indexOf(segment, from);
    if (at === -1) return false;
    from = at + segment.length;
  }
  return true;
}
