import process from 'node:process';
import { main } from './main.ts';

// The only place that ends the process: 0 pass, 1 findings, 2 failure.
const code = await main(process.argv.slice(2), {
  cwd: process.cwd(),
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
});
process.exitCode = code;
