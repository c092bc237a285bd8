// Bundles the CLI into dist/ so a commit hook loads one small file. Workspace packages are
// inlined from source; heavy runtime dependencies (ink, react, chokidar, listr2) stay external
// and are imported lazily by the commands that need them, so `check` never loads them.
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

rmSync(new URL('./dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { cli: 'src/bin.ts' },
  outdir: 'dist',
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
