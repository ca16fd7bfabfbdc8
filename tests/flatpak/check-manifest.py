#!/usr/bin/env python3
# check-manifest.py — what can be checked of the Flatpak manifest without the GNOME runtime
#
# SPDX-FileCopyrightText: 2026 The Lode authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: check-manifest.py SOURCE_ROOT
#
# flatpak-builder accepts the manifest (--show-manifest parses it and prints it as JSON);
# it builds on org.gnome.Platform/Sdk; every downloaded source has a sha256; every
# finish-arg follows a comment that justifies it; and the grammars are exactly those
# build-aux/grammars/package-lock.json pins: the same packages, the same versions, and the
# same tarballs (the manifest's sha512 is the lock's integrity hash).

import base64
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

MANIFEST = os.path.join("flatpak", "io.github.lode.Lode.yml")
GRAMMARS_DEST = "grammars/node_modules/"


def sources(manifest):
    for module in manifest.get("modules", []):
        for source in module.get("sources", []):
            yield module["name"], source


def check_runtime(manifest):
    problems = []
    expected = {"id": "io.github.lode.Lode", "runtime": "org.gnome.Platform",
                "sdk": "org.gnome.Sdk", "command": "lode-gtk"}
    for key, value in expected.items():
        if manifest.get(key) != value:
            problems.append(f"{key} is {manifest.get(key)!r}, not {value!r}")
    if not re.fullmatch(r"[0-9]{2,}", str(manifest.get("runtime-version", ""))):
        problems.append(f"runtime-version {manifest.get('runtime-version')!r} is not a "
                        "GNOME release such as 50")
    return problems


def check_checksums(manifest):
    problems = []
    for module, source in sources(manifest):
        kind = source.get("type")
        if kind == "dir":
            continue  # Lode's own checkout
        if kind in ("archive", "file"):
            if not re.fullmatch(r"[0-9a-f]{64}", source.get("sha256", "")):
                problems.append(f"{module}: {source.get('url')} has no sha256")
        elif kind == "git":
            if not re.fullmatch(r"[0-9a-f]{40}", source.get("commit", "")):
                problems.append(f"{module}: {source.get('url')} names no commit")
        else:
            problems.append(f"{module}: a {kind} source cannot be checked")
    return problems


def check_grammars(manifest, root):
    problems = []
    grammars = os.path.join(root, "build-aux", "grammars")
    with open(os.path.join(grammars, "package.json"), encoding="utf-8") as f:
        pinned = json.load(f)["dependencies"]
    with open(os.path.join(grammars, "package-lock.json"), encoding="utf-8") as f:
        lock = json.load(f)["packages"]

    found = {}
    for module, source in sources(manifest):
        dest = source.get("dest", "")
        if dest.startswith(GRAMMARS_DEST):
            found[dest[len(GRAMMARS_DEST):]] = source

    for name in sorted(set(found) - set(pinned)):
        problems.append(f"the manifest has a grammar the lock file does not pin: {name}")
    for name, spec in sorted(pinned.items()):
        entry = lock.get("node_modules/" + name, {})
        version = entry.get("version")
        source = found.get(name)
        if source is None:
            problems.append(f"grammar {name} {version} is missing from the manifest")
            continue
        if version != spec:
            problems.append(f"package.json pins {name} {spec}, the lock {version}")
        url = (f"https://registry.npmjs.org/{name}/-/{name.split('/')[-1]}-{version}.tgz")
        if source.get("url") != url:
            problems.append(f"grammar {name}: the manifest fetches {source.get('url')}, the "
                            f"lock pins {url}")
        algorithm, _, digest = entry.get("integrity", "").partition("-")
        if algorithm != "sha512" or base64.b64decode(digest).hex() != source.get("sha512"):
            problems.append(f"grammar {name}: the manifest's sha512 is not the lock's "
                            "integrity hash, so the tarballs differ")
    return problems


def check_finish_args(root):
    """Each finish-arg comes after a comment, alone or in a group the comment covers."""
    problems = []
    with open(os.path.join(root, MANIFEST), encoding="utf-8") as f:
        lines = f.read().splitlines()

    inside = justified = False
    for line in lines:
        if line.startswith("finish-args:"):
            inside = True
            continue
        if not inside:
            continue
        if line and not line.startswith(" "):
            break
        stripped = line.strip()
        if stripped.startswith("#"):
            justified = True
        elif stripped.startswith("- "):
            if not justified:
                problems.append(f"finish-arg {stripped[2:]} has no comment that says why")
        else:
            justified = False
    return problems


def main():
    root = sys.argv[1]
    builder = shutil.which("flatpak-builder")
    if builder is None:
        print("flatpak-builder is not installed (build-aux/install-deps.sh installs it)")
        sys.exit(77)

    # flatpak-builder leaves its state directory in the working directory.
    with tempfile.TemporaryDirectory() as tmp:
        shown = subprocess.run([builder, "--show-manifest",
                                os.path.abspath(os.path.join(root, MANIFEST))],
                               capture_output=True, text=True, cwd=tmp)
    if shown.returncode != 0:
        print(f"flatpak-builder rejects {MANIFEST}:\n{shown.stderr}", file=sys.stderr)
        sys.exit(1)
    manifest = json.loads(shown.stdout)

    problems = (check_runtime(manifest) + check_checksums(manifest) +
                check_grammars(manifest, root) + check_finish_args(root))
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"{sum(1 for _ in sources(manifest))} sources in "
          f"{len(manifest['modules'])} modules checked")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
