#!/bin/sh
# Proves the core runs under Deno 2: type-checks it with `deno check`, then checks
# examples/rlm-demo with a Deno host and requires the JSON report to equal the Node CLI's
# (with --no-history: the Deno host reads files, not git history).
# packages/core/deno.json only sets nodeModulesDir "manual": Deno then resolves the core's npm
# dependencies (valibot, yaml, the BibTeX parser) from its package.json and the installed node_modules, as
# Node does, so the check sees the same code and needs no network.
set -eu
cd "$(dirname "$0")/.."
deno=./node_modules/.bin/deno
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

"$deno" check --config packages/core/deno.json --quiet packages/core/src/index.ts packages/core/deno/check-examples.ts

status=0
node packages/cli/dist/cli.js check --root examples/rlm-demo --format json --no-history > "$out/node.json" || status=$?
if [ "$status" -ne 1 ]; then
  echo "deno-check: the Node CLI exited $status on examples/rlm-demo; expected 1 (the demo fails on purpose)" >&2
  exit 1
fi
"$deno" run --config packages/core/deno.json --quiet --allow-read packages/core/deno/check-examples.ts examples/rlm-demo > "$out/deno.json"
if ! diff -u "$out/node.json" "$out/deno.json"; then
  echo "deno-check: Deno and Node reports differ" >&2
  exit 1
fi
echo "deno-check: deno check passed; Deno and Node reports on examples/rlm-demo are identical ($(grep -o '"kind"' "$out/deno.json" | wc -l) citations)"
