/**
 * Examples of the GitHub Flavored Markdown extensions (tables, task list items, strikethrough,
 * autolink literals, footnotes) and of the frontmatter and math extensions the reference parser
 * uses. Written for this project after the rules of the GFM spec (https://github.github.com/gfm/);
 * the CommonMark examples come from the `commonmark-spec` package.
 */
export interface Example {
  readonly source: string;
  readonly section: string;
  readonly markdown: string;
}

const example = (section: string, markdown: string): Example => ({ source: 'gfm', section, markdown });

export const GFM_EXAMPLES: readonly Example[] = [
  example('tables', '| one | two |\n| --- | --- |\n| left | right |\n'),
  example('tables', '| a | b |\n|:-|-:|\n| `code | pipe` | x |\n'),
  example('tables', 'a | b\n--|--\nc | d\ne\n'),
  example('tables', '| x |\n| - |\n| \\| escaped |\n\nafter\n'),
  example('tables', '| h | i |\n| --- |\n| not a table |\n'),
  example('tables', '> | q | r |\n> | - | - |\n> | s | t |\nlazy\n'),
  example('tables', '- | l | m |\n  | - | - |\n  | n | o |\n'),
  example('tables', 'para\n| p | q |\n| - | - |\n| r | s |\n'),
  example('tables', '| a |\n| - |\n| b |\n    indented\n| c |\n'),
  example('tables', '|a|b|\n|-|-|\n|<span>x</span>|[l](u)|\n'),
  example('tables', '| a |\n|---|\n\n    code\n'),
  example('tables', '| h |\n|---|\n| [x] | y | z |\n# head\n'),
  example('task list', '- [ ] open\n- [x] done\n* [X] also\n'),
  example('task list', '1. [ ] numbered\n   text\n'),
  example('strikethrough', '~~struck~~ and ~single~ and ~~~three~~~\n'),
  example('strikethrough', '~~across\nlines~~ and \\~~escaped~~\n'),
  example('autolink literals', 'see www.example.com/path?q=1 and http://example.org/a_(b) now.\n'),
  example('autolink literals', 'mail someone@example.com or a.b-c_d@e.co, not @handle.\n'),
  example('autolink literals', 'https://example.com/x). and (www.example.com/y) and https://e.com/&amp;\n'),
  example('autolink literals', 'xmpp:me@example.com/r and mailto:you@example.com\n'),
  example('autolink literals', '`www.code.com` <www.angle.com> [www.link.com](u)\n'),
  example('autolink literals', 'www.e.com/a<b and http://e.com/"q" and www.e.com/a*b*\n'),
  example('footnotes', 'Text[^1] and more[^note].\n\n[^1]: The first.\n[^note]: A note\n    with a second paragraph line.\n'),
  example('footnotes', '[^a]:\n    code in a footnote?\n\n[^b]: text\n\n        indented code\n'),
  example('footnotes', '> [^q]: quoted footnote\n\n- [^l]: in a list\n'),
  example('footnotes', '[^x]\n\n[^x]: defined later\n[^y]: lazy\ncontinuation\n'),
  example('footnotes', 'Unused [^nope] marker and [^] empty and [^ space].\n'),
  example('frontmatter', '---\ntitle: A [x]\nlist:\n  - b\n---\n\n# Body\n'),
  example('frontmatter', '+++\ntitle = "[y]"\n+++\ntext\n'),
  example('frontmatter', '---\nnot closed\n\ntext\n'),
  example('frontmatter', 'text\n---\nnot: frontmatter\n---\n'),
  example('math', 'Inline $a + b$ and $$c$$ and \\$5 and $ 6 $.\n'),
  example('math', '$$\nx = [y]\n$$\n\nafter\n'),
  example('math', '> $$\n> q\n\nunclosed\n'),
  example('math', 'Costs $5 and $10 here.\n'),
  example('math', '$$ not closed\ntext\n'),
  example(
    'mixed',
    '# Title\n\nText with `code`, <b>html</b>, [link](dest "title") and ![img](src).\n\n<!-- a comment -->\n\n    indented\n\n```js\nfenced\n```\n',
  ),
  example('mixed', '1. item\n\n   ```\n   code\n   ```\n2. next\n   > quote\n   lazy line\n'),
  example('mixed', '[ref]: /url "title"\n[other]:\n  <dest>\n  \'t\'\n\n[ref] and [other][] and [none]\n'),
  example('mixed', 'A line ending in spaces  \nnext\\\nlast\r\nCR line\rafter CR\n'),
  example('mixed', '<<< @/snippets/a.ts#region [Title]\n\n::: tip\n[note]\n:::\n'),
  example('mixed', '<details>\n<summary>s</summary>\n\nbody\n\n</details>\n'),
];
