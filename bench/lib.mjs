// Shared helpers for `pnpm bench`: whole-process timings, medians, and a markdown table.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateRlmCorpus } from './corpus-gen.mjs';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const CLI = join(ROOT, 'packages/cli/dist/cli.js');
export const WORK = join(ROOT, 'bench/.work');

/** A fixed git identity and no user or system config, for repositories the benchmarks build. */
export const BENCH_GIT_ENV = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@example.test',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@example.test',
};

/** A fresh scratch directory under bench/.work (git-ignored). */
export function scratch(name) {
  const dir = join(WORK, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Files under `directory` whose names end in `suffix`, `.git` left out, in directory order. */
export function listFiles(directory, suffix, out = []) {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory() && entry.name !== '.git') listFiles(path, suffix, out);
    else if (entry.isFile() && path.endsWith(suffix)) out.push(path);
  }
  return out;
}

/**
 * The issue 2 corpus (2,000 markdown files, 50,000 RLM citations, 5,000 source files) in a fresh
 * scratch directory: its statistics, and the markdown and source files it wrote.
 */
export function rlmCorpus(name) {
  const dir = scratch(name);
  const stats = generateRlmCorpus(dir);
  return { dir, stats, markdown: listFiles(dir, '.md'), sources: listFiles(dir, '.ts') };
}

/** Runs a command `runs` times (after `warmup` untimed runs) and returns the timings in ms. */
export function timeCommand(command, args, { cwd, env = {}, runs = 7, warmup = 1, input, okCodes = [0, 1] } = {}) {
  const samples = [];
  for (let run = 0; run < warmup + runs; run += 1) {
    const start = process.hrtime.bigint();
    const result = spawnSync(command, args, {
      cwd,
      env: { ...process.env, ...env },
      input,
      stdio: ['pipe', 'ignore', 'pipe'],
      shell: false,
    });
    const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
    if (!okCodes.includes(result.status ?? -1)) {
      throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${String(result.stderr).slice(0, 500)}`);
    }
    if (run >= warmup) samples.push(elapsed);
  }
  return summarise(samples);
}

/**
 * Times several commands in turns (one run of each, then the next round), so a machine whose load
 * changes during the run weighs on every command alike: paired medians. `commands` maps a name to
 * `[command, args, options]` as {@link timeCommand} takes them, where `options.before` is untimed
 * work done before each of the command's runs; one untimed warm-up round first.
 */
export function timeInterleaved(commands, runs = 5) {
  const samples = Object.fromEntries(Object.keys(commands).map((name) => [name, []]));
  for (let round = 0; round < 1 + runs; round += 1) {
    for (const [name, [command, args, { before, ...options } = {}]] of Object.entries(commands)) {
      // Untimed work before each run (an edit the run is to find).
      before?.();
      const timing = timeCommand(command, args, { ...options, runs: 1, warmup: 0 });
      if (round > 0) samples[name].push(timing.median);
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([name, list]) => [name, summarise(list)]));
}

/** Median, p95, min and max of samples in ms. */
export function summarise(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { runs: sorted.length, median: at(0.5), p95: at(0.95), min: sorted[0], max: sorted[sorted.length - 1] };
}

/** Formats ms with one decimal. */
export const ms = (value) => `${value.toFixed(1)} ms`;

/** A markdown table from a header and rows. */
export function table(header, rows) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
