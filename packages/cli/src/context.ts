/** A writable text stream (stdout or stderr). */
export interface Output {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
  readonly rows?: number;
}

/** Everything a command may touch of its process; injected so commands are testable in-process. */
export interface CliContext {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdout: Output;
  readonly stderr: Output;
  readonly stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
}

/** A subcommand: parses its own arguments and returns the exit code. */
export interface Command {
  readonly summary: string;
  run(args: readonly string[], context: CliContext): Promise<number>;
}
