#!/usr/bin/env bash
# analyze.sh — the two dynamic and static checks that are too slow for every CI run:
#
#   build-aux/analyze.sh scan-build [BUILD_DIR]   clang's static analyzer over Lode's programs
#                                                 and liblode (the tree-sitter grammars are
#                                                 generated code and left out); HTML reports
#                                                 under BUILD_DIR/meson-logs/scanbuild
#   build-aux/analyze.sh valgrind [BUILD_DIR] [TEST…]
#                                                 the C test suites under valgrind's memcheck
#                                                 (children too: lode, lode-mcp, loded), with
#                                                 build-aux/valgrind.supp for what is not
#                                                 Lode's (PCRE2's generated code)
#
# Each exits non-zero when it finds something: scan-build a report, valgrind a memcheck error
# (tests that fail only because valgrind makes them slower are listed, not counted).
# Packages: clang-tools (scan-build), valgrind.
#
# scan-build, 2026-11-27 (Debian's clang 14, main at c0fe48e): 94 reports, 11 gone.
#   fixed      2  lode-use.c: a weight group of model.json read before it was checked (a
#                 json-glib critical on a damaged model; regression test in test-use)
#              1  lode-imports.c: memcmp () of a NULL text (latent: no query compares with "")
#   clarified  8  the code now states what the analyser could not know: a pending HTTP read or
#                 write holds a reference (2), the reference walk's depth (2), a NULL graph run
#                 means no graph (3), gemm's kernel choice exists only with the x86 kernels (1)
#   left      83  false positives:
#             66  leaks of a g_autofree/g_autoptr/g_auto variable, or of a field or pointer
#                 that borrows one: clang 14 does not run __attribute__((cleanup))
#              8  dead (nested) stores into such a variable: only its cleanup reads it
#              4  contracts across calls: g_error_matches (NULL, …) is FALSE; a callee that
#                 returns NULL sets its GError; g_strdup () of a checksum's string is not
#                 NULL; g_return_val_if_reached () is a programmer error, not a GError
#              4  invariants set elsewhere: vector rows padded to whole blocks; the encoder's
#                 first layer as wide as its embeddings; BERT rows written by helper threads;
#                 tile_rows () does not change the tile it is given (a const pointer)
#              1  lode_http_server_disconnect(): every connection's server is the one closing
# (Counted from a full run for the files unchanged since 11:43, and each other file analysed
# alone with the same flags: a full run did not finish on the loaded machine.)
#
# valgrind, 2026-11-27 (main at 7129353, then the five suites added at cd827fb): 0 memcheck
# errors in 29 test programs (47 min on the loaded machine). The failures were all slowness:
# a parse over its time budget (chunker's swift sample, imports' 20,000 imports, symbols'
# references in lode-store.c), a subprocess over its 20 s (context's hostile artifacts),
# SIGTERM before lode had set its handlers (cli), and EMFILE (mcp-http-limits, above).
#
# SPDX-FileCopyrightText: 2026 The Lode authors
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail

cd "$(dirname "$0")/.."
mode=${1:-}
shift || true

# The default subset under valgrind (about 30 min on 2 cores): every C suite but the slow
# indexing ones (indexer, graph-index, hybrid, search, tools and branches index trees that take
# over 40 min under valgrind, or trip their 60 s watchdogs; the same indexing code runs here
# through cli, embedder-source, chunker and imports), the encoder of use (46 s natively, hours
# under valgrind; bert covers the same kernels), the watcher's (timed file-system events), the
# daemon's and the secret store's (their own D-Bus sessions), the Qdrant suites (their test
# servers' timeouts) and the Node-driven MCP suites. Under valgrind, mcp-http-limits' EMFILE
# case does not run out of descriptors (valgrind manages the limit), and fails for that.
VALGRIND_TESTS=(bert builtin-embedder chunker code-tokenizer config context embedder
                embedder-source file-evidence gemm glob graph ignore impact imports json
                language model-pull ollama-embedder openai-embedder scanner search-results
                store symbols vectors wordpiece http-server mcp-http-limits cli)

case "$mode" in
  scan-build)
    dir=${1:-_build-scan}
    rm -rf "$dir"
    # scan-build analyses what goes through its compiler wrapper (ccc-analyzer), which it
    # puts in CC; meson writes the compiler it was configured with into build.ninja, so it is
    # configured under scan-build too. Configured with CC=clang, ninja ran clang itself and
    # nothing was analysed: "No bugs found" said nothing.
    scan-build --use-cc=clang meson setup "$dir" --buildtype=debug >/dev/null
    if ! grep -q 'ccc-analyzer' "$dir/build.ninja"; then
      echo "analyze.sh: $dir does not compile through scan-build's ccc-analyzer" >&2
      exit 1
    fi
    # Our code only: the grammars are generated parsers (and take most of the time). The
    # programs cover liblode, the MCP server and the daemon; the tests are left out (Debian's
    # clang 14 has no _Float16 on x86-64, which test-bert uses).
    scan-build --use-cc=clang --status-bugs -o "$dir/meson-logs/scanbuild" \
      --exclude "${XDG_CACHE_HOME:-$HOME/.cache}/lode/grammars" --exclude "$PWD/$dir" \
      ninja -C "$dir" src/cli/lode src/mcp/lode-mcp src/daemon/loded
    ;;
  valgrind)
    dir=${1:-_build}
    shift || true
    tests=("$@")
    [ ${#tests[@]} -gt 0 ] || tests=("${VALGRIND_TESTS[@]}")
    [ -d "$dir" ] || meson setup "$dir" >/dev/null
    meson compile -C "$dir"
    # Errors only: memory GLib's type system and caches keep for the life of a process is
    # not an error. Children (lode, lode-mcp) are checked too; git and node are not.
    meson test -C "$dir" --num-processes 2 --timeout-multiplier 20 \
      --wrap="valgrind --quiet --error-exitcode=99 --leak-check=no --track-origins=yes \
              --trace-children=yes --trace-children-skip=*/git,*/node,*/dbus-daemon,*/sh \
              --suppressions=$PWD/build-aux/valgrind.supp --gen-suppressions=all" \
      "${tests[@]}" || true
    # Memcheck's reports are what counts: a test may also fail because it runs 20-50 times
    # slower (a parse over its time budget), which says nothing about memory.
    log="$dir/meson-logs/testlog-valgrind.txt"
    errors=$(grep -cE '^==[0-9]+== (Invalid|Conditional|Use of uninitialised|Syscall param|Mismatched|Source and destination|Argument)' "$log" || true)
    echo "memcheck: $errors error(s) in ${#tests[@]} test programs (log: $log)"
    [ "$errors" -eq 0 ]
    ;;
  *)
    sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
