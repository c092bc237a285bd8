import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { gitProbe } from '@aiwg-cite/node';

/**
 * The rules git applies to untracked files besides the `.gitignore` files of the tree: the
 * repository's `info/exclude` and the user's `core.excludesFile` (unset: `$XDG_CONFIG_HOME/git/ignore`,
 * else `~/.config/git/ignore`). No file event in the root says that one of them changed, so a
 * watch takes {@link IgnoreRules.take} now and then and lists the documents again when it
 * differs. Where `core.excludesFile` points is asked of git once, when the rules are opened.
 */
export class IgnoreRules {
  readonly #files: readonly string[];

  private constructor(files: readonly string[]) {
    this.#files = files;
  }

  /** The rules of the repository at `root`, or `null` outside git (two git processes). */
  static open(root: string, env: NodeJS.ProcessEnv): IgnoreRules | null {
    const exclude = gitProbe(root, ['rev-parse', '--git-path', 'info/exclude'], { env })?.trim();
    if (exclude === undefined || exclude === '') return null;
    const files = [resolve(root, exclude)];
    const configured = gitProbe(root, ['config', '--path', '--get', 'core.excludesFile'], { env })?.trim();
    const user = configured === undefined || configured === '' ? defaultExcludesFile(env) : resolve(root, configured);
    if (user !== null) files.push(user);
    return new IgnoreRules(files);
  }

  /** The rules as they stand: each file's bytes (a few hundred as a rule), `-` for one that is absent or cannot be read. */
  take(): string {
    return this.#files
      .map((file) => {
        try {
          return `${file}\0${readFileSync(file, 'latin1')}`;
        } catch {
          return `${file}\0-`;
        }
      })
      .join('\0\0');
  }
}

/** Where git looks for the user's excludes when `core.excludesFile` is unset, or `null` with no home to look in. */
function defaultExcludesFile(env: NodeJS.ProcessEnv): string | null {
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg !== undefined && xdg !== '') return join(xdg, 'git', 'ignore');
  const home = env.HOME ?? homedir();
  return home === '' ? null : join(home, '.config', 'git', 'ignore');
}
