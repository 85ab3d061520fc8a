#!/usr/bin/env bash
# Install (or upgrade) Parlor as a systemd service. Run as root from a checkout:
#
#   sudo deploy/install.sh [--binary PATH] [--public DIR] [--port N]
#                          [--allowed-origin URL] [--no-start]
#
#   --binary PATH         a built `parlor` binary; without it the script builds
#                         one with `swift build -c release --static-swift-stdlib`
#                         (as the sudo user, if any). Set SWIFT=/path/to/swift
#                         if swift is not on root's PATH.
#   --public DIR          the static web files (default: Public/ of this checkout)
#   --port N              the local port Parlor listens on (default 8080, as in
#                         parlor.service); written to /etc/parlor/parlor.env as
#                         "--port N" when that file is created. Point the proxy at it.
#   --allowed-origin URL  public address of the site, e.g. https://chat.example.org;
#                         written to /etc/parlor/parlor.env when that file is created
#   --no-start            install and enable, but do not (re)start the service
#   --no-backup           on an upgrade, do not take a backup first (see below)
#
# What it does (safe to run again; this is also how you upgrade). An upgrade first
# takes a backup with parlor-backup into /var/backups/parlor: the new binary updates
# the database when it starts, and the previous one cannot open it afterwards, so
# going back means restoring that backup (README.md, "Upgrading").
#   /usr/local/bin/parlor                  the binary (previous one kept as parlor.previous)
#   /usr/local/share/parlor/Public/        the web client
#   /usr/local/share/parlor/README.md      the self-hoster's guide
#   /usr/local/share/parlor/unit-flags.sh  what parlor-restore reads the service's flags with
#   /usr/local/sbin/parlor-backup|restore  deploy/backup.sh and deploy/restore.sh
#   /etc/parlor/parlor.env                 extra flags (PARLOR_OPTS); created once, never overwritten
#   /etc/systemd/system/parlor.service     the unit; then enable and (re)start it
#   system user `parlor`, data in /var/lib/parlor (mode 0750)
# The health check at the end asks the address and port the service really uses:
# the unit's ExecStart with its drop-ins and PARLOR_OPTS, the last --port winning.
set -euo pipefail
umask 022

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"

binary=""
public="$repo/Public"
origin=""
port=""
start=1
backup=1

usage() { sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; }
say()   { printf '==> %s\n' "$*"; }
run()   { printf '  + %s\n' "$*"; "$@"; }
die()   { printf 'install.sh: %s\n' "$*" >&2; exit 1; }

while [ $# -gt 0 ]; do
  case "$1" in
    --binary)         [ $# -ge 2 ] || die "--binary needs a path"; binary="$2"; shift 2 ;;
    --public)         [ $# -ge 2 ] || die "--public needs a directory"; public="$2"; shift 2 ;;
    --port)           [ $# -ge 2 ] || die "--port needs a number"; port="$2"; shift 2 ;;
    --allowed-origin) [ $# -ge 2 ] || die "--allowed-origin needs a URL"; origin="$2"; shift 2 ;;
    --no-start)       start=0; shift ;;
    --no-backup)      backup=0; shift ;;
    -h|--help)        usage; exit 0 ;;
    *)                die "unknown option: $1 (see --help)" ;;
  esac
done

[ "$(id -u)" -eq 0 ] || die "run as root (sudo $0)"
[ -f "$public/index.html" ] || die "$public does not look like Parlor's Public/ (no index.html)"
if [ -n "$port" ]; then
  [[ "$port" =~ ^[0-9]+$ ]] && [ "$port" -ge 1 ] && [ "$port" -le 65535 ] ||
    die "--port must be a number from 1 to 65535, got: $port"
fi
if [ -n "$origin" ]; then
  [[ "$origin" =~ ^https?://[^/[:space:]]+$ ]] ||
    die "--allowed-origin must be scheme://host[:port] with no path or trailing slash, got: $origin"
fi

have_systemd=0
[ -d /run/systemd/system ] && have_systemd=1

apt_install() {  # install the Debian packages among "$@" that are missing
  local missing=() p
  command -v dpkg >/dev/null && command -v apt-get >/dev/null || return 0
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  say "installing packages: ${missing[*]}"
  run apt-get update -qq
  run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
}

find_swift() {
  local c
  for c in "${SWIFT:-}" "$(command -v swift || true)" /opt/swift/usr/bin/swift \
           /usr/share/swift/usr/bin/swift \
           ${SUDO_USER:+"$(getent passwd "$SUDO_USER" | cut -d: -f6)/.local/share/swiftly/bin/swift"}; do
    if [ -n "$c" ] && [ -x "$c" ]; then printf '%s\n' "$c"; return 0; fi
  done
  return 1
}

# unit_flags and health_url_for: where the service really listens (shared with restore.sh).
. "$here/unit-flags.sh"

# 1. Packages: sqlite3 for backups; build dependencies when building here.
# The binary's own libraries (a --binary built elsewhere needs them too), and libev's
# event loop plugin, without which every start logs an error and falls back to poll().
apt_install sqlite3 ca-certificates curl libwebsockets-evlib-ev libpq5 libnats3.4
if [ -z "$binary" ]; then
  apt_install pkg-config libwebsockets-dev libssl-dev libsqlite3-dev libpq-dev libnats-dev
  swift="$(find_swift)" || die "swift not found. Install Swift (https://www.swift.org/install/linux/),
or set SWIFT=/path/to/swift, or build yourself and pass --binary .build/release/parlor"
  say "building with $swift (release, static Swift runtime)"
  cd "$repo"
  build=("$swift" build -c release --product parlor --static-swift-stdlib --package-path "$repo")
  if [ -n "${SUDO_USER:-}" ] && [ "$SUDO_USER" != root ] &&
     [ "$(stat -c %U "$repo")" = "$SUDO_USER" ]; then
    run runuser -u "$SUDO_USER" -- "${build[@]}"   # keep .build/ owned by you, not root
  else
    run "${build[@]}"
  fi
  binary="$repo/.build/release/parlor"
fi
[ -x "$binary" ] || die "not an executable: $binary"

# The unit hides /home, /root and /tmp from the service: the binary must not
# need shared libraries from there, and every library must be present.
libs="$(ldd "$binary" 2>&1 || true)"
if grep -q 'not found' <<<"$libs"; then
  grep 'not found' <<<"$libs" >&2
  die "$binary needs shared libraries that are missing (apt install libwebsockets17 libssl3 libsqlite3-0 libpq5 libnats3.4?)"
fi
if grep -Eq '=> (/home|/root|/tmp)/' <<<"$libs"; then
  grep -E '=> (/home|/root|/tmp)/' <<<"$libs" >&2
  die "$binary loads libraries from /home, /root or /tmp, which the service cannot see; build with --static-swift-stdlib"
fi

# 2. User and directories.
if ! getent passwd parlor >/dev/null; then
  say "creating system user parlor"
  run useradd --system --user-group --home-dir /var/lib/parlor --no-create-home \
      --shell /usr/sbin/nologin --comment "Parlor messaging server" parlor
else
  say "user parlor exists"
fi
say "creating directories"
run install -d -m 0750 -o parlor -g parlor /var/lib/parlor
run install -d -m 0755 /usr/local/share/parlor /etc/parlor

# 3. Before a new binary replaces the running one: a backup, the way back.
unit_flags parlor.service
if [ "$backup" -eq 1 ] && [ -f "$unit_data/parlor.sqlite" ] && [ -f /usr/local/bin/parlor ] &&
   ! cmp -s "$binary" /usr/local/bin/parlor; then
  say "upgrading: backing up $unit_data first (going back restores it; --no-backup skips this)"
  run "$here/backup.sh" --data "$unit_data" --quiet ||
    die "the backup failed, so nothing was changed; fix it, or run again with --no-backup"
fi

# 3b. Binary (atomic replace; keep the previous one for a rollback) and scripts.
say "installing binary to /usr/local/bin/parlor"
run install -m 0755 -o root -g root "$binary" /usr/local/bin/parlor.new
if [ -f /usr/local/bin/parlor ] && ! cmp -s /usr/local/bin/parlor.new /usr/local/bin/parlor; then
  run cp -p /usr/local/bin/parlor /usr/local/bin/parlor.previous
fi
run mv -f /usr/local/bin/parlor.new /usr/local/bin/parlor
run install -m 0755 -o root -g root "$here/backup.sh" /usr/local/sbin/parlor-backup
run install -m 0755 -o root -g root "$here/restore.sh" /usr/local/sbin/parlor-restore
run install -D -m 0644 -o root -g root "$here/unit-flags.sh" /usr/local/share/parlor/unit-flags.sh
run install -m 0644 -o root -g root "$here/README.md" /usr/local/share/parlor/README.md

# 4. Public/: copy next to the old one, then swap, so the live tree is never half-copied.
say "installing web files to /usr/local/share/parlor/Public"
dest=/usr/local/share/parlor/Public
run rm -rf "$dest.new" "$dest.old"
run cp -R "$public" "$dest.new"
run chown -R root:root "$dest.new"
run chmod -R u=rwX,go=rX "$dest.new"
[ -d "$dest" ] && run mv "$dest" "$dest.old"
run mv "$dest.new" "$dest"
run rm -rf "$dest.old"

# 5. Configuration (created once; yours to edit afterwards).
if [ ! -e /etc/parlor/parlor.env ]; then
  say "creating /etc/parlor/parlor.env"
  opts=""
  [ -n "$port" ] && [ "$port" != 8080 ] && opts="--port $port"
  [ -n "$origin" ] && opts="${opts:+$opts }--allowed-origin $origin"
  cat >/etc/parlor/parlor.env <<EOF
# Extra flags for \`parlor serve\`, read by parlor.service (systemctl restart parlor after editing).
# Behind a proxy, allow the public address browsers use, exactly: scheme://host[:port].
# A flag given here overrides the unit's (the last one wins), e.g. --port 8081.
#   PARLOR_OPTS="--allowed-origin https://chat.example.org --log-level info"
PARLOR_OPTS="$opts"
EOF
  chmod 0644 /etc/parlor/parlor.env
else
  say "keeping existing /etc/parlor/parlor.env"
  if [ -n "$origin" ] && ! grep -qF -- "$origin" /etc/parlor/parlor.env; then
    printf 'install.sh: note: %s is not in /etc/parlor/parlor.env; add "--allowed-origin %s" to PARLOR_OPTS\n' \
      "$origin" "$origin" >&2
  fi
fi

# 6. The unit.
say "installing /etc/systemd/system/parlor.service"
run install -m 0644 -o root -g root "$here/parlor.service" /etc/systemd/system/parlor.service
if [ "$have_systemd" -eq 0 ]; then
  say "systemd is not running here: start the server yourself, e.g."
  echo "    runuser -u parlor -- /usr/local/bin/parlor serve --host 127.0.0.1 --port ${port:-8080} \\"
  echo "        --data /var/lib/parlor --public /usr/local/share/parlor/Public"
  exit 0
fi
run systemctl daemon-reload
run systemctl enable parlor.service
unit_flags parlor.service
if [ -n "$port" ] && [ "$port" != "$unit_port" ]; then
  printf 'install.sh: note: the service listens on port %s (its unit, drop-ins or /etc/parlor/parlor.env), not %s\n' \
    "$unit_port" "$port" >&2
fi
health_url="$(health_url_for "$unit_host" "$unit_port" "$unit_scheme")"
if [ "$start" -eq 0 ]; then
  say "not starting (--no-start); start with: systemctl restart parlor"
  exit 0
fi
run systemctl restart parlor.service

# 7. Check that it answers where the service listens. -k: this asks a loopback
# address, which a certificate for the public name does not cover.
say "waiting for $health_url"
for _ in $(seq 1 120); do  # a database update on start can take a while
  if health="$(curl -fsSk --max-time 2 "$health_url" 2>/dev/null)"; then
    say "parlor is running: $health"
    say "next: put it behind TLS (deploy/Caddyfile or deploy/nginx.conf), see /usr/local/share/parlor/README.md"
    exit 0
  fi
  systemctl is-failed --quiet parlor.service && break
  sleep 0.5
done
if systemctl is-active --quiet parlor.service; then
  say "parlor is active but did not answer on $health_url; check it yourself"
  exit 0
fi
systemctl --no-pager status parlor.service >&2 || true
die "parlor failed to start; see: journalctl -u parlor -e"
