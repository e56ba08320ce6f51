#!/usr/bin/env bash
# Developer loop: compile to a private build dir (so parallel work does not collide) and run
# jest on it. Usage: scripts/test-dev.sh <name> [jest args, e.g. a path pattern]
# Type errors are printed but do not stop the run; `npm test` is the strict gate.
set -u
name=${1:?usage: scripts/test-dev.sh <name> [jest args]}
shift
dir=".tb-$name"
npx tsc -p tsconfig.test.json --outDir "$dir" | grep -v '^$' | head -40
TEST_BUILD_DIR="$dir" NODE_OPTIONS='--experimental-vm-modules --disable-warning=ExperimentalWarning' npx jest "$@"
