#!/bin/sh
# install-deps.sh — install what building and testing Lode needs on Debian 12, then fetch the
# pinned tree-sitter grammars. Used by the README's first command and by .ci/run.
#
# SPDX-FileCopyrightText: 2026 The Lode authors
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu

here=$(cd "$(dirname "$0")" && pwd)

# libgtksourceview-5-dev: the app's code preview. libgraphviz-dev: only bench/graph-layout-bench,
# which compares Lode's graph layout with dot (Lode itself does not link Graphviz). ripgrep:
# /lode/grep/same-as-rg compares lode grep with rg line for line, and is skipped without it.
packages="
  adwaita-icon-theme
  appstream
  clang
  dbus-daemon
  desktop-file-utils
  flatpak-builder
  gcc
  gettext
  git
  gnome-keyring
  libclang-rt-14-dev
  libglib2.0-bin
  libadwaita-1-dev
  libglib2.0-dev
  libgraphviz-dev
  libgtk-4-dev
  libgtksourceview-5-dev
  libjson-glib-dev
  libsecret-1-dev
  libsoup-3.0-dev
  libsqlite3-dev
  libyaml-dev
  librsvg2-common
  meson
  nettle-dev
  ninja-build
  openssl
  pkg-config
  python3
  python3-jsonschema
  python3-numpy
  ripgrep
  shared-mime-info
  xauth
  xvfb
"

as_root=
if [ "$(id -u)" != 0 ]; then
  as_root=sudo
fi

export DEBIAN_FRONTEND=noninteractive
$as_root apt-get update -q
# shellcheck disable=SC2086
$as_root apt-get install -y -q --no-install-recommends $packages

# npm fetches the grammars. Debian's npm is only needed where no Node.js is installed yet
# (its nodejs package conflicts with other Node.js builds, so never replace one).
if ! command -v npm >/dev/null 2>&1; then
  $as_root apt-get install -y -q nodejs npm
fi

"$here/fetch-grammars.sh" >/dev/null
"$here/fetch-test-models.sh" >/dev/null

# The MCP tests drive lode-mcp with the official SDK client and the Inspector CLI, pinned in
# tests/mcp/package-lock.json. No install scripts run: none of these packages needs one here.
(cd "$here/../tests/mcp" && npm ci --ignore-scripts --no-audit --no-fund >/dev/null)
