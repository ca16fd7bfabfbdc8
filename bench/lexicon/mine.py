#!/usr/bin/python3
# mine.py — turns the lexicon's corpus into the code lexicon Lode ships
#
# SPDX-FileCopyrightText: 2026 The Lode authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Reads the corpus of build-corpus.py (`kind<TAB>prose<TAB>code` a line, words already cut by
Lode's tokenizer) and writes word vectors over its most frequent words:

1. co-occurrence counts: words within --window of each other in a unit (closer counts more),
   and every prose word of a unit with every code word of it (a comment and the declaration it
   documents, a test's name and the calls in its body, a commit subject and its files);
2. positive PMI, contexts smoothed (counts to the power 0.75);
3. a truncated SVD (randomised, numpy only): a word's vector is its row of U·√Σ, normalised;
4. quantised to int8.

The output (data/lexicon/code-lexicon.bin) is little-endian:
  "LODELEX1"  u32 n_words  u32 dims
  n_words × (u8 length, the word's bytes), sorted by byte order
  n_words × u8 weight: the word's smooth inverse frequency 1e-3 / (1e-3 + p(word)), × 255
  n_words × dims × i8: the vectors, each scaled so its largest component is ±127

  bench/lexicon/mine.py --corpus corpus.txt --list data/lexicon/corpus.tsv \\
      --out data/lexicon/code-lexicon.bin

Not run by CI; see bench/lexicon/README.md.
"""
import argparse
import collections
import re
import struct
import sys
import time

import numpy as np

WORD = re.compile(r'^[a-z][a-z]+$')
# Words that say nothing about what code does: English function words and keywords.
STOP = set('''a an and are as at be been but by can could did do does doing done for from
had has have having he her here hers him his how i if in into is it its itself just me more
most my no nor not now of off on once only or other our ours out over own same she should so
some such than that the their theirs them then there these they this those through to too
under until up very was we were what when where which while who whom why will with would you
your yours also may might must shall get got let use used using via per etc eg ie
def fn func function class struct enum impl pub let var const static void int char self this
new true false null nil none end elif try catch except finally import package public private
protected async await match case switch break continue return else elsif unless typedef
unsigned sizeof val fun override extends implements interface trait module require include
local begin begin end'''.split())
PROSE_MAX = 16
CODE_MAX = 8


def log(msg, start=[time.time()]):
    print(f'[{time.time() - start[0]:7.1f}s] {msg}', file=sys.stderr, flush=True)


def repo_of_lines(listing):
    """The repository each corpus line came from: the corpus list gives, in the corpus's
    order, each repository's number of units (lines)."""
    bounds = []
    with open(listing, encoding='utf-8') as f:
        for line in f:
            if not line.startswith('#'):
                fields = line.rstrip('\n').split('\t')
                bounds.append(int(fields[5]))
    return bounds


def read_vocabulary(path, listing, size, min_count, min_repos):
    counts = collections.Counter()
    repos = collections.Counter()
    units = iter(repo_of_lines(listing))
    left = 0
    seen = set()
    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f:
            if left == 0:
                repos.update(seen)
                seen = set()
                left = next(units)
            left -= 1
            fields = line.rstrip('\n').split('\t')
            for field in fields[1:]:
                tokens = field.split()
                counts.update(tokens)
                seen.update(tokens)
    repos.update(seen)
    words = [w for w, n in counts.most_common()
             if n >= min_count and repos[w] >= min_repos and WORD.match(w) and w not in STOP
             and len(w) <= 24][:size]
    total = sum(counts[w] for w in words)
    return words, np.array([counts[w] for w in words], dtype=np.float64), total


def read_units(path, index):
    """The corpus as one stream of word ids (units separated by -1), and the prose × code
    matrices of the units that have both sides."""
    stream = []
    prose_rows, code_rows = [], []
    get = index.get
    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f:
            fields = line.rstrip('\n').split('\t')
            if len(fields) != 3:
                continue
            prose = [i for i in map(get, fields[1].split()) if i is not None]
            code = [i for i in map(get, fields[2].split()) if i is not None]
            stream.extend(prose)
            stream.extend(code)
            stream.append(-1)
            if prose and code:
                prose = list(dict.fromkeys(prose))[:PROSE_MAX]
                code = list(dict.fromkeys(code))[:CODE_MAX]
                prose_rows.append(prose + [-1] * (PROSE_MAX - len(prose)))
                code_rows.append(code + [-1] * (CODE_MAX - len(code)))
    return (np.array(stream, dtype=np.int32), np.array(prose_rows, dtype=np.int32),
            np.array(code_rows, dtype=np.int32))


def accumulate(matrix, x, y, weight):
    n = matrix.shape[0]
    keep = (x >= 0) & (y >= 0) & (x != y)
    keys = x[keep].astype(np.int64) * n + y[keep]
    if keys.size == 0:
        return
    keys, counts = np.unique(keys, return_counts=True)
    flat = matrix.reshape(-1)
    flat[keys] += (counts * weight).astype(np.float32)


def cooccurrence(n, stream, prose, code, window, cross_weight):
    matrix = np.zeros((n, n), dtype=np.float32)
    step = 20_000_000
    for offset in range(1, window + 1):
        weight = (window + 1 - offset) / window
        for start in range(0, stream.size - offset, step):
            stop = min(start + step, stream.size - offset)
            x = stream[start:stop]
            y = stream[start + offset:stop + offset]
            accumulate(matrix, x, y, weight)
        log(f'window offset {offset} counted')
    if cross_weight > 0:
        for j in range(code.shape[1]):
            for start in range(0, prose.shape[0], 1_000_000):
                p = prose[start:start + 1_000_000]
                c = np.repeat(code[start:start + 1_000_000, j:j + 1], p.shape[1], axis=1)
                accumulate(matrix, p.reshape(-1), c.reshape(-1), cross_weight)
        log(f'{prose.shape[0]} prose × code units counted')
    matrix += matrix.T
    return matrix


def ppmi(matrix, alpha=0.75):
    total = matrix.sum(dtype=np.float64)
    rows = matrix.sum(axis=1, dtype=np.float64)
    contexts = rows ** alpha
    contexts /= contexts.sum()
    with np.errstate(divide='ignore'):
        matrix /= total
        matrix /= (rows / total)[:, None].astype(np.float32)
        matrix /= contexts[None, :].astype(np.float32)
        np.log(matrix, out=matrix)
    np.maximum(matrix, 0, out=matrix)
    matrix[~np.isfinite(matrix)] = 0
    return matrix


def randomized_svd(matrix, dims, oversample=16, iterations=3, seed=1):
    rng = np.random.default_rng(seed)
    q = matrix @ rng.standard_normal((matrix.shape[1], dims + oversample), dtype=np.float32)
    for _ in range(iterations):
        q, _ = np.linalg.qr(q)
        q, _ = np.linalg.qr(matrix.T @ q)
        q = matrix @ q
    q, _ = np.linalg.qr(q)
    b = q.T @ matrix
    u, s, _ = np.linalg.svd(b, full_matrices=False)
    return (q @ u)[:, :dims], s[:dims]


def write_lexicon(path, words, weights, vectors):
    order = sorted(range(len(words)), key=lambda i: words[i].encode())
    scale = 127.0 / np.maximum(np.abs(vectors).max(axis=1, keepdims=True), 1e-9)
    quantised = np.clip(np.rint(vectors * scale), -127, 127).astype(np.int8)
    with open(path, 'wb') as f:
        f.write(b'LODELEX1')
        f.write(struct.pack('<II', len(words), vectors.shape[1]))
        for i in order:
            b = words[i].encode()
            f.write(struct.pack('<B', len(b)) + b)
        f.write(bytes(int(weights[i]) for i in order))
        f.write(quantised[order].tobytes())


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--corpus', required=True)
    ap.add_argument('--list', required=True, help='the corpus list of build-corpus.py')
    ap.add_argument('--out', required=True)
    ap.add_argument('--min-repos', type=int, default=8,
                    help='only words that at least this many repositories use')
    ap.add_argument('--vocabulary', type=int, default=16000)
    ap.add_argument('--min-count', type=int, default=30)
    ap.add_argument('--dims', type=int, default=48)
    ap.add_argument('--window', type=int, default=4)
    ap.add_argument('--cross-weight', type=float, default=1.0,
                    help='weight of each prose × code pair of a unit (0: windows only)')
    ap.add_argument('--probe', default='idle,stale,purge,login,session,retry,thumbnail,'
                    'spreadsheet,slug,misspelled,song,interceptor')
    args = ap.parse_args()

    words, counts, total = read_vocabulary(args.corpus, args.list, args.vocabulary,
                                           args.min_count, args.min_repos)
    index = {w: i for i, w in enumerate(words)}
    log(f'{len(words)} words, {int(total)} occurrences')
    stream, prose, code = read_units(args.corpus, index)
    log(f'{stream.size} ids, {prose.shape[0]} units with prose and code')
    matrix = cooccurrence(len(words), stream, prose, code, args.window, args.cross_weight)
    del stream, prose, code
    matrix = ppmi(matrix)
    log('ppmi done')
    u, s = randomized_svd(matrix, args.dims)
    del matrix
    vectors = u * np.sqrt(s)[None, :]
    vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9)
    # Centred, so that unrelated words are near 0 rather than sharing the common direction.
    vectors -= vectors.mean(axis=0, keepdims=True)
    vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9)
    log('svd done')

    p = counts / counts.sum()
    weights = np.rint(255 * 1e-3 / (1e-3 + p))
    write_lexicon(args.out, words, weights, vectors)
    log(f'wrote {args.out}')
    for w in args.probe.split(','):
        if w in index:
            sims = vectors @ vectors[index[w]]
            best = [words[i] for i in np.argsort(-sims)[1:11]]
            print(f'{w}: {" ".join(best)}', file=sys.stderr)


if __name__ == '__main__':
    main()
