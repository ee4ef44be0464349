#!/usr/bin/env bash
# Runs a command with DATABASE_URL pointing at a throw-away Postgres: Debian's `postgresql` (installed when
# missing), a fresh cluster bound to 127.0.0.1 on a free port with a password login, stopped and deleted on exit.
# Usage: bash scripts/with-postgres.sh COMMAND [ARG ...]
#   e.g. bash scripts/with-postgres.sh npx vitest run test/session-stores
set -euo pipefail
(($# > 0)) || { echo "usage: scripts/with-postgres.sh COMMAND [ARG ...]" >&2; exit 2; }

if ! compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then
  echo "== installing postgresql (apt)" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq postgresql >/dev/null
fi
bin="$(compgen -G '/usr/lib/postgresql/*/bin' | sort -V | tail -n 1)"

dir="$(mktemp -d /tmp/glimpse-postgres.XXXXXX)"
# Postgres refuses to run as root: as root, the cluster belongs to Debian's postgres user.
as_owner() { if ((EUID == 0)); then runuser -u postgres -- "$@"; else "$@"; fi; }
((EUID == 0)) && chown postgres "$dir"
password="glimpse-$RANDOM$RANDOM"
port="$(node -e "const s=require('node:net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
stop() {
  as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap stop EXIT

printf '%s\n' "$password" > "$dir/password"
((EUID == 0)) && chown postgres "$dir/password"
as_owner "$bin/initdb" -D "$dir/data" -U glimpse --pwfile="$dir/password" --auth=scram-sha-256 -E UTF8 >/dev/null
as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
  -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=on" start >/dev/null \
  || { cat "$dir/server.log" >&2; exit 1; }
PGPASSWORD="$password" "$bin/createdb" -h 127.0.0.1 -p "$port" -U glimpse glimpse

export DATABASE_URL="postgres://glimpse:$password@127.0.0.1:$port/glimpse"
echo "== postgres $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port (DATABASE_URL set)" >&2
"$@"
