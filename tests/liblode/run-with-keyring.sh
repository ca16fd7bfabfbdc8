#!/bin/sh
# run-with-keyring.sh TEST [ARGS…] — runs TEST on a private session bus with gnome-keyring-daemon
# serving the Secret Service (secrets component only, no display needed). Without
# gnome-keyring-daemon the test runs as is and skips itself.
#
# SPDX-FileCopyrightText: 2026 The Lode authors
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu

if ! command -v gnome-keyring-daemon >/dev/null 2>&1 || ! command -v dbus-run-session >/dev/null 2>&1; then
  exec "$@"
fi

if [ -z "${LODE_KEYRING_INNER:-}" ]; then
  LODE_KEYRING_INNER=1 exec dbus-run-session -- "$0" "$@"
fi

HOME=$(mktemp -d)
XDG_RUNTIME_DIR=$(mktemp -d)
export HOME XDG_RUNTIME_DIR
trap 'kill "$keyring" 2>/dev/null || true; rm -rf "$HOME" "$XDG_RUNTIME_DIR"' EXIT

gnome-keyring-daemon --start --foreground --components=secrets >/dev/null 2>&1 &
keyring=$!

# Wait (at most 10 s) until the daemon owns the Secret Service name.
i=0
while [ $i -lt 100 ]; do
  if gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
       --method org.freedesktop.DBus.NameHasOwner org.freedesktop.secrets 2>/dev/null |
     grep -q true; then
    break
  fi
  sleep 0.1
  i=$((i + 1))
done

export LODE_TEST_SECRET_SERVICE=1
"$@"
