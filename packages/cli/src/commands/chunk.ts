import { chunkMarkdown, DEFAULT_MAX_TOKENS } from '@aiwg-cite/core';
import { confineExplicitFile, resolveWorkspace } from '@aiwg-cite/node';
import { parseCommandArgs, parseCount } from '../args.ts';
import type { CliContext, Command } from '../context.ts';
import { usageMessages } from '../messages.ts';
import { decodeExact, readInput, usageError } from './interop-io.ts';

const HELP = `Usage: aiwg-cite chunk FILE.md [--max-tokens N] [--root DIR]

Splits a markdown file into chunks of whole blocks for an LLM claim extractor, in the JSON of
citation-auditor's \`chunk\`: {"chunks": [{index, text, segments: [{chunk_start, chunk_end,
document_start, document_end}]}]}. Offsets are Unicode code points. A chunk restarts at the
last paragraph of the previous one. FILE may be - for standard input; otherwise it must lie
inside the root, as check's paths must (a symlink that leads out is refused).

Options:
  --max-tokens N       token budget of a chunk, tokens = ceil(characters / 4) (default ${DEFAULT_MAX_TOKENS})
  --root DIR           project root (default: the git top level, else the current directory)
  -h, --help           show this help

Exit codes: 0 done, 2 usage or tool error.
`;

/** `aiwg-cite chunk`. */
export const chunk: Command = {
  summary: 'split markdown into block-aligned chunks with an offset table (citation-auditor JSON)',
  async run(args: readonly string[], context: CliContext): Promise<number> {
    const { values, positionals } = parseCommandArgs('chunk', args, {
      'max-tokens': { type: 'string' },
      root: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help === true) {
      context.stdout.write(HELP);
      return 0;
    }
    const [file, ...extra] = positionals;
    if (file === undefined || extra.length > 0) throw usageError('chunk', usageMessages.chunkOneFile());
    const maxTokens = parseCount('chunk', 'max-tokens', values['max-tokens']) ?? DEFAULT_MAX_TOKENS;
    if (maxTokens < 1) throw usageError('chunk', usageMessages.maxTokensAtLeastOne());
    if (file !== '-') confineExplicitFile(resolveWorkspace(context.cwd, values.root).root, context.cwd, file);
    const text = decodeExact(await readInput(file, context), file);
    context.stdout.write(`${JSON.stringify({ chunks: chunkMarkdown(text, { maxTokens }) }, null, 2)}\n`);
    return 0;
  },
};
