#!/usr/bin/env python3
# eval.py — retrieval quality of `lode search` on a JSONL query set (shared/eval format)
#
# SPDX-FileCopyrightText: 2026 The Lode authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Index each query's base tree with `lode`, search with the issue text, score at file level.

Scoring follows shared/eval/README.md ("Scoring definition"): the returned chunks are mapped to
their files and de-duplicated keeping the first occurrence; Recall@k is the fraction of queries
with a gold file among the first k files; MRR uses the rank of the first gold file over the whole
returned list (0 when none is returned); MRR@10 counts only ranks up to 10. Per repository and
ALL (micro-averaged), with and without the queries whose text names a gold file. A query whose
tree, index or search fails is reported and scored as a miss.

Trees are written once by the set's materialise.py; each distinct tree is indexed once per run
with `lode index` (incremental, so an index left by an earlier run is only checked for changes).

  bench/eval.py --lode _build/src/cli/lode [--mode hybrid|lexical|semantic] [--field query_title]
                [--no-leaky] [--no-index] [--json out.json]

Hybrid and semantic modes need an embedding model (`lode model pull`, or --embedding-model DIR);
`lode index` then also embeds. When lode falls back to lexical search (no model), the tables
say which mode actually ran.
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
METRICS = ('r1', 'r5', 'r10', 'mrr', 'mrr10')
# ALL rows of bm25_baseline.py on queries.jsonl, from shared/eval/README.md, keyed by
# (field, without the queries that name a gold file).
BASELINE = {
    ('query', False): (139, 0.28, 0.72, 0.83, 0.475, 0.466),
    ('query_title', False): (139, 0.32, 0.68, 0.80, 0.483, 0.473),
    ('query', True): (111, 0.29, 0.68, 0.81, 0.470, 0.462),
    ('query_title', True): (111, 0.32, 0.68, 0.79, 0.481, 0.471),
}


def log(*args, **kwargs):
    print(*args, file=sys.stderr, flush=True, **kwargs)


def materialise(args, repo, commit):
    """Return the tree of repo@commit, writing it first if needed; raise RuntimeError on failure."""
    tree = os.path.join(args.trees, f"{repo.replace('/', '+')}@{commit[:12]}")
    # materialise.py writes this file last, so its presence means the tree is complete.
    if not os.path.exists(os.path.join(tree, '.materialise-skipped.txt')):
        if args.mirror_root is None:
            raise RuntimeError(f'{tree} is not materialised; give --mirror-root or $MIRROR')
        p = subprocess.run([sys.executable, os.path.join(args.eval_dir, 'materialise.py'),
                            '--mirror-root', args.mirror_root, '--out', args.trees,
                            '--rev', f'{repo}@{commit}'],
                           capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(f'materialise.py failed: {(p.stderr or p.stdout).strip()}')
    return tree


def lode(args, *argv):
    """Run the lode CLI with JSON output; return the parsed JSON or raise RuntimeError."""
    env = dict(os.environ, LODE_DATA_DIR=args.data_dir)
    if args.embedding_provider:
        env['LODE_EMBEDDING_PROVIDER'] = args.embedding_provider
    if args.embedding_model:
        env['LODE_EMBEDDING_MODEL'] = args.embedding_model
    try:
        p = subprocess.run([args.lode, *argv], capture_output=True, text=True, env=env,
                           timeout=args.timeout)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f'timed out after {args.timeout} s')
    except OSError as e:
        raise RuntimeError(str(e))
    if p.returncode != 0:
        raise RuntimeError(f'exit {p.returncode}: {p.stderr.strip()}')
    try:
        return json.loads(p.stdout)
    except json.JSONDecodeError as e:
        raise RuntimeError(f'bad JSON on stdout: {e}')


def index_report(reply):
    """The run's report, whichever JSON form `lode index --json` printed (the job with its
    report, or the older bare report)."""
    return reply.get('job', {}).get('report', reply)


def normalise(result):
    """A result with start_line/end_line, whichever JSON form lode printed (codebase_search's
    startLine/endLine, or the older snake_case)."""
    if 'startLine' in result:
        result = dict(result, start_line=result['startLine'], end_line=result['endLine'])
    return result


def mode_of(reply):
    """The mode that ran and lode's notice: `mode: {used, reason}` or `mode` and `notice`."""
    mode = reply.get('mode', 'lexical')
    if isinstance(mode, dict):
        return mode.get('used', 'lexical'), mode.get('reason')
    return mode, reply.get('notice')


def overlaps(result, ranges):
    return any(result['start_line'] <= end and start <= result['end_line'] for start, end in ranges)


def score(q, results):
    files = list(dict.fromkeys(r['path'] for r in results))
    gold = set(q['gold_files'])
    rank = next((i + 1 for i, f in enumerate(files) if f in gold), None)
    # Optional chunk-level view (README "Scoring definition" 5): the first returned chunk that
    # lies in a gold file and overlaps one of its gold_lines ranges.
    gold_lines = q.get('gold_lines', {})
    chunk_rank = next((i + 1 for i, r in enumerate(results)
                       if r['path'] in gold_lines and overlaps(r, gold_lines[r['path']])), None)
    return {
        'r1': rank is not None and rank <= 1,
        'r5': rank is not None and rank <= 5,
        'r10': rank is not None and rank <= 10,
        'mrr': 1.0 / rank if rank else 0.0,
        'mrr10': 1.0 / rank if rank and rank <= 10 else 0.0,
        'rank': rank,
        'chunk_rank': chunk_rank,
        'files_returned': len(files),
        'top': files[:10],
    }


def fmt_row(values):
    return ' | '.join(f'{v:.2f}' if i < 3 else f'{v:.3f}' for i, v in enumerate(values))


def table(rows, title, baseline):
    """Text table in the layout of shared/eval/README.md and its figures as a dict."""
    by_repo = collections.defaultdict(list)
    for r in rows:
        by_repo[r['repo']].append(r)
    out = [title, '', '| repo | n | R@1 | R@5 | R@10 | MRR | MRR@10 |',
           '|---|---|---|---|---|---|---|']
    figures = {}

    def line(name, rs):
        n = len(rs)
        values = tuple(sum(r[k] for r in rs) / n if n else 0.0 for k in METRICS)
        figures[name] = dict(n=n, **dict(zip(METRICS, values)))
        out.append(f'| {name} | {n} | {fmt_row(values)} |')
        return values

    for repo in sorted(by_repo, key=str.lower):
        line(repo, by_repo[repo])
    values = line('ALL', rows)
    if baseline:
        n, base = baseline[0], baseline[1:]
        out.append(f'| BM25 baseline, ALL | {n} | {fmt_row(base)} |')
        out.append('| Lode − BM25 | | ' + ' | '.join(
            f'{a - b:+.2f}' if i < 3 else f'{a - b:+.3f}'
            for i, (a, b) in enumerate(zip(values, base))) + ' |')
        figures['bm25_baseline_all'] = dict(n=n, **dict(zip(METRICS, base)))
    return '\n'.join(out), figures


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))]


def main():
    tmp = os.environ.get('TMPDIR') or tempfile.gettempdir()
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--lode', default=os.path.join(HERE, '..', '_build', 'src', 'cli', 'lode'),
                    help='the lode CLI (default: _build/src/cli/lode)')
    ap.add_argument('--eval-dir', default=os.path.join(HERE, '..', '..', 'shared', 'eval'),
                    help='the shared evaluation set (materialise.py, queries.jsonl)')
    ap.add_argument('--queries', help='JSONL query set (default: EVAL_DIR/queries.jsonl)')
    ap.add_argument('--mirror-root', default=os.environ.get('MIRROR'),
                    help='bare mirrors, MIRROR_ROOT/<owner>+<name>/repo (default: $MIRROR); '
                         'needed only for trees not materialised yet')
    ap.add_argument('--trees', default=os.path.join(tmp, 'lode-eval', 'trees'),
                    help='where materialised trees are cached (default: $TMPDIR/lode-eval/trees)')
    ap.add_argument('--data-dir', default=os.path.join(tmp, 'lode-eval', 'data'),
                    help='LODE_DATA_DIR for the indexes (default: $TMPDIR/lode-eval/data)')
    ap.add_argument('--mode', default='lexical', choices=('hybrid', 'lexical', 'semantic'),
                    help='search mode passed to lode search (default: lexical)')
    ap.add_argument('--embedding-provider', choices=('builtin', 'ollama', 'openai', 'none'),
                    help='LODE_EMBEDDING_PROVIDER for lode index and lode search')
    ap.add_argument('--embedding-model',
                    help='LODE_EMBEDDING_MODEL: a model name or a model folder')
    ap.add_argument('--field', default='query', choices=('query', 'query_title'),
                    help='query text: the full issue (default) or its title')
    ap.add_argument('--no-leaky', action='store_true',
                    help='only the queries whose text does not name a gold file '
                         '(by default both views are printed)')
    ap.add_argument('--repo', help='only the queries of this owner/name')
    ap.add_argument('--limit', type=int, default=100, help='chunks asked of lode search, 1–100')
    ap.add_argument('--timeout', type=float, default=600, help='seconds allowed per lode call')
    ap.add_argument('--json', help='write all figures and per-query ranks here')
    ap.add_argument('--verbose', action='store_true', help='print each query with its rank')
    ap.add_argument('--no-index', action='store_true',
                    help='search the indexes an earlier run left, without `lode index` (a '
                         'ranking change is measured in a minute; the trees must not have changed)')
    args = ap.parse_args()
    if not 1 <= args.limit <= 100:
        ap.error('--limit must be between 1 and 100')
    args.queries = args.queries or os.path.join(args.eval_dir, 'queries.jsonl')
    args.lode = os.path.abspath(args.lode)

    with open(args.queries, encoding='utf-8') as f:
        queries = [json.loads(line) for line in f if line.strip()]
    if args.repo:
        queries = [q for q in queries if q['repo'] == args.repo]
        if not queries:
            sys.exit(f'no query of {args.repo} in {args.queries}')

    trees = {}        # (repo, commit) -> tree path, or None when it failed
    index_reports = []
    index_seconds = 0.0
    failures = []
    rows, latencies = [], []
    modes_used = collections.Counter()
    notices = collections.Counter()
    n_trees = len({(q['repo'], q['commit']) for q in queries})
    for i, q in enumerate(queries, 1):
        key = (q['repo'], q['commit'])
        if key not in trees:
            try:
                tree = materialise(args, *key)
                trees[key] = tree
                if not args.no_index:
                    t = time.monotonic()
                    report = index_report(lode(args, 'index', tree, '--json'))
                    index_seconds += time.monotonic() - t
                    index_reports.append(report)
                    log(f"[tree {len(trees)}/{n_trees}] {os.path.basename(tree)}: "
                        f"{report.get('files')} files, "
                        f"{report.get('added', 0) + report.get('updated', 0)} (re)indexed, "
                        f"{report.get('embedded', 0)} chunks embedded in "
                        f"{report.get('elapsedSeconds', 0):.2f} s")
            except RuntimeError as e:
                trees[key] = None
                log(f"[tree] {q['repo']}@{q['commit'][:12]}: {e}")

        error = None
        results = []
        search_ms = None
        if trees[key] is None:
            error = 'tree could not be materialised or indexed'
        else:
            t = time.monotonic()
            try:
                reply = lode(args, 'search', '-p', trees[key], '-n', str(args.limit), '--json',
                             '--mode', args.mode, '--', q[args.field])
                results = [normalise(r) for r in reply['results']]
                mode, notice = mode_of(reply)
                modes_used[mode] += 1
                if notice:
                    notices[notice] += 1
                if not all({'path', 'start_line', 'end_line'} <= r.keys() for r in results):
                    raise RuntimeError('a result lacks path, start_line or end_line')
            except (RuntimeError, KeyError, TypeError, AttributeError) as e:
                error = f'search failed: {e}'
                results = []
            latencies.append(time.monotonic() - t)
            search_ms = round(latencies[-1] * 1000, 1)
        if error:
            failures.append({'id': q['id'], 'error': error})
            log(f"{q['id']}: {error} (counted as a miss)")

        row = dict(score(q, results), id=q['id'], repo=q['repo'], gold=q['gold_files'],
                   leaky=bool(q.get('query_mentions_gold_filename')), error=error,
                   search_ms=search_ms)
        rows.append(row)
        if args.verbose:
            log(f"[{i}/{len(queries)}] {q['id']}: rank {row['rank']} gold {q['gold_files']} "
                f"top {row['top'][:3]}")
        elif i % 10 == 0 or i == len(queries):
            log(f'[{i}/{len(queries)}] queries searched')

    # The baseline rows are those of the whole development set.
    dev_set = (os.path.abspath(args.queries)
               == os.path.abspath(os.path.join(args.eval_dir, 'queries.jsonl')))
    compare = dev_set and not args.repo
    clean = [r for r in rows if not r['leaky']]
    set_name = os.path.basename(args.queries)
    ran = '/'.join(sorted(modes_used)) or args.mode
    label = args.mode if ran == args.mode else f'{args.mode} requested, {ran} ran'
    output = {'lode': args.lode, 'queries': args.queries, 'field': args.field,
              'limit': args.limit, 'mode': args.mode, 'modes_used': dict(modes_used),
              'notices': dict(notices),
              'embedding_model': args.embedding_model}
    texts = []
    if not args.no_leaky:
        text, output['all'] = table(
            rows, f'Lode {label}, {set_name}, field `{args.field}`, {len(rows)} queries',
            BASELINE[(args.field, False)] if compare else None)
        texts.append(text)
    text, output['no_leaky'] = table(
        clean, f'Lode {label}, {set_name}, field `{args.field}`, without the queries naming a '
               f'gold file ({len(clean)})',
        BASELINE[(args.field, True)] if compare else None)
    texts.append(text)
    print('\n\n'.join(texts))

    scored = clean if args.no_leaky else rows
    short = [r['id'] for r in scored if r['files_returned'] < 10 and not r['error']]
    chunk10 = sum(1 for r in scored if r['chunk_rank'] and r['chunk_rank'] <= 10) / max(1, len(scored))
    indexed_files = sum(r.get('files', 0) for r in index_reports)
    reindexed = sum(r.get('added', 0) + r.get('updated', 0) for r in index_reports)
    print()
    print(f'queries answered with fewer than 10 distinct files: {len(short)}'
          + (f" ({', '.join(short)})" if short else ''))
    print(f'chunk level: a gold-line chunk among the first 10 chunks for {chunk10:.2f} of the queries')
    for notice, n in notices.most_common():
        print(f'lode said ({n} queries): {notice}')
    print(f'failed queries (scored as misses): {len(failures)}'
          + (f" ({', '.join(f['id'] for f in failures)})" if failures else ''))
    if args.no_index:
        print('index: not checked (--no-index; the indexes of an earlier run were searched)')
    else:
        print(f'index: {len(index_reports)} trees, {indexed_files} files, {reindexed} (re)indexed '
              f'this run, {index_seconds:.1f} s wall (lode index calls; cached indexes are only '
              f'updated)')
    if latencies:
        print(f'search wall time per query, including process start: median '
              f'{statistics.median(latencies) * 1000:.1f} ms, p95 '
              f'{percentile(latencies, 95) * 1000:.1f} ms, max {max(latencies) * 1000:.1f} ms')

    if args.json:
        output.update({
            'short_queries': short,
            'chunk_hit_at_10': chunk10,
            'failures': failures,
            'index': {'trees': len(index_reports), 'files': indexed_files,
                      'reindexed_files': reindexed, 'wall_seconds': index_seconds},
            'search_wall_ms_including_process_start': {
                'median': statistics.median(latencies) * 1000 if latencies else None,
                'p95': percentile(latencies, 95) * 1000 if latencies else None,
                'max': max(latencies) * 1000 if latencies else None},
            'per_query': rows,
        })
        with open(args.json, 'w', encoding='utf-8') as f:
            json.dump(output, f, indent=1)
            f.write('\n')


if __name__ == '__main__':
    main()
