#!/usr/bin/env node
// The precision table of issue 14: each snapshot of ../shared/corpora/realworld is unpacked into a
// temporary git repository (as its README says), and the built CLI's default check (and
// `--profile all` when the CLI has profiles) runs there. Prints per repository: errors, warnings and
// infos by rule, default output lines and wall time.
//
//   node scripts/realworld.mjs [--only NAME[,NAME]] [--json FILE] [--keep DIR]
//
// The snapshots are read in place, never copied into this repository. Without ../shared the script
// says so on one line and exits 0.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '..');
const cli = join(repoRoot, 'packages/cli/dist/cli.js');
function sharedFromEnv() {
  const { AIWG_CITE_SHARED: named } = process.env;
  return named;
}

/** `$AIWG_CITE_SHARED`, `../shared` beside this checkout, or beside the main checkout when this is a git worktree. */
function sharedDir() {
  const named = sharedFromEnv();
  if (named) return resolve(named, 'corpora/realworld');
  const beside = resolve(repoRoot, '../shared/corpora/realworld');
  if (existsSync(join(beside, 'manifest.json'))) return beside;
  const common = spawnSync('git', ['rev-parse', '--path-format=absolute', '--git-common-dir'], { cwd: repoRoot, encoding: 'utf8' });
  if (common.status !== 0) return beside;
  const main = resolve(dirname(common.stdout.trim()), '../shared/corpora/realworld');
  return existsSync(main) ? main : beside;
}
const shared = sharedDir();

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    json: { type: 'string' },
    keep: { type: 'string' },
  },
});

if (!existsSync(shared)) {
  console.log(`realworld: skipped, ${shared} is absent (the snapshots live next to a checkout, not in it)`);
  process.exit(0);
}
if (!existsSync(cli)) {
  console.error('realworld: packages/cli/dist/cli.js is missing; run `pnpm build` first');
  process.exit(2);
}

const ORDER = ['adr', 'vite', 'prettier', 'ml-papers', 'awesome-llm', 'deep-review', 'aiwg', 'fortemi', 'aflack'];
const available = readdirSync(shared)
  .filter((name) => name.endsWith('.tar.xz'))
  .map((name) => name.slice(0, -'.tar.xz'.length));
const names = [...ORDER.filter((name) => available.includes(name)), ...available.filter((name) => !ORDER.includes(name)).sort()];
const only = values.only?.split(',').filter(Boolean);
const selected = only === undefined ? names : names.filter((name) => only.includes(name));

const base = values.keep === undefined ? mkdtempSync(join(tmpdir(), 'aiwg-cite-realworld-')) : resolve(values.keep);
mkdirSync(base, { recursive: true });
const env = { ...process.env, NO_COLOR: '1', AIWG_CITE_DATE: '2026-11-25' };
delete env.FORCE_COLOR;
delete env.AIWG_CITE_STRICT;

const hasProfiles = spawnSync(process.execPath, [cli, 'check', '--help'], { encoding: 'utf8' }).stdout.includes('--profile');

/** Unpacks one snapshot and commits it, the way a user's checkout looks. */
function unpack(name, into) {
  const dir = join(into, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync('tar', ['-xJf', join(shared, `${name}.tar.xz`), '-C', dir]);
  const git = (...args) => execFileSync('git', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  git('init', '-q');
  git('add', '-A', '-f');
  git('-c', 'user.name=x', '-c', 'user.email=x@example.invalid', 'commit', '-qm', 'snapshot', '--no-verify');
  return dir;
}

function run(dir, args) {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [cli, 'check', ...args], { cwd: dir, env, encoding: 'utf8', maxBuffer: 1 << 30 });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0 && result.status !== 1) {
    throw new Error(`check ${args.join(' ')} in ${dir} exited ${result.status}: ${result.stderr.trim().split('\n')[0]}`);
  }
  return { stdout: result.stdout, stderr: result.stderr, ms, status: result.status };
}

function tally(report) {
  const byRule = {};
  const counts = { error: 0, warning: 0, info: 0 };
  for (const finding of report.citations) {
    if (!(finding.severity in counts)) continue;
    counts[finding.severity] += 1;
    const key = `${finding.severity} ${finding.rule}`;
    byRule[key] = (byRule[key] ?? 0) + 1;
  }
  return { ...counts, byRule };
}

function measure(dir, profileArgs) {
  const pretty = run(dir, profileArgs);
  const json = run(dir, [...profileArgs, '--format', 'json']);
  const report = JSON.parse(json.stdout);
  const lines = (pretty.stdout + pretty.stderr).split('\n').filter((line, index, all) => line !== '' || index < all.length - 1).length;
  return { ...tally(report), lines, ms: Math.round(pretty.ms), findings: report.citations.filter((f) => f.severity !== 'ok') };
}

const rows = [];
for (const name of selected) {
  const dir = unpack(name, base);
  const row = { name, default: measure(dir, []) };
  if (hasProfiles) row.all = measure(dir, ['--profile', 'all']);
  rows.push(row);
  const d = row.default;
  process.stderr.write(`${name}: ${d.error} errors, ${d.warning} warnings, ${d.info} infos, ${d.lines} lines, ${d.ms} ms\n`);
}

const out = [];
const header = hasProfiles
  ? '| repository | errors | warnings | infos | lines | time | all: errors | all: warnings | all: infos |'
  : '| repository | errors | warnings | infos | lines | time |';
out.push(header, header.replace(/[^|]+/g, '---'));
for (const row of rows) {
  const d = row.default;
  const cells = [row.name, d.error, d.warning, d.info, d.lines, `${(d.ms / 1000).toFixed(1)} s`];
  if (row.all !== undefined) cells.push(row.all.error, row.all.warning, row.all.info);
  out.push(`| ${cells.join(' | ')} |`);
}
out.push('');
for (const row of rows) {
  for (const [label, result] of [
    ['default', row.default],
    ['all', row.all],
  ]) {
    if (result === undefined) continue;
    const rules = Object.entries(result.byRule).sort(([a], [b]) => (a < b ? -1 : 1));
    out.push(`${row.name} (${label}): ${rules.length === 0 ? 'nothing' : rules.map(([rule, count]) => `${rule} ${count}`).join(', ')}`);
  }
}
console.log(out.join('\n'));

if (values.json !== undefined) {
  writeFileSync(values.json, `${JSON.stringify({ profiles: hasProfiles, rows }, null, 1)}\n`);
  process.stderr.write(`realworld: findings written to ${values.json}\n`);
}
if (values.keep === undefined) rmSync(base, { recursive: true, force: true });
