import { AiwgCiteError, isAiwgCiteError } from '@aiwg-cite/core';
import packageJson from '../package.json' with { type: 'json' };
import { COMMANDS } from './commands/registry.ts';
import type { CliContext } from './context.ts';

const USAGE = `Usage: aiwg-cite <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, entry]) => `  ${name.padEnd(10)} ${entry.summary}`)
  .join('\n')}

Run \`aiwg-cite <command> --help\` for a command's options.
Exit codes: 0 pass, 1 findings that fail the run, 2 usage or tool error.
`;

/** Runs the CLI and returns its exit code. Never calls `process.exit`. */
export async function main(argv: readonly string[], context: CliContext): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    context.stdout.write(USAGE);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    context.stdout.write(`${packageJson.version}\n`);
    return 0;
  }
  const entry = COMMANDS[name];
  try {
    if (entry === undefined) throw new AiwgCiteError('USAGE', `unknown command \`${name}\`; run \`aiwg-cite --help\``);
    const command = await entry.load();
    return await command.run(rest, context);
  } catch (error) {
    context.stderr.write(`aiwg-cite: ${describeFailure(error)}\n`);
    return 2;
  }
}

function describeFailure(error: unknown): string {
  if (isAiwgCiteError(error)) return error.message;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) return (error as Error).message;
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return `internal error: ${message}`;
}
