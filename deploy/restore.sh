#!/usr/bin/env bash
# Restore a Parlor data directory from a tarball made by backup.sh.
# Installed as /usr/local/sbin/parlor-restore by install.sh. Run as root.
#
#   parlor-restore [--data DIR] [--service NAME | --no-service] [--port N] [--yes] BACKUP.tar.gz
#
#   -d, --data DIR        the data directory to replace (default: the service's
#                         --data, else /var/lib/parlor)
#   -s, --service NAME    systemd service stopped before and started after the
#                         swap (default parlor)
#       --no-service      leave systemd alone; stop the server yourself first
#   -p, --port N          the port to check /health on after the start (default:
#                         the service's --port, else 8080)
#       --health-url URL  checked after the start instead (default
#                         http://127.0.0.1:PORT/health; "" to skip)
#   -b, --binary PATH     the parlor that will serve the restored data (default:
#                         the service's, else parlor on the PATH): a backup with
#                         a newer schema than it knows is refused before anything
#                         is stopped
#   -y, --yes             do not ask for confirmation
#   -h, --help            this text
#
# It checks the tarball first (only parlor.sqlite and blobs/ inside, and the
# database passes PRAGMA integrity_check), unpacks it next to the data
# directory, stops the service, moves the current data directory aside to
# DIR.before-restore-YYYYMMDDTHHMMSSZ (nothing is deleted), moves the restored
# one into place with the same owner, and starts the service again.
# Clients reconnect by themselves; messages newer than the backup are gone.
# The service's --data, --host and --port are read as systemd runs it: the
# unit's ExecStart with its drop-ins and PARLOR_OPTS, the last one winning.
set -euo pipefail
# cron runs /etc/cron.d jobs with PATH=/usr/bin:/bin: runuser and friends are in sbin
export PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin${PATH:+:$PATH}"

data=""
service=parlor
use_service=1
port=""
health=unset
yes=0
backup=""
binary=""

# unit_flags and health_url_for: where the service really listens (shared with install.sh).
for lib in "$(dirname "$(readlink -f "$0")")/unit-flags.sh" /usr/local/share/parlor/unit-flags.sh; do
  if [ -r "$lib" ]; then . "$lib"; break; fi
done
declare -F unit_flags >/dev/null || { echo "restore.sh: unit-flags.sh not found" >&2; exit 1; }

usage() { sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; }
say()   { printf '==> %s\n' "$*"; }
die()   { printf 'restore.sh: %s\n' "$*" >&2; exit 1; }

while [ $# -gt 0 ]; do
  case "$1" in
    -d|--data)    [ $# -ge 2 ] || die "$1 needs a directory"; data="$2"; shift 2 ;;
    -s|--service) [ $# -ge 2 ] || die "$1 needs a name"; service="$2"; shift 2 ;;
    --no-service) use_service=0; shift ;;
    -p|--port)    [ $# -ge 2 ] || die "$1 needs a number"; port="$2"; shift 2 ;;
    --health-url) [ $# -ge 2 ] || die "$1 needs a URL"; health="$2"; shift 2 ;;
    -b|--binary)  [ $# -ge 2 ] || die "$1 needs a path"; binary="$2"; shift 2 ;;
    -y|--yes)     yes=1; shift ;;
    -h|--help)    usage; exit 0 ;;
    -*)           die "unknown option: $1 (see --help)" ;;
    *)            [ -z "$backup" ] || die "only one backup file, please"; backup="$1"; shift ;;
  esac
done

[ -z "$port" ] || [[ "$port" =~ ^[0-9]+$ ]] || die "--port must be a number, got: $port"
[ -n "$backup" ] || die "which backup? (see --help)"
[ -f "$backup" ] || die "no such file: $backup"
[ "$(id -u)" -eq 0 ] || die "run as root"
command -v sqlite3 >/dev/null || die "sqlite3 not found (apt-get install sqlite3)"
if [ "$use_service" -eq 1 ]; then
  systemctl cat "$service" >/dev/null 2>&1 ||
    die "no systemd service '$service' (use --service NAME, or --no-service)"
  unit_flags "$service"
else
  unit_host=127.0.0.1 unit_port=8080 unit_data=/var/lib/parlor unit_scheme=http
  unit_binary="$(command -v parlor || echo /usr/local/bin/parlor)"
fi
[ -n "$binary" ] || binary="$unit_binary"
[ -n "$data" ] || data="$unit_data"
[ "$health" != unset ] || health="$(health_url_for "$unit_host" "${port:-$unit_port}" "$unit_scheme")"
data="$(realpath -m "$data")"
[ "$data" != / ] || die "refusing to replace /"

# Whose data is it? The restored directory gets the same owner and mode.
if [ -d "$data" ]; then
  owner="$(stat -c %U "$data")"; group="$(stat -c %G "$data")"
elif getent passwd parlor >/dev/null; then
  owner=parlor; group="$(id -gn parlor)"
else
  owner=root; group=root
fi

say "checking $backup"
list="$(tar --list --gzip --file "$backup")" || die "not a readable .tar.gz: $backup"
bad="$(grep -Ev '^(\./)?(parlor\.sqlite|blobs(/[^/]+)*/?)$' <<<"$list" || true)"
[ -z "$bad" ] || die "unexpected entries in the tarball: $(head -3 <<<"$bad" | tr '\n' ' ')"
if grep -Eq '(^|/)\.\.(/|$)' <<<"$list"; then die "the tarball contains '..' paths"; fi

stage="$(mktemp -d "$(dirname "$data")/.parlor-restore.XXXXXX")"
trap 'rm -rf "$stage"' EXIT
tar --extract --gzip --file "$backup" --directory "$stage" --no-same-owner
[ -f "$stage/parlor.sqlite" ] || die "the tarball has no parlor.sqlite"
mkdir -p "$stage/blobs"
chown -R "$owner:$group" "$stage"
chmod 0750 "$stage"
check="$(runuser -u "$owner" -- sqlite3 "$stage/parlor.sqlite" "PRAGMA integrity_check;")"
[ "$check" = ok ] || die "the database in the backup is damaged: $check"
blobs="$(find "$stage/blobs" -type f | wc -l)"
# A backup taken after an upgrade cannot be served by the binary of a rollback, which
# would refuse to start on it (status 3): say so now, with nothing stopped.
has="$(schema_of "$stage/parlor.sqlite" runuser -u "$owner" --)"
knows="$(schema_known_by "$binary")"
if [ -n "$has" ] && [ -n "$knows" ] && [ "$has" -gt "$knows" ]; then
  die "this backup's database has schema v$has, newer than $binary knows (v$knows): restore a backup taken before the upgrade (its name ends in -v$knows or lower), or install the newer binary first; nothing changed"
fi
[ -n "$knows" ] || say "could not ask $binary which schema it knows; not checked"
say "backup is sound: parlor.sqlite (schema v${has:-?}) and $blobs blob(s)"

aside="$data.before-restore-$(date -u +%Y%m%dT%H%M%SZ)"
if [ "$yes" -eq 0 ]; then
  [ -t 0 ] || die "not a terminal: pass --yes to confirm"
  printf 'Replace %s with this backup? The current data is kept in %s. [y/N] ' "$data" "$aside"
  read -r answer
  [[ "$answer" =~ ^[Yy] ]] || die "nothing changed"
fi

# A server still running on the directory (it holds serve.lock) would go on storing,
# and acknowledging, into the directory moved aside: lost once it restarts.
served() { [ -e "$data/serve.lock" ] && ! flock -n "$data/serve.lock" true; }
if [ "$use_service" -eq 1 ]; then
  say "stopping $service"
  systemctl stop "$service"
  if served; then
    systemctl start "$service" || true
    die "another server than $service is running on $data (it holds serve.lock): stop it first; nothing changed"
  fi
elif served; then
  die "a server is still running on $data (it holds serve.lock): stop it first; nothing changed"
fi
previous=""
if [ -e "$data" ]; then
  say "moving current data to $aside"
  mv "$data" "$aside"
  previous=" The previous data is in $aside"
fi
say "putting the restored data in $data"
if ! mv "$stage" "$data"; then
  [ -e "$aside" ] && mv "$aside" "$data"
  [ "$use_service" -eq 1 ] && systemctl reset-failed "$service" 2>/dev/null; [ "$use_service" -eq 1 ] && systemctl start "$service"
  die "could not move the restored data into place; the old data is back"
fi

if [ "$use_service" -eq 0 ]; then
  say "done; start the server.$previous"
  exit 0
fi
say "starting $service"
# A rollback's binary refused the newer database a few times just before: systemd's
# start limit would refuse this start too (an outside test of a rollback).
systemctl reset-failed "$service" 2>/dev/null || true
systemctl start "$service" || die "$service did not start; see journalctl -u $service -e.$previous"
if [ -n "$health" ] && command -v curl >/dev/null; then
  # a database update on start can take a while on a large one (deploy/README.md)
  for _ in $(seq 1 120); do
    # -k: a liveness check on this machine, not a certificate check.
    if curl -fsSk --max-time 2 "$health" >/dev/null 2>&1; then
      say "done: $service answers on $health.$previous"
      exit 0
    fi
    sleep 0.5
  done
  die "$service did not answer on $health; see journalctl -u $service -e.$previous"
fi
systemctl is-active --quiet "$service" || die "$service is not running; see journalctl -u $service -e"
say "done.$previous"
