#!/usr/bin/env bash
# Online backup of a Parlor data directory into one dated tarball.
# Installed as /usr/local/sbin/parlor-backup by install.sh.
#
#   parlor-backup [--data DIR] [--output DIR] [--keep N] [--quiet]
#
#   -d, --data DIR    the server's --data directory (default /var/lib/parlor)
#   -o, --output DIR  where to write parlor-YYYYMMDDTHHMMSSZ-vN.tar.gz (vN: the
#                     database's schema, as `parlor --version` names it)
#                     (default /var/backups/parlor; created with mode 0700)
#   -k, --keep N      then delete all but the newest N parlor-*.tar.gz in the
#                     output directory (default 0: delete nothing)
#   -q, --quiet       print only errors and the tarball's path (for cron)
#   -h, --help        this text
#   TMPDIR            where the snapshot is staged (default /var/tmp)
#
# Safe while the server runs. The database is copied with sqlite3's `.backup`
# inside one read transaction, so the copy is a consistent snapshot even while
# the server keeps committing (WAL mode). blobs/ is archived after the snapshot,
# so every image the snapshot refers to is in the tarball. The tarball holds
# `parlor.sqlite` and `blobs/`, is readable by its owner only, and its path is
# printed on stdout. Run as root or as the data directory's owner.
set -euo pipefail
# cron runs /etc/cron.d jobs with PATH=/usr/bin:/bin: runuser and friends are in sbin
export PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin${PATH:+:$PATH}"

data=/var/lib/parlor
out=/var/backups/parlor
keep=0
quiet=0

# schema_of: the database version a backup's name carries (shared with restore.sh).
for lib in "$(dirname "$(readlink -f "$0")")/unit-flags.sh" /usr/local/share/parlor/unit-flags.sh; do
  if [ -r "$lib" ]; then . "$lib"; break; fi
done
declare -F schema_of >/dev/null || { echo "backup.sh: unit-flags.sh not found" >&2; exit 1; }

usage() { sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; }
say()   { [ "$quiet" -eq 1 ] || printf '==> %s\n' "$*" >&2; }
die()   { printf 'backup.sh: %s\n' "$*" >&2; exit 1; }

while [ $# -gt 0 ]; do
  case "$1" in
    -d|--data)   [ $# -ge 2 ] || die "$1 needs a directory"; data="$2"; shift 2 ;;
    -o|--output) [ $# -ge 2 ] || die "$1 needs a directory"; out="$2"; shift 2 ;;
    -k|--keep)   [ $# -ge 2 ] || die "$1 needs a number"; keep="$2"; shift 2 ;;
    -q|--quiet)  quiet=1; shift ;;
    -h|--help)   usage; exit 0 ;;
    *)           die "unknown option: $1 (see --help)" ;;
  esac
done

[[ "$keep" =~ ^[0-9]+$ ]] || die "--keep must be a number, got: $keep"
command -v sqlite3 >/dev/null || die "sqlite3 not found (apt-get install sqlite3)"
[ -f "$data/parlor.sqlite" ] || die "no database at $data/parlor.sqlite"
data="$(cd "$data" && pwd)"  # tar's second -C below is taken relative to its first
case "${TMPDIR:-}" in *"'"*) die "TMPDIR must not contain a single quote" ;; esac

umask 077
mkdir -p "$out"
out="$(cd "$out" && pwd)"
# The snapshot is staged in $TMPDIR (default /var/tmp, on disk), where the data
# directory's owner can write even when the output directory is root's alone.
stage="$(mktemp -d "${TMPDIR:-/var/tmp}/parlor-backup.XXXXXX")"
trap 'rm -rf "$stage"' EXIT

# Run sqlite3 as the owner of the data directory: a root-owned -wal or -shm file
# left behind would lock the server out of its own database.
owner="$(stat -c %U "$data")"
as_owner() {
  if [ "$(id -u)" -eq 0 ] && [ "$owner" != root ]; then
    runuser -u "$owner" -- "$@"
  else
    "$@"
  fi
}
[ "$(id -u)" -eq 0 ] && chown "$owner" "$stage"

stamp="$(date -u +%Y%m%dT%H%M%SZ)"

say "snapshotting $data/parlor.sqlite"
# BEGIN + a read pins one snapshot for the whole copy, so the backup never has
# to restart when the server commits meanwhile; .timeout waits out brief locks.
as_owner sqlite3 -bail "$data/parlor.sqlite" \
  ".timeout 30000" \
  "BEGIN;" "SELECT count(*) FROM sqlite_schema;" \
  ".backup main '$stage/parlor.sqlite'" \
  "COMMIT;" >/dev/null
check="$(as_owner sqlite3 "$stage/parlor.sqlite" "PRAGMA quick_check;")"
[ "$check" = ok ] || die "the snapshot failed its integrity check: $check"
# The snapshot's schema (its newest migration, v14) goes in the name: after a rollback
# the backup to restore is one the older binary knows (`parlor --version` says which).
schema="$(schema_of "$stage/parlor.sqlite" as_owner)"
tarball="$out/parlor-$stamp${schema:+-v$schema}.tar.gz"

say "archiving the snapshot and $data/blobs"
members=(-C "$stage" parlor.sqlite)
[ -d "$data/blobs" ] && members+=(-C "$data" blobs)
rc=0
# Blobs are written to blobs/.<hash>.<random>.tmp, then renamed: skip unfinished ones.
tar --create --gzip --file "$tarball.partial" --exclude='.*.tmp' "${members[@]}" || rc=$?
# 1 = a file changed while being read; blobs never change once written, so at most a warning.
[ "$rc" -le 1 ] || { rm -f "$tarball.partial"; die "tar failed ($rc)"; }
mv "$tarball.partial" "$tarball"
say "wrote $tarball ($(du -h "$tarball" | cut -f1))"

if [ "$keep" -gt 0 ]; then
  shopt -s nullglob
  all=("$out"/parlor-*.tar.gz)       # names sort oldest first
  for ((i = 0; i < ${#all[@]} - keep; i++)); do
    say "removing old backup ${all[i]}"
    rm -f -- "${all[i]}"
  done
fi

printf '%s\n' "$tarball"
