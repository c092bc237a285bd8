#!/bin/sh
# Builds the CLI and checks examples/rlm-demo, whose docs show every verdict on purpose.
set -u
cd "$(dirname "$0")/.."
npx -y pnpm@10.34.9 run build || exit $?
echo
echo '$ ./node_modules/.bin/aiwg-cite check --root examples/rlm-demo'
./node_modules/.bin/aiwg-cite check --root examples/rlm-demo
status=$?
echo
echo "aiwg-cite exited with $status: the demo shows every verdict, errors included, on purpose (0 pass, 1 fail, 2 error)."
[ "$status" -le 1 ]
