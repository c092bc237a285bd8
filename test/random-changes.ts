import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { GIT_ENV, type GitRepo, gitRepo, sha16, tempDir } from '@aiwg-cite/test-utils';

/**
 * Random sequences of the changes a repository goes through, for the differential tests (a cached
 * run against one without the cache, a running watch's answer against a check by itself): edits of
 * documents and of the files they cite (some at the same size right after a run), files made,
 * deleted, renamed, copied, linked and touched, commits, staging, a branch that brings a pinned
 * version and goes again, the configuration, `.gitignore`, a corpus id, a bibliography and a
 * mention's target. A seed gives the same sequence every time.
 */

/** A small, seeded generator (mulberry32): the same seed gives the same sequence of changes. */
export function generator(seed: number): { next(): number; pick<T>(items: readonly T[]): T; chance(p: number): boolean } {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    chance: (p: number) => next() < p,
  };
}

const SOURCES = ['src/a.ts', 'src/b.ts', 'src/lib/c.ts', 'src/lib/d.ts'];
/** A version of a source no ref holds at the start: a pin of it is an unknown hash until a branch brings it. */
const LATER = 'export const later = 1;\n';

function sourceText(seed: number, lines: number): string {
  return `${Array.from({ length: lines }, (_, line) => `export const v${line} = ${seed + line};`).join('\n')}\n`;
}

function lstatOrNull(path: string) {
  return lstatSync(path, { throwIfNoEntry: false }) ?? null;
}

/** Every markdown document of the working tree, sorted. */
export function documentsOf(dir: string): string[] {
  const out: string[] = [];
  const walk = (relative: string) => {
    for (const entry of readdirSync(join(dir, relative), { withFileTypes: true })) {
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory() && entry.name !== '.git') walk(path);
      else if (entry.isFile() && path.endsWith('.md') && !path.startsWith('research/')) out.push(path);
    }
  };
  walk('');
  return out.sort();
}

/** A seeded generator ({@link generator}). */
export type Random = ReturnType<typeof generator>;

/** One kind of change: it does one thing to the tree, the index or the refs, and says what. */
type Change = () => string;

/** A repository and the changes that can be made to it, drawn from `random`. */
export interface RandomProject {
  readonly repo: GitRepo;
  /** Makes one random change and says what it did. */
  change(): string;
}

/**
 * A small repository (four sources, a corpus of one REF file, a configuration naming it, one
 * document) and random changes to it; `keepConfiguration` leaves the configuration file alone (a
 * running watch declines every check once it changed).
 */
export function randomProject(random: Random, options: { readonly keepConfiguration?: boolean } = {}): RandomProject {
  const repo: GitRepo = gitRepo({
    ...Object.fromEntries(SOURCES.map((path, at) => [path, sourceText(at, 12)])),
    'research/REF-001-study.md': '---\nref_id: REF-001\ntitle: A study\nauthors: [Smith]\nyear: 2020\n---\n# A study\n',
    'aiwg-cite.config.json': '{"corpus": ["research"]}\n',
    'docs/start.md': '# Start\n\nNothing cited yet.\n',
  });
  const read = (path: string) => readFileSync(join(repo.dir, path), 'utf8');
  const write = (path: string, text: string) => repo.write({ [path]: text });

  /** A line citing something: fresh or stale pins, made-up hashes, missing files, corpus ids, mentions, numbers. */
  const citationLine = (): string => {
    const source = random.pick(SOURCES);
    const here = existsSync(join(repo.dir, source)) ? read(source) : '';
    return random.pick([
      () => `Pinned: [${source}@${sha16(here)}, L1-2].`,
      () => `Un-versioned: [${source}, L2].`,
      () => `Made up: [${source}@0123456789abcdef, L1].`,
      () => `Later: [${source}@${sha16(LATER)}, L1].`,
      () => `Gone: [src/removed/gone${Math.floor(random.next() * 3)}.ts, L1].`,
      () => `As REF-00${1 + Math.floor(random.next() * 2)} shows, 87% of runs pass.`,
      () => 'Run @scripts/run.sh first.',
      () => 'As Smith et al. (2020) found.',
      () => 'See doi:10.1234/example.5678 for the method.',
      () =>
        `<!-- aiwg-cite-disable-next-line ${random.pick(['', 'rlm/stale', 'rlm/unknown-hash', 'rlm'])} -->\nHidden: [${source}@${random.pick(['0123456789abcdef', sha16(LATER)])}, L1] and [src/removed/gone0.ts].`,
      () =>
        `Through a link: [src/link.ts@${sha16(existsSync(join(repo.dir, 'src/link.ts')) ? readFileSync(join(repo.dir, 'src/link.ts')) : '')}, L1].`,
    ])();
  };

  /** Creates the file, or deletes it when it is there. */
  const toggle =
    (path: string, text: string): Change =>
    () => {
      if (existsSync(join(repo.dir, path))) rmSync(join(repo.dir, path));
      else write(path, text);
      return `created or deleted ${path}`;
    };
  const setSeverity: Change = () => {
    const severity = random.pick(['off', 'error', 'warning', 'info']);
    const rule = random.pick(['rlm/unversioned', 'statistic/unsourced', 'rlm/stale']);
    write('aiwg-cite.config.json', `{"corpus": ["research"], "rules": {"${rule}": "${severity}"}}\n`);
    return `set ${rule} to ${severity}`;
  };
  const changes: Change[] = [
    () => {
      const document = random.pick(documentsOf(repo.dir));
      write(document, `${read(document)}\n${citationLine()}\n`);
      return `appended a citation to ${document}`;
    },
    () => {
      // Same size, right after the last run: only the bytes tell.
      const document = random.pick(documentsOf(repo.dir));
      const text = read(document);
      const swapped = text.includes('@0123456789abcdef')
        ? text.replace('@0123456789abcdef', '@0123456789abcdee')
        : text.replace(/L1/, 'L2').replace(/L2-2/, 'L1-2');
      write(document, swapped);
      return `rewrote ${document} at the same size`;
    },
    () => {
      const source = random.pick(SOURCES);
      write(source, sourceText(Math.floor(random.next() * 100), random.chance(0.5) ? 12 : 3));
      return `rewrote ${source}`;
    },
    () => {
      const source = random.pick(SOURCES);
      if (!existsSync(join(repo.dir, source))) {
        write(source, sourceText(1, 12));
        return `restored ${source}`;
      }
      const text = read(source);
      write(
        source,
        text.replace(/= (\d)/, (_, digit: string) => `= ${(Number(digit) + 1) % 10}`),
      );
      return `changed a digit of ${source}`;
    },
    () => {
      const source = random.pick(SOURCES);
      rmSync(join(repo.dir, source), { force: true });
      return `deleted ${source}`;
    },
    () => {
      const path = `src/removed/gone${Math.floor(random.next() * 3)}.ts`;
      if (existsSync(join(repo.dir, path))) rmSync(join(repo.dir, path));
      else write(path, 'export const back = 1;\n');
      return `created or deleted ${path}`;
    },
    () => {
      const path = `docs/${random.pick(['', 'more/', '.claude/'])}new-${Math.floor(random.next() * 1000)}.md`;
      const documents = documentsOf(repo.dir);
      if (random.chance(0.4) && documents.length > 0) {
        // An identical copy of another document (checked once, at the first), or one with front matter of its own.
        const original = read(random.pick(documents));
        write(path, random.chance(0.5) ? original : `---\ntitle: copy\n---\n${original.replace(/^---\n[\s\S]*?\n---\n/, '')}`);
        return `copied a document to ${path}`;
      }
      write(path, `# New\n\n${citationLine()}\n${citationLine()}\n`);
      return `added ${path}`;
    },
    () => {
      const documents = documentsOf(repo.dir);
      if (documents.length < 3) return 'kept every document';
      const document = random.pick(documents);
      rmSync(join(repo.dir, document));
      return `deleted ${document}`;
    },
    () => {
      repo.commit('step');
      return 'committed everything';
    },
    () => {
      const path = random.pick([...SOURCES, ...documentsOf(repo.dir)]);
      if (!existsSync(join(repo.dir, path))) return 'staged nothing';
      repo.git('add', '--', path);
      return `staged ${path}`;
    },
    () => {
      const branches = repo.git('branch', '--list', 'side');
      if (branches !== '') {
        repo.git('branch', '-D', 'side');
        return 'deleted the side branch';
      }
      // A commit on a new ref with the later version, made with plumbing: neither the index nor the tree moves.
      const gitEnv = { ...process.env, ...GIT_ENV, GIT_INDEX_FILE: join(tempDir(), 'index') };
      const git = (args: readonly string[], input?: string) =>
        execFileSync('git', args, { cwd: repo.dir, env: gitEnv, encoding: 'utf8', ...(input === undefined ? {} : { input }) }).trim();
      const blob = git(['hash-object', '-w', '--stdin'], LATER);
      git(['read-tree', 'HEAD']);
      git(['update-index', '--add', '--cacheinfo', `100644,${blob},${random.pick(SOURCES)}`]);
      git(['update-ref', 'refs/heads/side', git(['commit-tree', git(['write-tree']), '-p', 'HEAD', '-m', 'side'])]);
      return 'made a side branch holding the later version';
    },
    setSeverity,
    () => {
      const ignored = existsSync(join(repo.dir, '.gitignore')) ? read('.gitignore') : '';
      write('.gitignore', ignored.includes('docs/more/') ? '' : 'docs/more/\n');
      return ignored.includes('docs/more/') ? 'stopped ignoring docs/more/' : 'ignored docs/more/';
    },
    () => {
      const path = random.pick([...SOURCES, ...documentsOf(repo.dir)].filter((file) => existsSync(join(repo.dir, file))));
      const now = statSync(join(repo.dir, path)).mtime;
      const later = new Date(now.getTime() + 1000 + Math.floor(random.next() * 5000));
      utimesSync(join(repo.dir, path), later, later);
      return `touched ${path}`;
    },
    toggle('scripts/run.sh', '#!/bin/sh\n'),
    toggle('research/REF-002-more.md', '---\nref_id: REF-002\ntitle: More\nauthors: [Jones]\nyear: 2021\n---\n# More\n'),
    () => {
      // A cited path that is a symbolic link, made, pointed elsewhere or removed.
      const link = join(repo.dir, 'src/link.ts');
      const there = existsSync(link) || lstatOrNull(link) !== null;
      if (there && random.chance(0.4)) {
        rmSync(link, { force: true });
        return 'removed src/link.ts';
      }
      rmSync(link, { force: true });
      const target = random.pick(['a.ts', 'b.ts', 'lib/c.ts']);
      symlinkSync(target, link);
      return `pointed src/link.ts at ${target}`;
    },
    toggle('refs.bib', '@article{smith2020, author = {Smith, Ann}, title = {A study}, year = {2020}, doi = {10.1234/example.5678}}\n'),
    () => {
      const documents = documentsOf(repo.dir).filter((document) => !document.includes('/.claude/'));
      if (documents.length === 0) return 'renamed nothing';
      const from = random.pick(documents);
      const to = `docs/renamed-${Math.floor(random.next() * 1000)}.md`;
      renameSync(join(repo.dir, from), join(repo.dir, to));
      return `renamed ${from} to ${to}`;
    },
  ];

  const allowed = options.keepConfiguration === true ? changes.filter((change) => change !== setSeverity) : changes;
  return { repo, change: () => random.pick(allowed)() };
}
