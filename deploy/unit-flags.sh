# Shared by install.sh, backup.sh and restore.sh (installed as
# /usr/local/share/parlor/unit-flags.sh): where the running service really listens and
# keeps its data, and which database version a file has and a binary knows.

# Reads `parlor serve`'s flags as systemd runs the service: ExecStart from the unit
# and its drop-ins, with $PARLOR_OPTS from its EnvironmentFile (/etc/parlor/parlor.env).
# The last occurrence of a flag wins, as in `parlor serve`. Sets unit_host,
# unit_port, unit_data, unit_scheme and unit_binary (the program ExecStart runs);
# without systemd, the unit's defaults.
unit_flags() {
  local service="$1" argv="" opts="" f w next="" words=()
  unit_host=127.0.0.1 unit_port=8080 unit_data=/var/lib/parlor unit_scheme=http unit_binary=/usr/local/bin/parlor
  if command -v systemctl >/dev/null; then
    argv="$(systemctl show -p ExecStart --value "$service" 2>/dev/null |
            sed -n 's/.*argv\[\]=\([^;]*\) ;.*/\1/p' | tail -n 1)"
    while read -r f _; do
      [ -r "$f" ] || continue
      w="$(sed -n 's/^[[:space:]]*PARLOR_OPTS=//p' "$f" | tail -n 1)"
      w="${w%\"}"; w="${w#\"}"; w="${w%\'}"; w="${w#\'}"
      [ -n "$w" ] && opts="$w"
    done < <(systemctl show -p EnvironmentFiles --value "$service" 2>/dev/null)
  fi
  argv="${argv//\$\{PARLOR_OPTS\}/$opts}"
  read -r -a words <<<"${argv//\$PARLOR_OPTS/$opts}"
  [ "${#words[@]}" -gt 0 ] && unit_binary="${words[0]}"
  for w in "${words[@]}"; do
    case "$next" in
      host) unit_host="$w" ;; port) unit_port="$w" ;; data) unit_data="$w" ;;
    esac
    next=""
    case "$w" in
      --host) next=host ;; --port) next=port ;; --data) next=data ;;
      --host=*) unit_host="${w#*=}" ;; --port=*) unit_port="${w#*=}" ;; --data=*) unit_data="${w#*=}" ;;
      --tls-cert|--tls-cert=*) unit_scheme=https ;;
    esac
  done
}

# Where to reach /health on this machine: a wildcard address is asked on loopback.
health_url_for() {  # host port scheme
  local host="$1"
  case "$host" in
    0.0.0.0|"") host=127.0.0.1 ;;
    ::|"[::]")  host="[::1]" ;;
    \[*)        ;;
    *:*)        host="[$host]" ;;
  esac
  printf '%s://%s:%s/health\n' "$3" "$host" "$2"
}

# The database schema a SQLite file has: its newest migration's number ("14" for
# "v14-former-senders"), or nothing when it has none. What follows the file is put
# before sqlite3 (runuser -u parlor --, to read it as its owner).
schema_of() {  # file [command prefix...]
  local file="$1"; shift
  "$@" sqlite3 -readonly "$file" "SELECT identifier FROM grdb_migrations;" 2>/dev/null |
    sed -n 's/^v\([0-9][0-9]*\).*/\1/p' | sort -n | tail -n 1 || true  # none: nothing, not a failure
}

# The newest schema a parlor binary knows ("14"), from `parlor --version`, or nothing.
schema_known_by() {  # binary
  "$1" --version 2>/dev/null | sed -n 's/.*SQLite v\([0-9][0-9]*\).*/\1/p' || true  # no such binary: nothing
}
