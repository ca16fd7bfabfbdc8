#!/usr/bin/env python3
# eval.py — retrieval quality of `lode search` on a JSONL query set (shared/eval format)
#
# SPDX-FileCopyrightText: 2026 The Lode authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Index each query's base tree with `lode`, search with the issue text, score at file level.

Scoring follows shared/eval/README.md: results (chunks) are mapped to files and de-duplicated
keeping order; Recall@k is the fraction of queries with a gold file among the first k files;
MRR uses the rank of the first gold file (0 when none is returned); MRR@10 counts only ranks
up to 10. Per repository and ALL (micro-averaged), with and without the queries whose text
names a gold file. Trees and indexes are cached, so a second run only searches.

  bench/eval.py --lode _build/src/cli/lode [--field query_title] [--json out.json]
"""
import argparse
import collections
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BASELINE = {  # shared/eval/README.md, bm25_baseline.py, ALL rows
    'query': (0.28, 0.72, 0.83, 0.475, 0.466),
    'query_title': (0.32, 0.68, 0.80, 0.483, 0.473),
}


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def materialise(args, repo, commit):
    name = f"{repo.replace('/', '+')}@{commit[:12]}"
    tree = os.path.join(args.trees, name)
    if not os.path.exists(os.path.join(tree, '.materialise-skipped.txt')):
        subprocess.run([sys.executable, os.path.join(args.eval_dir, 'materialise.py'),
                        '--mirror-root', args.mirror_root, '--out', args.trees,
                        '--rev', f'{repo}@{commit}'], check=True, stdout=subprocess.DEVNULL)
    return tree


def lode(args, *argv):
    env = dict(os.environ, LODE_DATA_DIR=args.data_dir)
    p = subprocess.run([args.lode, *argv], capture_output=True, text=True, env=env)
    if p.returncode != 0:
        raise RuntimeError(p.stderr.strip())
    return json.loads(p.stdout)


def score(files, gold):
    rank = next((i + 1 for i, f in enumerate(files) if f in gold), None)
    return {
        'r1': rank is not None and rank <= 1,
        'r5': rank is not None and rank <= 5,
        'r10': rank is not None and rank <= 10,
        'mrr': 1.0 / rank if rank else 0.0,
        'mrr10': 1.0 / rank if rank and rank <= 10 else 0.0,
        'rank': rank,
        'short': len(files) < 10,
    }


def table(rows, title, baseline):
    by_repo = collections.defaultdict(list)
    for r in rows:
        by_repo[r['repo']].append(r)
    out = [title, '', '| repo | n | R@1 | R@5 | R@10 | MRR | MRR@10 |', '|---|---|---|---|---|---|---|']
    figures = {}

    def line(name, rs):
        n = len(rs)
        f = tuple(sum(r[k] for r in rs) / n for k in ('r1', 'r5', 'r10', 'mrr', 'mrr10'))
        figures[name] = dict(zip(('n', 'r1', 'r5', 'r10', 'mrr', 'mrr10'), (n,) + f))
        out.append(f'| {name} | {n} | {f[0]:.2f} | {f[1]:.2f} | {f[2]:.2f} | {f[3]:.3f} | {f[4]:.3f} |')
        return f

    for repo in sorted(by_repo, key=str.lower):
        line(repo, by_repo[repo])
    f = line('ALL', rows)
    if baseline:
        out.append('| BM25 baseline (ALL) | | ' + ' | '.join(
            (f'{b:.2f}' if i < 3 else f'{b:.3f}') for i, b in enumerate(baseline)) + ' |')
        out.append('| delta | | ' + ' | '.join(
            (f'{a - b:+.2f}' if i < 3 else f'{a - b:+.3f}') for i, (a, b) in enumerate(zip(f, baseline))) + ' |')
    return '\n'.join(out), figures


def main():
    tmp = os.environ.get('TMPDIR', tempfile.gettempdir())
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--lode', default=os.path.join(HERE, '..', '_build', 'src', 'cli', 'lode'))
    ap.add_argument('--eval-dir', default=os.path.join(HERE, '..', '..', 'shared', 'eval'))
    ap.add_argument('--queries', default=None, help='JSONL query set (default: EVAL_DIR/queries.jsonl)')
    ap.add_argument('--mirror-root', default=os.environ.get('MIRROR', '/work/.mirror'))
    ap.add_argument('--trees', default=os.path.join(tmp, 'lode-eval', 'trees'))
    ap.add_argument('--data-dir', default=os.path.join(tmp, 'lode-eval', 'data'))
    ap.add_argument('--field', default='query', choices=('query', 'query_title'))
    ap.add_argument('--repo', help='only this owner/name')
    ap.add_argument('--limit', type=int, default=100, help='chunks asked of lode search (≤ 100)')
    ap.add_argument('--json', help='write all figures here')
    ap.add_argument('--verbose', action='store_true', help='print each query with its rank')
    args = ap.parse_args()
    args.queries = args.queries or os.path.join(args.eval_dir, 'queries.jsonl')

    with open(args.queries) as f:
        queries = [json.loads(line) for line in f if line.strip()]
    if args.repo:
        queries = [q for q in queries if q['repo'] == args.repo]

    indexed = {}
    index_seconds = 0.0
    rows, latencies = [], []
    for i, q in enumerate(queries, 1):
        tree = materialise(args, q['repo'], q['commit'])
        if tree not in indexed:
            t = time.monotonic()
            lode(args, 'index', tree, '--json')
            index_seconds += time.monotonic() - t
            indexed[tree] = True
        t = time.monotonic()
        try:
            results = lode(args, 'search', '-p', tree, '-n', str(args.limit), '--json', '--', q[args.field])['results']
        except (RuntimeError, json.JSONDecodeError) as e:
            log(f"{q['id']}: search failed: {e}")
            results = []
        latencies.append(time.monotonic() - t)
        files = list(dict.fromkeys(r['path'] for r in results))
        row = dict(score(files, set(q['gold_files'])), id=q['id'], repo=q['repo'],
                   leaky=q.get('query_mentions_gold_filename', False), top=files[:3])
        rows.append(row)
        if args.verbose:
            log(f"{q['id']}: rank {row['rank']} gold {q['gold_files']} top {row['top']}")
        else:
            log(f'\r{i}/{len(queries)}', end='') if sys.stderr.isatty() else None

    # The baseline figures are those of the whole development set.
    dev_set = os.path.basename(args.queries) == 'queries.jsonl'
    baseline = BASELINE[args.field] if dev_set and not args.repo else None
    text, figures = table(rows, f'Lode lexical, field `{args.field}`, {len(rows)} queries', baseline)
    print(text)
    clean = [r for r in rows if not r['leaky']]
    text_clean, figures_clean = table(clean, f'\nWithout queries naming a gold file ({len(clean)})', None)
    print(text_clean)
    print(f'\nqueries returning < 10 distinct files: {sum(r["short"] for r in rows)}')
    print(f'trees indexed this run: {len(indexed)} in {index_seconds:.1f} s (cached indexes are only updated)')
    print(f'search wall time per query, including process start: median '
          f'{statistics.median(latencies) * 1000:.1f} ms, max {max(latencies) * 1000:.1f} ms')

    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'field': args.field, 'all': figures, 'no_leaky': figures_clean,
                       'queries': rows}, f, indent=1)


if __name__ == '__main__':
    main()
