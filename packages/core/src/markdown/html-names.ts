/** The tag names of CommonMark HTML blocks of type 6 (https://spec.commonmark.org/0.31.2/#html-blocks). */
const BLOCK_NAMES = new Set(
  (
    'address article aside base basefont blockquote body caption center col colgroup dd details dialog dir div dl dt ' +
    'fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hr html iframe legend li link ' +
    'main menu menuitem nav noframes ol optgroup option p param search section summary table tbody td tfoot th thead ' +
    'title tr track ul'
  ).split(' '),
);

/** The tag names of HTML blocks of type 1, whose content runs to the matching end tag. */
const RAW_NAMES = new Set(['pre', 'script', 'style', 'textarea']);

export function isHtmlBlockName(lowerName: string): boolean {
  return BLOCK_NAMES.has(lowerName);
}

export function isHtmlRawName(lowerName: string): boolean {
  return RAW_NAMES.has(lowerName);
}
