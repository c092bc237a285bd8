import { type Dirent, existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import {
  AiwgCiteError,
  appendAll,
  type BibliographyEntry,
  type CorpusFile,
  CorpusIndex,
  type MentionResolution,
  type MentionResolver,
  parseBibtex,
  parseCslJson,
} from '@aiwg-cite/core';
import { toPosix } from './discover.ts';
import { readRegularFile } from './fs.ts';
import { gitListFiles } from './git-files.ts';
import { fileMessages } from './messages.ts';

/** The default corpus roots (SPEC §3.1): under the `.aiwg/` directory, and `docs/references`. */
export const DEFAULT_AIWG_CORPUS_DIRS: readonly string[] = ['sources', 'findings', 'paper-analysis', 'corpus', 'knowledge'].map(
  (name) => `.aiwg/research/${name}`,
);

/** Options of {@link loadCorpus}. */
export interface LoadCorpusOptions {
  /** The canonical project root. */
  readonly root: string;
  /** Whether the root is a git work tree (bibliography discovery honours .gitignore). */
  readonly isGit: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Corpus roots relative to the root (or absolute); `.aiwg/…` ones move with the aiwg directory. @default the SPEC §3.1 roots */
  readonly dirs?: readonly string[];
  /** Bibliography files relative to the root. @default every `*.bib` and `*.csl.json` git does not ignore */
  readonly bibliography?: readonly string[];
}

/**
 * The `.aiwg/` directory (SPEC §2.3 item 4): the first of `AIWG_ARTIFACTS_PATH`,
 * `AIWG_PROJECT_ARTIFACTS_PATH`, `AIWG_PROJECT_AIWG_DIR`, the path in `.aiwg-location`, and
 * `<root>/.aiwg`. It may lie outside the root.
 */
export function resolveAiwgDir(root: string, env: Readonly<Record<string, string | undefined>>): string {
  for (const name of ['AIWG_ARTIFACTS_PATH', 'AIWG_PROJECT_ARTIFACTS_PATH', 'AIWG_PROJECT_AIWG_DIR']) {
    const value = env[name];
    if (value !== undefined && value.trim() !== '') return toPosix(resolve(root, value.trim()));
  }
  const location = join(root, '.aiwg-location');
  if (existsSync(location)) {
    const value = readRegularFile(location).toString('utf8').trim();
    if (value !== '') return toPosix(resolve(root, value));
  }
  return `${root}/.aiwg`;
}

/** Maps a root-relative path to disk, sending `.aiwg/…` to the aiwg directory. */
function locate(root: string, aiwgDir: string, path: string): string {
  if (isAbsolute(path)) return toPosix(path);
  const clean = path.replace(/^\.\/+/, '').replace(/\/+$/, '');
  if (clean === '.aiwg' || clean.startsWith('.aiwg/')) return aiwgDir + clean.slice('.aiwg'.length);
  return toPosix(resolve(root, clean));
}

/** Reads the corpus, GRADE assessments and bibliographies once and indexes them. */
export async function loadCorpus(options: LoadCorpusOptions): Promise<CorpusIndex> {
  const { root, env } = options;
  const aiwgDir = resolveAiwgDir(root, env);
  const dirs = options.dirs ?? [...DEFAULT_AIWG_CORPUS_DIRS, 'docs/references'];
  const roots: { path: string; exists: boolean }[] = [];
  const files: CorpusFile[] = [];
  const metadata: CorpusFile[] = [];
  const seen = new Set<string>();
  for (const dir of dirs) {
    const absolute = locate(root, aiwgDir, dir);
    const exists = isDirectory(absolute);
    roots.push({ path: dir.replace(/\/+$/, ''), exists });
    if (!exists) continue;
    walk(absolute, (path) => {
      if (seen.has(path)) return;
      seen.add(path);
      const name = path.slice(path.lastIndexOf('/') + 1);
      const display = displayPath(root, path);
      if (/\.(md|markdown)$/i.test(name)) files.push({ path: display, text: readRegularFile(path).toString('utf8') });
      else if (/-metadata\.json$/.test(name)) metadata.push({ path: display, text: readRegularFile(path).toString('utf8') });
    });
  }
  const assessments: CorpusFile[] = [];
  const assessmentDir = `${aiwgDir}/research/quality-assessments`;
  if (isDirectory(assessmentDir)) {
    for (const name of readdirSync(assessmentDir).sort()) {
      if (/\.ya?ml$/.test(name))
        assessments.push({
          path: displayPath(root, `${assessmentDir}/${name}`),
          text: readRegularFile(`${assessmentDir}/${name}`).toString('utf8'),
        });
    }
  }
  const bibliography = await loadBibliographies(root, options.isGit, options.bibliography);
  return new CorpusIndex({ roots, files, metadata, assessments, bibliography });
}

/** Reads bibliography files; a file that cannot be parsed is a usage error naming it. */
export async function loadBibliographies(
  root: string,
  isGit: boolean,
  explicit: readonly string[] | undefined,
): Promise<BibliographyEntry[]> {
  const paths = explicit ?? discoverBibliographies(root, isGit);
  const entries: BibliographyEntry[] = [];
  for (const path of paths) {
    const absolute = resolve(root, path);
    let text: string;
    try {
      text = readRegularFile(absolute).toString('utf8');
    } catch {
      throw new AiwgCiteError('INPUT_UNREADABLE', `${path}: ${fileMessages.bibliographyUnreadable()}`, { data: { path } });
    }
    const result = /\.json$/i.test(path) ? parseCslJson(path, text) : await parseBibtex(path, text);
    if (!result.ok) throw new AiwgCiteError('INPUT_UNREADABLE', `${path}: ${result.problem}`, { data: { path } });
    appendAll(entries, result.entries);
  }
  return entries;
}

function discoverBibliographies(root: string, isGit: boolean): string[] {
  if (isGit)
    return gitListFiles(root, ['*.bib', '*.csl.json'])
      .filter((path) => !path.split('/').includes('node_modules') && existsSync(join(root, path)))
      .sort();
  const out: string[] = [];
  walk(root, (path) => {
    if (/\.(bib|csl\.json)$/i.test(path)) out.push(displayPath(root, path));
  });
  return out.sort();
}

/**
 * Resolves `@` mentions on disk: root paths inside the root, `.aiwg/…` in the aiwg directory
 * (`unavailable` when it does not exist), `$AIWG_ROOT/…` under `AIWG_ROOT` (`unavailable` when unset).
 * `known` holds root-relative paths already read (the corpus files), which need no file system call.
 */
export function createMentionResolver(
  root: string,
  env: Readonly<Record<string, string | undefined>>,
  known: ReadonlySet<string> = new Set(),
): MentionResolver {
  const aiwgDir = resolveAiwgDir(root, env);
  const aiwgRoot = env.AIWG_ROOT?.trim();
  const cache = new Map<string, MentionResolution>();
  const aiwgDirExists = isDirectory(aiwgDir);
  return (target) => {
    const key = `${target.base}:${target.path}`;
    let result = cache.get(key);
    if (result !== undefined) return result;
    if (target.base === 'root' && known.has(target.path)) {
      // A corpus file the run has already read: it exists.
      result = 'file';
    } else if (target.base === 'aiwg-root') {
      result = aiwgRoot === undefined || aiwgRoot === '' ? 'unavailable' : kindOf(resolve(aiwgRoot, target.path), null);
    } else if (target.path === '.aiwg' || target.path.startsWith('.aiwg/')) {
      result = aiwgDirExists ? kindOf(aiwgDir + target.path.slice('.aiwg'.length), null) : 'unavailable';
    } else {
      result = kindOf(join(root, target.path), root);
    }
    cache.set(key, result);
    return result;
  };
}

function kindOf(path: string, confineTo: string | null): MentionResolution {
  try {
    if (confineTo !== null) {
      const real = toPosix(realpathSync.native(path));
      const inside = toPosix(relative(confineTo, real));
      if (inside.startsWith('..') || isAbsolute(inside)) return 'missing';
    }
    const stats = statSync(path);
    return stats.isFile() ? 'file' : stats.isDirectory() ? 'directory' : 'missing';
  } catch {
    return 'missing';
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function displayPath(root: string, absolute: string): string {
  const inside = toPosix(relative(root, absolute));
  return inside.startsWith('..') || isAbsolute(inside) ? toPosix(absolute) : inside;
}

function walk(directory: string, visit: (path: string) => void): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(directory, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const path = `${directory}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name === 'node_modules' || entry.name === '.git') continue;
      walk(path, visit);
    } else if (entry.isFile() || (entry.isSymbolicLink() && statSafe(path))) {
      visit(path);
    }
  }
}

function statSafe(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
