/**
 * Documents on which the model once disagreed with the reference, each named by how it was found
 * (the random-document property and its seed) and by the class of markdown it stands for. The
 * differential places both probes at every position of each.
 */
import type { Example } from './gfm-examples.ts';

const regression = (section: string, markdown: string): Example => ({ source: 'regression', section, markdown });

export const REGRESSION_EXAMPLES: readonly Example[] = [
  // A line indented 4+ columns right after a table is indented code, not a row (micromark tries
  // indented code before a body row; a continuation line of a paragraph would stay text).
  regression('table then an indented line', '| a |\n| - |\n    foo\n| c |\n'),
  regression('table then a tab-indented line', 'a\n| - |\n\tfoo\n'),
  // Seeds -582964325 and 1152266048: a table may interrupt a paragraph; its head is the
  // paragraph's last line and the lines before stay a paragraph.
  regression('table headed by a paragraph line', 'a\nb\n| - |\n\tfoo\n'),
  regression('table headed by a paragraph line', '*foo*bar\nh1 {color:red;}\n| - |\nrow\n'),
  regression('no table after a line indented 4+ columns', 'a\n    b | c\n| - | - |\n\tfoo\n'),
  regression('table after definitions', '[a]: /u\n| b |\n| - |\n    c\n'),
  // Seeds 1042531710 and -1923507479: emphasis ends the text node the GFM address transform
  // reads, so the address stops at a used `*`, `_` or `~` (the brackets keep the syntax away).
  regression('address transform and emphasis', '[x\nwww.e.com/a*b c*\n'),
  regression('address transform and emphasis', '[ _x@y.com_ and __a@b.co__\n'),
  regression('address transform and strikethrough', '[ ~x@y.com~ and ~~www.e.com/a~~b\n'),
  regression('address transform: the first construct met resolves first', '[ ~a *b~ c@d.com*\n[ *a ~b* c@d.com~\n'),
  regression('address transform: flanking beside an emoji', '[ www.e.com/a_😀*b c*!\n'),
  // Inline-token seeds 41-46: the transform reads decoded values, so a numeric character reference
  // is the character it names there (`&#32;` ends an address, `&#64;` makes one); an escaped `&`
  // starts none. Named references are not decoded by the model (no entity table in the core).
  regression('address transform and character references', '(u)www.e.co&#32;x and (u)a&#64;b.com y\n'),
  regression('address transform and character references', '[ www.e.co/&#x2E;a&#9;b \\&#32;c&#0;\n'),
];
