#!/usr/bin/env python3
# vocab-gap.py — questions whose words never occur in the file that answers them
#
# SPDX-FileCopyrightText: 2026 The Lode authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Index bench/vocab-gap/corpus with `lode`, ask each question of questions.jsonl, and print
where the file that answers it ranks (files de-duplicated, first occurrence kept).

Every question is checked first: none of its words (lower-cased, stop words left out, light
suffix stemming) may occur in its target file, whose identifiers are split into their parts
(camelCase, snake_case). A question that fails the check is a fixture error and the script
exits 1 before searching, so the table only ever counts real vocabulary gaps.

  bench/vocab-gap.py [--lode _build/src/cli/lode] [--mode lexical|hybrid|semantic]
                     [--data-dir DIR] [--json out.json]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, 'vocab-gap')
STOP = set('''a an and are as at be by do does for from has have how i in into is it its of on
or so that the them then there this to up what when where which while who why with without
not no'''.split())


def suffix_stripped(word):
    for suffix in ('ing', 'ed', 'es', 'er', 'ly', 's', 'e'):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[:-len(suffix)]
    return word


def words_of_question(text):
    return {suffix_stripped(w) for w in re.findall(r'[a-z]+', text.lower()) if w not in STOP}


def words_of_code(text):
    text = re.sub(r'([a-z0-9])([A-Z])', r'\1 \2', text)
    text = re.sub(r'([A-Z]+)([A-Z][a-z])', r'\1 \2', text)
    return {suffix_stripped(w) for w in re.findall(r'[a-z]+', text.lower())}


def check_gaps(questions, corpus):
    errors = []
    for q in questions:
        for target in q['targets']:
            with open(os.path.join(corpus, target), encoding='utf-8') as f:
                shared = words_of_question(q['question']) & words_of_code(f.read())
            if shared:
                errors.append(f"{q['question']!r} shares {sorted(shared)} with {target}")
    return errors


def lode(args, env, *argv):
    p = subprocess.run([args.lode, *argv], capture_output=True, text=True, env=env, timeout=300)
    if p.returncode != 0:
        sys.exit(f"lode {argv[0]} failed (exit {p.returncode}): {p.stderr.strip()}")
    return json.loads(p.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--lode', default=os.path.join(HERE, '..', '_build', 'src', 'cli', 'lode'))
    ap.add_argument('--mode', default=None, choices=('hybrid', 'lexical', 'semantic'),
                    help='passed to lode search (default: lode\'s own default)')
    ap.add_argument('--data-dir', help='index here and keep it (default: a temporary folder)')
    ap.add_argument('--json', help='write each question\'s rank and first files here')
    args = ap.parse_args()

    with open(os.path.join(FIXTURE, 'questions.jsonl'), encoding='utf-8') as f:
        questions = [json.loads(line) for line in f if line.strip()]
    corpus = os.path.join(FIXTURE, 'corpus')
    errors = check_gaps(questions, corpus)
    if errors:
        sys.exit('fixture error, a question shares words with its target:\n  '
                 + '\n  '.join(errors))

    data_dir = args.data_dir or tempfile.mkdtemp(prefix='lode-vocab-gap-')
    env = dict(os.environ, LODE_DATA_DIR=data_dir, LODE_NO_DAEMON='1')
    try:
        lode(args, env, 'index', corpus, '--json')
        rows = []
        for q in questions:
            argv = ['search', '-p', corpus, '-n', '30', '--json']
            if args.mode:
                argv += ['--mode', args.mode]
            reply = lode(args, env, *argv, '--', q['question'])
            files = list(dict.fromkeys(r['path'] for r in reply['results']))
            rank = next((i + 1 for i, p in enumerate(files) if p in q['targets']), None)
            rows.append(dict(q, rank=rank, top=files[:3]))
    finally:
        if not args.data_dir:
            shutil.rmtree(data_dir, ignore_errors=True)

    print('| question | answered by | rank | first three files |')
    print('|---|---|---|---|')
    for r in rows:
        print(f"| {r['question']} | {', '.join(r['targets'])} | {r['rank'] or '–'} | "
              f"{', '.join(r['top'])} |")
    top3 = sum(1 for r in rows if r['rank'] and r['rank'] <= 3)
    first = sum(1 for r in rows if r['rank'] == 1)
    print(f'\n{top3} of {len(rows)} questions answered in the first three files, '
          f'{first} first; every question shares no word with its target.')
    if args.json:
        with open(args.json, 'w', encoding='utf-8') as f:
            json.dump({'questions': rows, 'top3': top3, 'first': first}, f, indent=2)


if __name__ == '__main__':
    main()
