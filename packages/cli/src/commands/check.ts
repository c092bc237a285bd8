import { type CheckOptions, checkDocuments, rlmChecker } from '@aiwg-cite/core';
import { createNodeReader, discoverDocuments, nodeSha256, resolveWorkspace } from '@aiwg-cite/node';
import { parseChoice, parseCommandArgs, parseCount } from '../args.ts';
import { paletteFor } from '../color.ts';
import type { CliContext, Command } from '../context.ts';
import { formatJson } from '../format/json.ts';
import { formatPretty } from '../format/pretty.ts';

const HELP = `Usage: aiwg-cite check [paths...] [options]

Checks the citations in markdown files. With no paths, every markdown file under the root
that git does not ignore (outside git: every .md file outside node_modules).

Options:
  --root DIR           project root (default: the git top level, else the current directory)
  --format FORMAT      pretty (default) or json
  --strict             warnings (stale, un-versioned, malformed) fail the run; also AIWG_CITE_STRICT=1
  --max-warnings N     fail when there are more than N warnings
  --rlm                RLM code citations only
  --include-code       also check citations inside code blocks and code spans
  -h, --help           show this help

Exit codes: 0 pass, 1 fail, 2 usage or tool error.
`;

const FORMATS = ['pretty', 'json'] as const;

/** `aiwg-cite check`. */
export const check: Command = {
  summary: 'check the citations in markdown files',
  async run(args: readonly string[], context: CliContext): Promise<number> {
    const { values, positionals } = parseCommandArgs('check', args, {
      root: { type: 'string' },
      format: { type: 'string' },
      strict: { type: 'boolean' },
      'max-warnings': { type: 'string' },
      rlm: { type: 'boolean' },
      'include-code': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help === true) {
      context.stdout.write(HELP);
      return 0;
    }
    const format = parseChoice('check', 'format', values.format, FORMATS, 'pretty');
    const maxWarnings = parseCount('check', 'max-warnings', values['max-warnings']);
    const strict = values.strict === true || isTruthy(context.env.AIWG_CITE_STRICT);
    const options: CheckOptions = {
      strict,
      includeCode: values['include-code'] === true,
      ...(maxWarnings === undefined ? {} : { maxWarnings }),
    };

    const workspace = resolveWorkspace(context.cwd, values.root);
    const documents = discoverDocuments(workspace, context.cwd, positionals);
    const report = await checkDocuments({
      reader: createNodeReader(workspace.root),
      documents,
      sha256: nodeSha256,
      options,
      checkers: [rlmChecker],
    });

    context.stdout.write(format === 'json' ? formatJson(report) : formatPretty(report, paletteFor(context.stdout, context.env)));
    return report.verdict === 'PASS' ? 0 : 1;
  },
};

function isTruthy(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}
