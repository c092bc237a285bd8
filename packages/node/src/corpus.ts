import { type Dirent, existsSync, lstatSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
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
import { isInside, placePath, realLocation } from './confine.ts';
import { toPosix } from './discover.ts';
import { readRegularFile } from './fs.ts';
import { gitAsync } from './git-runner.ts';
import { fileMessages, gitMessages, noteMessages } from './messages.ts';

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
  /**
   * Receives one line for each thing confinement decided (a directory or file refused because it
   * leads outside the root, or an outside one read because the configuration names it) and for
   * each corpus file whose YAML is not valid, naming the file and the problem.
   */
  readonly onNote?: (note: string) => void;
}

/** Where the `.aiwg/` directory is, and whether it may be read (see {@link locateAiwgDir}). */
export interface AiwgDirectory {
  /** Absolute, POSIX separators. */
  readonly path: string;
  /** Why it is not read: `.aiwg-location` or a symlink leads outside the root. `null` when it may be. */
  readonly refused: string | null;
  /** When the environment names a directory outside the root on purpose, a line that says so. */
  readonly outside: string | null;
}

const AIWG_DIR_VARIABLES = ['AIWG_ARTIFACTS_PATH', 'AIWG_PROJECT_ARTIFACTS_PATH', 'AIWG_PROJECT_AIWG_DIR'] as const;

/**
 * The `.aiwg/` directory (SPEC §2.3 item 4): the first of `AIWG_ARTIFACTS_PATH`,
 * `AIWG_PROJECT_ARTIFACTS_PATH`, `AIWG_PROJECT_AIWG_DIR`, the path in `.aiwg-location`, and
 * `<root>/.aiwg`. Confined (issue 15 item 20): the environment is the user's and may name a
 * directory outside the root (said in `outside`); `.aiwg-location` and `.aiwg` come with the
 * repository, so one that leads outside the root (a path, or a symlink) is refused.
 */
export function locateAiwgDir(root: string, env: Readonly<Record<string, string | undefined>>): AiwgDirectory {
  for (const name of AIWG_DIR_VARIABLES) {
    const value = env[name]?.trim();
    if (value === undefined || value === '') continue;
    const path = toPosix(resolve(root, value));
    const placement = placePath(root, path);
    if (placement.kind === 'escapes')
      return { path, refused: escapesNote(root, path, placement.real, noteMessages.aiwgDirectory()), outside: null };
    const outside = placement.kind === 'outside-named' ? noteMessages.aiwgDirOutside(path, name) : null;
    return { path, refused: null, outside };
  }
  const location = join(root, '.aiwg-location');
  if (lstatSync(location, { throwIfNoEntry: false }) !== undefined) {
    const placement = placePath(root, location);
    if (placement.kind !== 'inside') {
      return { path: `${root}/.aiwg`, refused: escapesNote(root, location, placement.real, '.aiwg-location'), outside: null };
    }
    const value = readRegularFile(location).toString('utf8').trim();
    if (value !== '') {
      const path = toPosix(resolve(root, value));
      const named = placePath(root, path);
      if (named.kind !== 'inside') {
        return {
          path,
          refused: noteMessages.aiwgLocationEscapes(value, named.real),
          outside: null,
        };
      }
      return { path, refused: null, outside: null };
    }
  }
  const path = `${root}/.aiwg`;
  const placement = placePath(root, path);
  return { path, refused: placement.kind === 'inside' ? null : escapesNote(root, path, placement.real, '.aiwg'), outside: null };
}

/** The `.aiwg/` directory's path ({@link locateAiwgDir}), whether or not it may be read. */
export function resolveAiwgDir(root: string, env: Readonly<Record<string, string | undefined>>): string {
  return locateAiwgDir(root, env).path;
}

function escapesNote(root: string, path: string, real: string, what: string): string {
  return noteMessages.escapesRoot(what, toPosix(relative(root, path)) || '.', real);
}

/** Maps a root-relative path to disk, sending `.aiwg/…` to the aiwg directory. */
function locate(root: string, aiwgDir: string, path: string): string {
  if (isAbsolute(path)) return toPosix(path);
  const clean = path.replace(/^\.\/+/, '').replace(/\/+$/, '');
  if (clean === '.aiwg' || clean.startsWith('.aiwg/')) return aiwgDir + clean.slice('.aiwg'.length);
  return toPosix(resolve(root, clean));
}

/**
 * Reads the corpus, GRADE assessments and bibliographies once and indexes them. Confined: a corpus
 * root named inside the root must stay inside it; one named outside (an absolute or `..` path in
 * the configuration) is read and noted; a file whose symlink leads out of its corpus root is not read.
 */
export async function loadCorpus(options: LoadCorpusOptions): Promise<CorpusIndex> {
  const { root, env } = options;
  const note = options.onNote ?? (() => undefined);
  // The bibliography listing is a git process: started first, it runs while the corpus is read.
  const listing = options.bibliography === undefined ? discoverBibliographies(root, options.isGit) : undefined;
  listing?.catch(() => undefined);
  const aiwg = locateAiwgDir(root, env);
  if (aiwg.refused !== null) note(aiwg.refused);
  if (aiwg.outside !== null) note(aiwg.outside);
  const aiwgBase = aiwg.refused === null ? realLocation(aiwg.path) : null;
  const dirs = options.dirs ?? [...DEFAULT_AIWG_CORPUS_DIRS, 'docs/references'];
  const roots: { path: string; exists: boolean }[] = [];
  const files: CorpusFile[] = [];
  const metadata: CorpusFile[] = [];
  const seen = new Set<string>();
  let escaping = 0;
  for (const dir of dirs) {
    const shown = dir.replace(/\/+$/, '');
    const absolute = locate(root, aiwg.path, dir);
    const base = corpusBase(root, aiwgBase, dir, absolute, note);
    const exists = base !== null && isDirectory(absolute);
    roots.push({ path: shown, exists });
    if (!exists || base === null) continue;
    walk(absolute, (path) => {
      if (seen.has(path)) return;
      seen.add(path);
      if (!isInside(base, realLocation(path))) {
        escaping += 1;
        return;
      }
      const name = path.slice(path.lastIndexOf('/') + 1);
      const display = displayPath(root, path);
      if (/\.(md|markdown)$/i.test(name)) files.push({ path: display, text: readRegularFile(path).toString('utf8') });
      else if (/-metadata\.json$/.test(name)) metadata.push({ path: display, text: readRegularFile(path).toString('utf8') });
    });
  }
  const assessments: CorpusFile[] = [];
  const assessmentDir = `${aiwg.path}/research/quality-assessments`;
  if (aiwgBase !== null && isDirectory(assessmentDir) && isInside(aiwgBase, realLocation(assessmentDir))) {
    for (const name of readdirSync(assessmentDir).sort()) {
      if (!/\.ya?ml$/.test(name)) continue;
      const path = `${assessmentDir}/${name}`;
      if (!isInside(aiwgBase, realLocation(path))) {
        escaping += 1;
        continue;
      }
      assessments.push({ path: displayPath(root, path), text: readRegularFile(path).toString('utf8') });
    }
  }
  if (escaping > 0) {
    note(noteMessages.corpusFilesEscape(escaping));
  }
  const bibliography =
    options.bibliography === undefined
      ? await readBibliographies(root, (await listing) ?? [], false, note)
      : await readBibliographies(root, options.bibliography, true, note);
  const index = new CorpusIndex({ roots, files, metadata, assessments, bibliography });
  // Files read but not as written (YAML the parser had to recover from) are noted, not silent.
  for (const problem of index.problems) note(problem);
  return index;
}

/**
 * The directory a corpus root's files must stay in, or `null` when the root is refused: the root
 * (or, for `.aiwg/…` roots, the aiwg directory) for a root named inside it; the named directory
 * itself for one the configuration names outside.
 */
function corpusBase(root: string, aiwgBase: string | null, dir: string, absolute: string, note: (line: string) => void): string | null {
  const clean = dir.replace(/^\.\/+/, '').replace(/\/+$/, '');
  if (!isAbsolute(dir) && (clean === '.aiwg' || clean.startsWith('.aiwg/'))) {
    if (aiwgBase === null) return null;
    const real = realLocation(absolute);
    if (isInside(aiwgBase, real)) return aiwgBase;
    note(escapesNote(root, absolute, real, noteMessages.corpusRoot(clean)));
    return null;
  }
  const placement = placePath(root, absolute);
  if (placement.kind === 'inside') return root;
  if (placement.kind === 'escapes') {
    if (isDirectory(absolute)) note(escapesNote(root, absolute, placement.real, noteMessages.corpusRoot(clean)));
    return null;
  }
  if (isDirectory(absolute)) note(noteMessages.corpusRootOutside(absolute));
  return placement.real;
}

/**
 * Reads bibliography files. One the configuration names that cannot be read or parsed is a usage
 * error naming it; one found in the tree (a test fixture, a vendored package's) is left out with a
 * note, so a stray broken `.bib` never stops the check of the documents.
 */
export async function loadBibliographies(
  root: string,
  isGit: boolean,
  explicit: readonly string[] | undefined,
  onNote: (note: string) => void = () => undefined,
): Promise<BibliographyEntry[]> {
  return explicit === undefined
    ? readBibliographies(root, await discoverBibliographies(root, isGit), false, onNote)
    : readBibliographies(root, explicit, true, onNote);
}

/** {@link loadBibliographies} of a known list of files, `named` when the configuration names them. */
async function readBibliographies(
  root: string,
  paths: readonly string[],
  named: boolean,
  onNote: (note: string) => void,
): Promise<BibliographyEntry[]> {
  const entries: BibliographyEntry[] = [];
  for (const path of paths) {
    const absolute = resolve(root, path);
    // Confined like the corpus: a file named inside the root must stay there; one the
    // configuration names outside is read and noted.
    const placement = placePath(root, absolute);
    if (placement.kind === 'escapes') {
      onNote(escapesNote(root, absolute, placement.real, noteMessages.bibliography(path)));
      continue;
    }
    if (placement.kind === 'outside-named') onNote(noteMessages.bibliographyOutside(path));
    const refuse = (problem: string) => {
      if (named) throw new AiwgCiteError('INPUT_UNREADABLE', `${path}: ${problem}`, { data: { path } });
      onNote(fileMessages.bibliographySkipped(path, problem));
    };
    let text: string;
    try {
      text = readRegularFile(absolute).toString('utf8');
    } catch {
      refuse(fileMessages.bibliographyUnreadable());
      continue;
    }
    const result = /\.json$/i.test(path) ? parseCslJson(path, text) : await parseBibtex(path, text);
    if (!result.ok) {
      refuse(result.problem);
      continue;
    }
    appendAll(entries, result.entries);
  }
  return entries;
}

/**
 * The `git ls-files` that finds bibliographies: tracked ones and untracked ones git does not
 * ignore. The bin starts this same command early for the commit hook (cli/src/bin.ts), so it must
 * stay the same command.
 */
const BIBLIOGRAPHY_LISTING = ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', '*.bib', '*.csl.json'];

async function discoverBibliographies(root: string, isGit: boolean): Promise<string[]> {
  if (isGit) {
    let out: Buffer;
    try {
      out = await gitAsync(root, BIBLIOGRAPHY_LISTING);
    } catch {
      throw new AiwgCiteError('GIT_FAILED', `${root}: ${gitMessages.lsFilesFailed()}`, { data: { directory: root } });
    }
    return [...new Set(out.toString('utf8').split('\0'))]
      .filter((path) => path !== '' && !path.split('/').includes('node_modules') && existsSync(join(root, path)))
      .sort();
  }
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
  const aiwg = locateAiwgDir(root, env);
  const aiwgDir = aiwg.path;
  const aiwgBase = aiwg.refused === null ? realLocation(aiwgDir) : null;
  const aiwgRoot = env.AIWG_ROOT?.trim();
  const cache = new Map<string, MentionResolution>();
  const aiwgDirExists = isDirectory(aiwgDir);
  let declared: ReadonlySet<string> | undefined;
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
      result = aiwgDirExists && aiwgBase !== null ? kindOf(aiwgDir + target.path.slice('.aiwg'.length), aiwgBase) : 'unavailable';
    } else {
      result = kindOf(join(root, target.path), root);
      if (result === 'missing' && isPackagePath(target.path)) result = 'package';
    }
    cache.set(key, result);
    return result;
  };

  /**
   * Whether a missing `scope/name/…` is an import path into the npm package `@scope/name`
   * (`@openzeppelin/contracts/token/ERC20/ERC20.sol`, `@fontsource/inter/400.css`): the project
   * depends on that package (its package.json, or its node_modules), and the repository has no
   * folder named like the scope, which would make it a path of its own.
   */
  function isPackagePath(path: string): boolean {
    const [scope, name, rest] = path.split('/', 3);
    if (scope === undefined || name === undefined || rest === undefined || isDirectory(join(root, scope))) return false;
    const packageName = `@${scope}/${name}`;
    declared ??= declaredPackages(root);
    return declared.has(packageName) || isDirectory(join(root, 'node_modules', packageName));
  }
}

/** The npm packages the root package.json names as dependencies of any kind; none when it cannot be read. */
function declaredPackages(root: string): ReadonlySet<string> {
  const names = new Set<string>();
  try {
    const manifest: unknown = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    if (typeof manifest !== 'object' || manifest === null) return names;
    for (const field of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']) {
      const listed: unknown = (manifest as Record<string, unknown>)[field];
      if (typeof listed === 'object' && listed !== null) for (const name of Object.keys(listed)) names.add(name);
    }
  } catch {
    // No package.json, or not JSON: no declared packages.
  }
  return names;
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

/** Whether a directory stands at `path` (through links); `false` when nothing does or it cannot be looked at. */
export function isDirectory(path: string): boolean {
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
