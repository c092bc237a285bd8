// Bundles the CLI into dist/ so a commit hook loads one small file. Workspace packages are
// inlined from source; heavy runtime dependencies (ink, react, chokidar, listr2) stay external
// and are imported lazily by the commands that need them, so `check` never loads them.
// The bundle is built beside dist/ and swapped in, so a failed or concurrent build never
// leaves a half-written dist/ behind.
import { renameSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const staging = new URL(`./dist-${process.pid}`, import.meta.url);
const target = new URL('./dist', import.meta.url);
try {
  await build({
    entryPoints: { cli: 'src/bin.ts' },
    outdir: staging.pathname,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    conditions: ['aiwg-source'],
    external: ['ink', 'react', 'react/*', 'chokidar', 'listr2', 'ink-testing-library'],
    jsx: 'automatic',
    chunkNames: 'chunks/[name]-[hash]',
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: 'warning',
  });
  const old = new URL(`./dist-old-${process.pid}`, import.meta.url);
  try {
    renameSync(target, old);
  } catch {
    // no previous dist
  }
  renameSync(staging, target);
  rmSync(old, { recursive: true, force: true });
} catch (error) {
  rmSync(staging, { recursive: true, force: true });
  throw error;
}
