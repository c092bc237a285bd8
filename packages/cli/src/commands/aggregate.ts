import { createHash } from 'node:crypto';
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import {
  type AggregatePolicy,
  AiwgCiteError,
  aggregateBundles,
  type Evidence,
  type QuoteCheck,
  validateAggregateInput,
} from '@aiwg-cite/core';
import { readRegularFile } from '@aiwg-cite/node';
import { parseChoice, parseCommandArgs } from '../args.ts';
import type { CliContext, Command } from '../context.ts';
import { aggregateMessages, inputMessages, usageMessages } from '../messages.ts';
import { parseJsonInput, readInput, usageError } from './interop-io.ts';

const HELP = `Usage: aiwg-cite aggregate FILE.json [options]

Combines verifier verdicts in citation-auditor's format. FILE holds {"verdicts": [bundle]}, one
bundle per (chunk, claim) with every verifier candidate {claim, verifier_name, authority, label,
rationale, evidence: [{url, title?, quote?, source?, source_text?}]}. Prints
{"aggregated": [{claim, verdict}]} with claim spans mapped to document offsets (code points).

The highest authority decides (exact equality); labels that differ at the top give unknown by
"conflict" with the merged evidence; no candidates give unknown by "none". Invalid candidates are
dropped, listed under "dropped" and counted on stderr, never repaired. A label other than
verified, contradicted or unknown rejects the whole file (exit 2). FILE may be - for stdin.

Verbatim quotes: a verified or contradicted candidate whose evidence[].quote does not occur in the
source text (normalised: NFKC, straight quotes, dashes, whitespace) is downgraded to unknown, with
the reason in "downgraded" and in the rationale. The source text is evidence[].source_text, else the
file evidence[].source under --sources DIR, else DIR/<first 16 hex of sha256(url)>.txt.

Options:
  --aggregate POLICY   authority (default): the top authority decides even when it says unknown;
                       prefer-definitive: an all-unknown top tier falls through to the highest
                       tier with a verified or contradicted label
  --sources DIR        fetched or cached source texts; a quote whose text is missing is downgraded
                       (without --sources such quotes are left unchecked and counted on stderr)
  --require-quotes     also downgrade verified/contradicted candidates that carry no quote
  -h, --help           show this help

Exit codes: 0 done, 2 usage or tool error (unreadable file, invalid JSON or schema, off-enum label).
`;

const POLICIES = ['authority', 'prefer-definitive'] as const;

/** `aiwg-cite aggregate`. */
export const aggregate: Command = {
  summary: 'combine verifier verdicts by authority, checking verbatim quotes (citation-auditor JSON)',
  async run(args: readonly string[], context: CliContext): Promise<number> {
    const { values, positionals } = parseCommandArgs('aggregate', args, {
      aggregate: { type: 'string' },
      sources: { type: 'string' },
      'require-quotes': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help === true) {
      context.stdout.write(HELP);
      return 0;
    }
    const [file, ...extra] = positionals;
    if (file === undefined || extra.length > 0) throw usageError('aggregate', usageMessages.aggregateOneFile());
    const policy: AggregatePolicy = parseChoice('aggregate', 'aggregate', values.aggregate, POLICIES, 'authority');
    const sourcesDir = values.sources === undefined ? undefined : openSources(resolve(context.cwd, values.sources), values.sources);

    const input = validateAggregateInput(parseJsonInput(await readInput(file, context), file));
    if (!input.ok) throw new AiwgCiteError('INPUT_UNREADABLE', `${file}: ${input.problem}`, { data: { path: file } });

    const quotes: QuoteCheck = {
      sourceText: (evidence) => (sourcesDir === undefined ? null : readSource(sourcesDir, evidence)),
      requireSourceText: sourcesDir !== undefined,
      requireQuotes: values['require-quotes'] === true,
    };
    const result = aggregateBundles(input.value.bundles, { policy, quotes });
    const dropped = input.value.dropped;
    context.stdout.write(
      `${JSON.stringify({ aggregated: result.aggregated, dropped, quote_check: result.quoteOutcomes, policy }, null, 2)}\n`,
    );

    if (dropped.length > 0) {
      context.stderr.write(`${aggregateMessages.dropped(dropped.length)}\n`);
      for (const item of dropped) context.stderr.write(`  ${item.reason}\n`);
    }
    const { downgraded, unchecked } = result.quoteOutcomes;
    if (downgraded > 0) {
      context.stderr.write(`${aggregateMessages.downgraded(downgraded)}\n`);
    }
    if (unchecked > 0) {
      context.stderr.write(`${aggregateMessages.quotesUnchecked(unchecked)}\n`);
    }
    return 0;
  },
};

function openSources(path: string, label: string): string {
  try {
    if (!statSync(path).isDirectory()) throw new Error('not a directory');
    return realpathSync.native(path);
  } catch (error) {
    throw new AiwgCiteError('INPUT_UNREADABLE', inputMessages.sourcesNotDirectory(label), { cause: error });
  }
}

const decoder = new TextDecoder('utf-8');

/** The source text of an evidence item under DIR, confined to DIR; `null` when there is none. */
function readSource(dir: string, evidence: Evidence): string | null {
  const name =
    typeof evidence.source === 'string' && evidence.source !== ''
      ? evidence.source
      : `${createHash('sha256').update(evidence.url).digest('hex').slice(0, 16)}.txt`;
  const target = resolve(dir, name);
  try {
    const canonical = realpathSync.native(target);
    const inside = relative(dir, canonical);
    if (inside.startsWith('..') || isAbsolute(inside)) return null;
    return decoder.decode(readRegularFile(join(dir, inside)));
  } catch {
    return null;
  }
}
