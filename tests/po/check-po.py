#!/usr/bin/env python3
# check-po.py — the translation checks: POTFILES.in is complete and sorted, and a language's
# catalog translates every message of the current sources.
#
# SPDX-FileCopyrightText: 2026 The Lode authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: check-po.py potfiles SOURCE_ROOT [XGETTEXT_ARG…]
#        check-po.py complete SOURCE_ROOT LANGUAGE [XGETTEXT_ARG…]
#
# Messages are found the way meson's i18n.gettext (preset "glib") finds them: xgettext with
# the glib keywords, plus the extra arguments po/meson.build gives it (passed after the
# other arguments). A file "has marked strings" when xgettext extracts a message from it.

import os
import re
import subprocess
import sys
import tempfile

GLIB_PRESET = [
    "--from-code=UTF-8",
    "--add-comments",
    "--keyword=_",
    "--keyword=N_",
    "--keyword=C_:1c,2",
    "--keyword=NC_:1c,2",
    "--keyword=g_dcgettext:2",
    "--keyword=g_dngettext:2,3",
    "--keyword=g_dpgettext2:2c,3",
]

# What can hold messages: C sources, GtkBuilder files and the data files merged with the
# translations.
CANDIDATE = re.compile(r"\.(c|h|ui)$|\.desktop\.in(\.in)?$|\.metainfo\.xml\.in(\.in)?$"
                       r"|\.gschema\.xml$")
SEARCHED = ["src", "gtk-ui", "data"]


def read_list(path):
    with open(path, encoding="utf-8") as f:
        return [line.strip() for line in f
                if line.strip() and not line.lstrip().startswith("#")]


def xgettext(root, files, extra, output):
    subprocess.run(["xgettext", *GLIB_PRESET, *extra, "--output", output, *files],
                   cwd=root, check=True)


def check_potfiles(root, extra):
    po = os.path.join(root, "po")
    listed = read_list(os.path.join(po, "POTFILES.in"))
    skipped = read_list(os.path.join(po, "POTFILES.skip"))
    problems = []

    if listed != sorted(listed):
        problems.append("po/POTFILES.in is not sorted; sorted, it reads:\n  " +
                        "\n  ".join(sorted(listed)))
    if len(set(listed)) != len(listed):
        problems.append("po/POTFILES.in lists a file twice")
    for name in listed:
        if not os.path.isfile(os.path.join(root, name)):
            problems.append(f"po/POTFILES.in lists {name}, which does not exist")

    candidates = []
    for top in SEARCHED:
        for directory, _, names in os.walk(os.path.join(root, top)):
            for name in names:
                path = os.path.relpath(os.path.join(directory, name), root)
                if CANDIDATE.search(name) and not any(path.startswith(s) for s in skipped):
                    candidates.append(path)

    with tempfile.TemporaryDirectory() as tmp:
        pot = os.path.join(tmp, "all.pot")
        xgettext(root, sorted(candidates), extra + ["--force-po"], pot)
        with open(pot, encoding="utf-8") as f:
            marked = {ref.rsplit(":", 1)[0]
                      for line in f if line.startswith("#: ")
                      for ref in line[3:].split()}

    for name in sorted(marked - set(listed)):
        problems.append(f"{name} has marked strings but is missing from po/POTFILES.in")

    return problems


def check_complete(root, language, extra):
    po = os.path.join(root, "po")
    catalog = os.path.join(po, language + ".po")
    problems = []

    if language not in read_list(os.path.join(po, "LINGUAS")):
        problems.append(f"po/LINGUAS does not list {language}")

    with tempfile.TemporaryDirectory() as tmp:
        pot = os.path.join(tmp, "lode.pot")
        merged = os.path.join(tmp, language + ".po")
        xgettext(root, read_list(os.path.join(po, "POTFILES.in")), extra, pot)
        # The catalog as it is: valid, formats matching their messages.
        own = subprocess.run(["msgfmt", "--check", "--statistics", "-o", os.devnull, catalog],
                             capture_output=True, text=True)
        if own.returncode != 0:
            problems.append(f"msgfmt --check rejects po/{language}.po:\n{own.stderr}")
        # Against the current sources: no message left out, none fuzzy.
        subprocess.run(["msgmerge", "--quiet", "--no-fuzzy-matching", "--output-file", merged,
                        catalog, pot], check=True)
        stats = subprocess.run(["msgfmt", "--check", "--statistics", "-o", os.devnull, merged],
                               capture_output=True, text=True)
        print(stats.stderr.strip())
        if stats.returncode != 0 or re.search(r"fuzzy|untranslated", stats.stderr):
            missing = subprocess.run(["msgattrib", "--untranslated", "--no-obsolete", merged],
                                     capture_output=True, text=True).stdout
            problems.append(f"po/{language}.po does not translate every message of the "
                            f"sources ({stats.stderr.strip()}):\n{missing}")

    return problems


def main():
    mode, root = sys.argv[1], sys.argv[2]
    if mode == "potfiles":
        problems = check_potfiles(root, sys.argv[3:])
    elif mode == "complete":
        problems = check_complete(root, sys.argv[3], sys.argv[4:])
    else:
        sys.exit(f"unknown mode {mode}")

    for problem in problems:
        print(problem, file=sys.stderr)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
