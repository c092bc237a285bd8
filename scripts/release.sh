#!/bin/sh
# The release flow: `pnpm changeset` records each change as it lands (a .changeset/*.md file);
# this script applies them (bumps packages/cli's version, writes CHANGELOG.md) and packs the
# tarball into ./release. Review the diff, commit, then publish: npm publish release/aiwg-cite-X.Y.Z.tgz
set -eu
cd "$(dirname "$0")/.."
./node_modules/.bin/changeset version
tarball=$(sh scripts/pack.sh release)
echo "release: packed $tarball; review and commit the version bump, then: npm publish $tarball"
