#!/bin/sh
# Installs the npm packages the speedscope checks need (ajv, pprof-format,
# speedscope; versions pinned in checkers/package.json) with the checker
# scripts into $PC_FORMAT_CHECKERS (default ~/.cache/profcore/format-checkers),
# outside the source tree.  Needs node and npm; does nothing without them.
# check_consumers.py finds the checkers there and skips them when absent.
set -e
here=$(cd "$(dirname "$0")" && pwd)
dir=${PC_FORMAT_CHECKERS:-${XDG_CACHE_HOME:-$HOME/.cache}/profcore/format-checkers}
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
	echo "setup-checkers: node/npm not installed; speedscope checks will be skipped" >&2
	exit 0
fi
mkdir -p "$dir"
cp "$here"/checkers/package.json "$here"/checkers/*.mjs "$here"/checkers/ss_check.sh "$dir"/
if [ -d "$dir/node_modules/speedscope" ] && [ -d "$dir/node_modules/ajv" ] &&
	[ -d "$dir/node_modules/pprof-format" ]; then
	exit 0
fi
cd "$dir"
npm install --no-audit --no-fund --loglevel=error >/dev/null ||
	echo "setup-checkers: npm install failed; speedscope checks will be skipped" >&2
