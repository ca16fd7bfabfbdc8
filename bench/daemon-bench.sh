#!/bin/sh
# Runs bench/daemon-bench on a private session bus whose service directory activates the
# build-tree loded, with indexes in a temporary data directory.
#   BUILDDIR=_build [LODED_BUILDDIR=other-build] bench/daemon-bench.sh [LARGE_TREE]
#   BUILDDIR=_build bench/daemon-bench.sh --load [LARGE_TREE [SEARCHES]]
# --load: 8 lode-mcp and 2 D-Bus clients × SEARCHES searches (default 1000) while LARGE_TREE
# is re-indexed and a generated git repository (400 files) is watched through a branch switch
# that rewrites or adds every file (see daemon-bench.c).
# LODED_BUILDDIR measures the loded of another build (a reference) with this bench.
# LARGE_TREE defaults to git v2.47.0, unpacked from $GIT_MIRROR if missing.
set -eu
BUILDDIR=${BUILDDIR:-_build}
BUILDDIR=$(cd "$BUILDDIR" && pwd)
LODED_BUILDDIR=$(cd "${LODED_BUILDDIR:-$BUILDDIR}" && pwd)
GIT_MIRROR=${GIT_MIRROR:-}
LOAD=
if [ "${1:-}" = --load ]; then
  LOAD=1
  shift
fi
LARGE=${1:-${TMPDIR:-/tmp}/git-2.47.0}
SEARCHES=${2:-1000}
if [ ! -d "$LARGE" ]; then
  if [ -z "$GIT_MIRROR" ]; then
    echo "daemon-bench.sh: give a LARGE_TREE, or a clone of git in GIT_MIRROR to unpack v2.47.0 from" >&2
    exit 1
  fi
  mkdir -p "$LARGE"
  git -C "$GIT_MIRROR" archive v2.47.0 | tar -x -C "$LARGE"
fi

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/services" "$WORK/small/src"
for i in $(seq 1 200); do
  printf 'int\nfunction_%s (int value)\n{\n  return value + %s;\n}\n' "$i" "$i" > "$WORK/small/src/f$i.c"
done
sed -e "s|@bus_name@|io.github.lode.Lode.Daemon|" -e "s|@libexecdir@|$LODED_BUILDDIR/src/daemon|" \
    -e "s|@systemd_service@||" "$(dirname "$0")/../data/io.github.lode.Lode.Daemon.service.in" \
    > "$WORK/services/io.github.lode.Lode.Daemon.service"
cat > "$WORK/session.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:tmpdir=$WORK</listen>
  <servicedir>$WORK/services</servicedir>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
CONF

if [ -n "$LOAD" ]; then
  # The watched repository: 300 files on main; on feature, each of them changed and 100 more.
  # commit BRANCH TYPE N: writes files 1..N as functions of TYPE, and commits them.
  commit () {
    for i in $(seq 1 "$3"); do
      printf '%s\nwatched_%s (%s value)\n{\n  return value * %s;\n}\n' "$2" "$i" "$2" "$i" \
        > "$WORK/watched/src/w$i.c"
    done
    git -C "$WORK/watched" add -A
    git -C "$WORK/watched" -c user.name=bench -c user.email=bench@lode.invalid commit -q -m "$1"
  }
  mkdir -p "$WORK/watched/src"
  git -C "$WORK/watched" init -q -b main
  commit main int 300
  git -C "$WORK/watched" checkout -q -b feature
  commit feature long 400
  git -C "$WORK/watched" checkout -q main
  set -- --load "$BUILDDIR/src/mcp/lode-mcp" "$LARGE" "$WORK/watched" "$SEARCHES"
else
  set -- "$WORK/small" "$LARGE"
fi

LODE_DATA_DIR="$WORK/data" GSETTINGS_BACKEND=memory \
  dbus-run-session --config-file="$WORK/session.conf" -- \
  "$BUILDDIR/bench/daemon-bench" "$@"
