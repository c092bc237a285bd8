// Bundles the CLI into dist/ so a commit hook loads one small file and the published package
// has no runtime dependencies to fetch (it installs offline from a tarball). Workspace packages
// are inlined from source; the heavy libraries (ink, react, chokidar, listr2) are bundled too,
// into chunks that only the commands needing them import, so `check` never loads them.
// dist/api.js is the programmatic API, with dist/api.d.ts; dist/THIRD-PARTY-LICENSES.txt carries
// the licences of every bundled library. Source maps only with `--sourcemap` (or
// AIWG_CITE_SOURCEMAP=1). The bundle is built beside dist/ and swapped in, so a failed or
// concurrent build never leaves a half-written dist/ behind.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import ts from 'typescript';

const here = dirname(fileURLToPath(import.meta.url));
const sourcemap = process.argv.includes('--sourcemap') || process.env.AIWG_CITE_SOURCEMAP === '1';
const staging = join(here, `dist-${process.pid}`);
const target = join(here, 'dist');

/**
 * A digest of every workspace source the bundle is built from: the result cache keys on it, so a
 * rebuilt tool with the same version number never trusts results an older build stored.
 */
function buildId() {
  const packages = join(here, '..');
  const hash = createHash('sha256');
  const walk = (directory) => {
    for (const entry of readdirSync(directory, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|tsx|json)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
        hash.update(relative(packages, path)).update(readFileSync(path));
    }
  };
  for (const name of readdirSync(packages).sort()) {
    try {
      walk(join(packages, name, 'src'));
      hash.update(readFileSync(join(packages, name, 'package.json')));
    } catch {
      // not a package with sources
    }
  }
  return hash.digest('hex').slice(0, 32);
}

/**
 * Libraries that the commit hook loads but seldom runs: `yaml` (72 CommonJS modules, ~260 KB
 * bundled) parses corpus frontmatter and GRADE files, which most repositories and most commits
 * never reach; `picomatch` (~60 KB) compiles include/exclude globs, when a configuration has them.
 * Each is bundled on its own into `dist/chunks/lazy-<name>.cjs`, and a workspace source's import
 * of it is rewritten into a stub around a `require` of that file, run on the first call. So the
 * library is neither evaluated nor even compiled when the chunk that uses it loads: bytes in a
 * loaded chunk cost compile time on every run (Node 20 keeps no compile cache), ~15 ms of each
 * `check --staged` for these two. Only imports of functions are rewritten (a default or named
 * import used other than by calling it fails the build), and only in the workspace's sources.
 */
const LAZY_LIBRARIES = new Map([
  ['yaml', 'lazy-yaml.cjs'],
  ['picomatch/posix.js', 'lazy-picomatch.cjs'],
]);

/** The specifier a stub requires a lazy library by; resolved to its file beside the chunks. */
const LAZY_PREFIX = 'aiwg-lazy:';

/** Where each lazy library was imported from (its resolve directory), for bundling it alone. */
const lazyImporters = new Map();

/** The plugin that defers {@link LAZY_LIBRARIES}; `from` is the path of chunks/ seen from the output that requires them. */
const lazyLibraries = (from) => ({
  name: 'lazy-libraries',
  setup(plugin) {
    plugin.onLoad({ filter: /\/packages\/[^/]+\/src\/.*\.ts$/ }, (args) => {
      if (args.path.includes('/node_modules/')) return undefined;
      const text = readFileSync(args.path, 'utf8');
      if (![...LAZY_LIBRARIES.keys()].some((name) => text.includes(`'${name}'`))) return undefined;
      return { contents: deferImports(args.path, text), loader: 'ts', resolveDir: dirname(args.path) };
    });
    // The stub's require names the library's own file, beside the chunk that calls it (checked below).
    plugin.onResolve({ filter: new RegExp(`^${LAZY_PREFIX}`) }, (args) => ({
      path: `${from}${LAZY_LIBRARIES.get(args.path.slice(LAZY_PREFIX.length))}`,
      external: true,
    }));
  },
});

function deferImports(path, text) {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  let out = text;
  for (const statement of [...source.statements].reverse()) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const library = statement.moduleSpecifier.text;
    if (!LAZY_LIBRARIES.has(library) || statement.importClause?.isTypeOnly === true) continue;
    const clause = statement.importClause;
    const named = clause?.namedBindings !== undefined && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : [];
    if (clause === undefined || (clause.namedBindings !== undefined && !ts.isNamedImports(clause.namedBindings))) {
      throw new Error(`build: ${relative(here, path)}: only default and named imports of ${library} can be deferred`);
    }
    lazyImporters.set(library, dirname(path));
    const loader = `__aiwgLazy_${library.replace(/\W/g, '_')}`;
    const stubs = [`let ${loader}Module; const ${loader} = () => (${loader}Module ??= require(${JSON.stringify(LAZY_PREFIX + library)}));`];
    const bindings = [
      ...(clause.name === undefined ? [] : [{ local: clause.name.text, member: null }]),
      ...named
        .filter((element) => !element.isTypeOnly)
        .map((element) => ({ local: element.name.text, member: (element.propertyName ?? element.name).text })),
    ];
    for (const { local, member } of bindings) {
      if (!onlyCalled(source, statement, local))
        throw new Error(`build: ${relative(here, path)}: ${local} from ${library} is not only called`);
      // A default import of CommonJS is its module.exports (esbuild's interop), unless it says it is an ES module.
      const target = member === null ? `(${loader}().__esModule ? ${loader}().default : ${loader}())` : `${loader}().${member}`;
      stubs.push(`const ${local} = (...args) => ${target}(...args);`);
    }
    out = out.slice(0, statement.getStart(source)) + stubs.join(' ') + out.slice(statement.getEnd());
  }
  return out;
}

/** True when every use of `name` outside its import is a call of it (`name(...)`). */
function onlyCalled(source, declaration, name) {
  let only = true;
  const visit = (node) => {
    if (node === declaration) return;
    if (ts.isIdentifier(node) && node.text === name) {
      const parent = node.parent;
      if (!(ts.isCallExpression(parent) && parent.expression === node)) only = false;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return only;
}

try {
  const result = await build({
    entryPoints: { cli: 'src/bin.ts', api: 'src/api.ts' },
    outdir: staging,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    conditions: ['aiwg-source'],
    // ESM entries first: jsonc-parser's "main" is a UMD build whose require() calls esbuild cannot follow.
    mainFields: ['module', 'main'],
    // ink imports react-devtools-core only when DEV=true; it is a development tool, not shipped.
    external: ['react-devtools-core'],
    define: { 'process.env.NODE_ENV': '"production"', __AIWG_CITE_BUILD_ID__: JSON.stringify(buildId()) },
    // Bundled CommonJS (react, signal-exit, ...) calls require() for Node built-ins.
    banner: {
      js: "import { createRequire as __aiwgCreateRequire } from 'node:module'; const require = __aiwgCreateRequire(import.meta.url);",
    },
    jsx: 'automatic',
    chunkNames: 'chunks/[name]-[hash]',
    sourcemap: sourcemap ? 'linked' : false,
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
    plugins: [lazyLibraries('./')],
  });
  const lazyInputs = await buildLazyLibraries(result.metafile);
  await buildHookBundle(result.metafile);
  // The API's report types are the core's: their declaration ships beside api.d.ts, which then
  // imports it by a relative path instead of the (bundled, unpublished) core package.
  writeFileSync(join(staging, 'report-types.d.ts'), declarationOf(join(here, '../core/src/report-types.ts')));
  const api = declarationOf(join(here, 'src/api.ts')).replaceAll("from '@aiwg-cite/core'", "from './report-types.js'");
  if (api.includes('@aiwg-cite/'))
    throw new Error('build: dist/api.d.ts names a workspace package; declare what it needs in report-types.ts');
  writeFileSync(join(staging, 'api.d.ts'), api);
  writeFileSync(join(staging, 'THIRD-PARTY-LICENSES.txt'), thirdPartyLicenses([...Object.keys(result.metafile.inputs), ...lazyInputs]));
  const old = join(here, `dist-old-${process.pid}`);
  if (existsSync(target)) renameSync(target, old);
  renameSync(staging, target);
  rmSync(old, { recursive: true, force: true });
} catch (error) {
  rmSync(staging, { recursive: true, force: true });
  throw error;
}

/**
 * Bundles each lazy library that a stub requires into its CommonJS file under chunks/, and
 * returns the inputs bundled (for the licences). A stub's `require('./lazy-….cjs')` resolves
 * beside the file it is in, so every output that has one must be a chunk.
 */
async function buildLazyLibraries(metafile) {
  for (const [output, { imports }] of Object.entries(metafile.outputs)) {
    const lazy = imports.filter((entry) => entry.external && [...LAZY_LIBRARIES.values()].some((file) => entry.path === `./${file}`));
    if (lazy.length > 0 && relative(staging, dirname(join(process.cwd(), output))) !== 'chunks')
      throw new Error(`build: ${output} requires ${lazy[0].path}, which lies in chunks/: that output is not a chunk`);
  }
  const inputs = [];
  for (const [library, resolveDir] of lazyImporters) {
    const lazy = await build({
      stdin: { contents: `module.exports = require(${JSON.stringify(library)});`, resolveDir, sourcefile: `lazy-${library}` },
      outfile: join(staging, 'chunks', LAZY_LIBRARIES.get(library)),
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      define: { 'process.env.NODE_ENV': '"production"' },
      sourcemap: sourcemap ? 'linked' : false,
      legalComments: 'none',
      metafile: true,
      logLevel: 'warning',
    });
    inputs.push(...Object.keys(lazy.metafile.inputs));
  }
  return inputs;
}

/**
 * `dist/hook.cjs`: the CLI's `main` with `check` and everything it reaches in one CommonJS file
 * (run by bin.ts as the body of `function (exports, require, module, __filename, __dirname, __aiwgImport)`),
 * for `check` (the commit hook's and every other) on Node versions without
 * `module.enableCompileCache` (before 22.1). There the split ES modules are compiled from source
 * on every run (~50 ms of each `check --staged`); a CommonJS file can be compiled through
 * `vm.Script` with a V8 code cache, which bin.ts keeps beside it. The other commands are not in
 * it: their loaders import their ES chunks (which bin.ts never lets it reach: it runs this file
 * for `check` only).
 */
async function buildHookBundle(metafile) {
  const commandChunks = new Map();
  for (const [output, { entryPoint }] of Object.entries(metafile.outputs)) {
    if (entryPoint?.startsWith('src/commands/')) commandChunks.set(entryPoint.slice('src/commands/'.length), output);
  }
  // A library the hook path imports dynamically (the bibtex parser, listr2) stays in its ES chunk,
  // loaded when asked, when nothing of the workspace comes with it (one copy of every module).
  const chunkOf = new Map();
  for (const [output, { entryPoint }] of Object.entries(metafile.outputs)) if (entryPoint !== undefined) chunkOf.set(entryPoint, output);
  const workspaceFree = (output, seen = new Set()) => {
    if (seen.has(output)) return true;
    seen.add(output);
    const { inputs, imports } = metafile.outputs[output];
    if (Object.keys(inputs).some((input) => !input.includes('node_modules/'))) return false;
    return imports
      .filter((entry) => entry.kind === 'import-statement' && !entry.external)
      .every((entry) => workspaceFree(entry.path, seen));
  };
  const dynamicLibraries = {
    name: 'dynamic-libraries',
    setup(plugin) {
      plugin.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.kind !== 'dynamic-import' || args.path.startsWith('@aiwg-cite/') || args.path.startsWith('node:')) return undefined;
        if (args.pluginData === 'dynamic-libraries') return undefined;
        const resolved = await plugin.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: 'dynamic-libraries',
        });
        const chunk = chunkOf.get(relative(process.cwd(), resolved.path));
        if (resolved.errors.length > 0 || chunk === undefined || !workspaceFree(chunk)) return undefined;
        return { path: `./${relative(staging, join(process.cwd(), chunk))}`, external: true };
      });
    },
  };
  const otherCommands = {
    name: 'other-commands',
    setup(plugin) {
      plugin.onResolve({ filter: /^\.\/[a-z-]+\.ts$/ }, (args) => {
        if (!args.importer.endsWith('/src/commands/registry.ts') || args.kind !== 'dynamic-import' || args.path === './check.ts')
          return undefined;
        const chunk = commandChunks.get(args.path.slice(2));
        if (chunk === undefined) throw new Error(`build: no chunk for the command ${args.path}`);
        return { path: `./${relative(staging, join(process.cwd(), chunk))}`, external: true };
      });
    },
  };
  await build({
    entryPoints: ['src/main.ts'],
    outfile: join(staging, 'hook.cjs'),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    conditions: ['aiwg-source'],
    mainFields: ['module', 'main'],
    define: { 'process.env.NODE_ENV': '"production"', __AIWG_CITE_BUILD_ID__: JSON.stringify(buildId()) },
    jsx: 'automatic',
    sourcemap: sourcemap ? 'linked' : false,
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [lazyLibraries('./chunks/'), otherCommands, dynamicLibraries],
  });
  const file = join(staging, 'hook.cjs');
  // bin.ts compiles this file through vm.Script with a code cache, and there `import()` fails
  // (functions read from a code cache lose the script's dynamic-import callback, Node 20): the
  // ES chunks are imported by a function bin.ts passes in, `__aiwgImport`, relative to this file.
  const text = readFileSync(file, 'utf8').replace(/\bimport\((".\/chunks\/[^"]+")\)/g, '__aiwgImport($1)');
  if (/\bimport\("/.test(text)) throw new Error('build: dist/hook.cjs imports something other than a chunk');
  writeFileSync(file, asciiOnly(file, text));
}

/**
 * The text with every non-ASCII character escaped, so that Node reads it as a one-byte string
 * (decoding ~1 MB of UTF-8 that is not all ASCII costs Node 20 ~20 ms). esbuild already escapes
 * strings, templates and identifiers; what it leaves is in comments and regular expression
 * literals, where `\uXXXX` (a pair of them for an astral character) means the same character. An
 * identity escape before one (`\–` in a regular expression) becomes the `\u` escape itself. A
 * non-ASCII character anywhere else fails the build.
 */
function asciiOnly(file, text) {
  const wide = [...text.matchAll(/[^\p{ASCII}]/gu)];
  if (wide.length === 0) return text;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  // The token whose range (leading trivia included) holds `at`, and whether a JSDoc comment does.
  const tokenAt = (at) => {
    let node = source;
    let jsDoc = false;
    for (;;) {
      const inner = node.getChildren(source).find((child) => child.pos <= at && at < child.end);
      if (inner === undefined) return { node, jsDoc };
      node = inner;
      jsDoc ||= node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode;
    }
  };
  const inComment = (node, at) =>
    [...(ts.getLeadingCommentRanges(text, node.pos) ?? []), ...(ts.getTrailingCommentRanges(text, node.pos) ?? [])].some(
      (range) => range.pos <= at && at < range.end,
    );
  let out = '';
  let done = 0;
  for (const match of wide) {
    const at = match.index;
    const { node, jsDoc } = tokenAt(at);
    const escapable = jsDoc || (at < node.getStart(source) ? inComment(node, at) : node.kind === ts.SyntaxKind.RegularExpressionLiteral);
    if (!escapable)
      throw new Error(
        `build: ${relative(here, file)}: a non-ASCII character outside a comment or regular expression: ${JSON.stringify(text.slice(at - 80, at + 20))} (${ts.SyntaxKind[node.kind]})`,
      );
    let backslashes = 0;
    while (text[at - 1 - backslashes] === '\\') backslashes += 1;
    let escaped = '';
    for (let unit = 0; unit < match[0].length; unit += 1) escaped += `\\u${match[0].charCodeAt(unit).toString(16).padStart(4, '0')}`;
    out += text.slice(done, at - (backslashes % 2)) + escaped;
    done = at + match[0].length;
  }
  return out + text.slice(done);
}

/** The .d.ts of one self-contained module (its exported types are declared in the file itself). */
function declarationOf(file) {
  const { outputText, diagnostics } = ts.transpileDeclaration(readFileSync(file, 'utf8'), {
    fileName: file,
    compilerOptions: { isolatedDeclarations: true, allowImportingTsExtensions: true, strict: true },
    reportDiagnostics: true,
  });
  if (diagnostics !== undefined && diagnostics.length > 0) {
    const text = diagnostics.map((item) => ts.flattenDiagnosticMessageText(item.messageText, '\n')).join('\n');
    throw new Error(`build: cannot declare ${relative(here, file)}:\n${text}`);
  }
  return outputText;
}

/** Every bundled package's name, version and licence text, in name order. */
function thirdPartyLicenses(inputs) {
  const roots = new Map();
  for (const input of inputs) {
    const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match !== null) roots.set(match[1], true);
  }
  const entries = [];
  for (const root of roots.keys()) {
    const dir = join(process.cwd(), root);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const licenceFile = readdirSync(dir).find((name) => /^(licen[cs]e|copying)(\.|$)/i.test(name));
    const text =
      licenceFile === undefined ? `License: ${manifest.license ?? 'see the package'}` : readFileSync(join(dir, licenceFile), 'utf8').trim();
    entries.push(`${manifest.name}@${manifest.version} (${manifest.license ?? 'unknown licence'})\n\n${text}\n`);
  }
  entries.sort();
  return `Libraries bundled into aiwg-cite's dist/, with their licences.\n\n${[...new Set(entries)].join(`\n${'-'.repeat(72)}\n\n`)}`;
}
