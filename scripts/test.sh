#!/bin/sh
# The README's test command: build, type-check and lint (each needed by what follows), then the
# vitest suite and the Deno check. Both of the last two always run; the exit code is non-zero
# when either fails, so a failing test never hides the Deno result or the other way round.
set -u
cd "$(dirname "$0")/.."
turbo run build typecheck --output-logs=errors-only || exit $?
tsc -p tsconfig.json || exit $?
biome check . || exit $?

vitest run
vitest_status=$?
sh scripts/deno-check.sh
deno_status=$?

if [ "$vitest_status" -ne 0 ] || [ "$deno_status" -ne 0 ]; then
  echo "test: vitest exited $vitest_status, deno-check exited $deno_status" >&2
  exit 1
fi
