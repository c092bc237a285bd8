import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const source = (name: string) => fileURLToPath(new URL(`./packages/${name}/src/index.ts`, import.meta.url));

// Workspace packages resolve to their TypeScript sources, so tests never need a build.
const alias = {
  '@aiwg-cite/core': source('core'),
  '@aiwg-cite/node': source('node'),
  '@aiwg-cite/git': source('git'),
  '@aiwg-cite/online': source('online'),
  '@aiwg-cite/tui': source('tui'),
};

export default defineConfig({
  resolve: { alias },
  test: {
    expect: { requireAssertions: true },
    projects: [
      {
        resolve: { alias },
        test: { name: 'unit', include: ['packages/*/src/**/*.test.{ts,tsx}'], testTimeout: 10_000 },
      },
      {
        resolve: { alias },
        test: { name: 'integration', include: ['packages/*/test/**/*.test.{ts,tsx}'], testTimeout: 60_000 },
      },
      {
        resolve: { alias },
        // Property-based fuzzing (`pnpm fuzz`): a fixed seed and few runs in the test command.
        test: { name: 'fuzz', include: ['test/fuzz/**/*.fuzz.ts'], testTimeout: 300_000 },
      },
      {
        resolve: { alias },
        test: { name: 'e2e', include: ['test/**/*.test.{ts,tsx}'], testTimeout: 120_000, hookTimeout: 60_000 },
      },
    ],
  },
});
