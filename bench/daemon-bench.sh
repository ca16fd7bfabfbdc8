#!/bin/sh
# Runs bench/daemon-bench on a private session bus whose service directory activates the
# build-tree loded, with indexes in a temporary data directory.
#   BUILDDIR=_build [LODED_BUILDDIR=other-build] bench/daemon-bench.sh [LARGE_TREE]
# LODED_BUILDDIR measures the loded of another build (a reference) with this bench.
# LARGE_TREE defaults to git v2.47.0, unpacked from $GIT_MIRROR if missing.
set -eu
BUILDDIR=${BUILDDIR:-_build}
BUILDDIR=$(cd "$BUILDDIR" && pwd)
LODED_BUILDDIR=$(cd "${LODED_BUILDDIR:-$BUILDDIR}" && pwd)
GIT_MIRROR=${GIT_MIRROR:-}
LARGE=${1:-${TMPDIR:-/tmp}/git-2.47.0}
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

LODE_DATA_DIR="$WORK/data" GSETTINGS_BACKEND=memory \
  dbus-run-session --config-file="$WORK/session.conf" -- \
  "$BUILDDIR/bench/daemon-bench" "$WORK/small" "$LARGE"
