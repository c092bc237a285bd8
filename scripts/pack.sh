#!/bin/sh
# Builds the CLI and packs the publishable package: prints the tarball's path.
# Usage: sh scripts/pack.sh [DEST_DIR] (default: ./release). Source maps only with AIWG_CITE_SOURCEMAP=1.
set -eu
cd "$(dirname "$0")/.."
dest=$(mkdir -p "${1:-release}" && cd "${1:-release}" && pwd)
npx -y pnpm@10.34.9 --filter aiwg-cite run build >/dev/null
cd packages/cli
name=$(npm pack --silent --pack-destination "$dest")
echo "$dest/$name"
