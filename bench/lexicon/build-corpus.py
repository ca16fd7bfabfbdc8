#!/usr/bin/python3
# build-corpus.py — gathers what public code says in code and in prose, for the code lexicon
#
# SPDX-FileCopyrightText: 2026 The Lode authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Reads bare git directories (mirrors of public repositories) and writes the lexicon's corpus:
one unit a line, `kind<TAB>prose words<TAB>code words`, every field cut into words by
lode-lexicon-words (Lode's own code tokenizer, identifiers replaced by their parts):

  doc     a comment or docstring, and the declaration it documents
  test    a test's name or description, and the functions its body calls
  code    a few lines of code: identifiers and the words around them
  commit  a commit subject, and the names of the files it changed

Excluded, and counted in the summary: repositories named in --exclude-repos, repositories that
share a root commit with one of --exclude-git (forks), and any file whose blob is byte for byte
one of the blobs of --exclude-git (every version, every branch) or of --exclude-tree (vendored
copies); vendored, generated and minified paths are skipped by name.

  bench/lexicon/build-corpus.py --words _build/bench/lode-lexicon-words \\
      --exclude-git /work/.mirror/facebook+zstd/repo … --exclude-tree bench/vocab-gap/corpus \\
      --exclude-repos sphinx-doc/sphinx,… --list data/lexicon/corpus.tsv --out corpus.txt \\
      GIT_DIR…

Not run by CI; see bench/lexicon/README.md.
"""
import argparse
import hashlib
import multiprocessing
import os
import re
import subprocess
import sys

LANGUAGES = {
    '.c': 'c', '.h': 'c', '.cc': 'cpp', '.cpp': 'cpp', '.cxx': 'cpp', '.hpp': 'cpp', '.hh': 'cpp',
    '.cs': 'csharp', '.go': 'go', '.java': 'java', '.js': 'javascript', '.mjs': 'javascript',
    '.jsx': 'javascript', '.ts': 'typescript', '.tsx': 'typescript', '.kt': 'kotlin',
    '.kts': 'kotlin', '.lua': 'lua', '.php': 'php', '.py': 'python', '.rb': 'ruby', '.rs': 'rust',
    '.scala': 'scala', '.swift': 'swift', '.sh': 'bash', '.bash': 'bash', '.zsh': 'bash',
}
HASH_COMMENT = {'python', 'ruby', 'bash'}
VENDORED = re.compile(r'(^|/)(vendor|vendored|third[_-]?party|3rdparty|thirdparty|external|'
                      r'extern|deps|bundled|node_modules|dist|build|out|target|generated|'
                      r'gen|testdata|fixtures?|__snapshots__|site-packages)/|'
                      r'\.min\.js$|\.pb\.go$|_pb2\.py$|\.generated\.|\.designer\.cs$',
                      re.IGNORECASE)
MAX_FILE_BYTES = 200_000
IDENT = re.compile(r'[A-Za-z_][A-Za-z0-9_]*')
CALL = re.compile(r'([A-Za-z_][A-Za-z0-9_]*)\s*\(')
TEST = re.compile(r'''(?:\bdef\s+(test_\w+)|\bfunc\s+(Test\w+)|\bfn\s+(test_?\w+)|'''
                  r'''\b(?:it|test|describe|context|specify)\s*\(?\s*(?:"([^"]{3,})"|'([^']{3,})'|`([^`]{3,})`)|'''
                  r'''\bvoid\s+(test\w*|should\w+)\s*\()''')
KEYWORDS = set('''if else for while return def fn func function class struct enum impl pub let
var const static void int char self this new true false null nil none end do then elif try catch
except finally import from package use public private protected async await match case switch
break continue in of is not and or sizeof typedef unsigned long short double float bool string
val override fun object trait type interface extends implements module require include local
'''.split())


def git(git_dir, *args, text=True):
    return subprocess.run(['git', '--git-dir', git_dir, *args], capture_output=True,
                          text=text, check=True, errors='replace' if text else None).stdout


def blobs_of(git_dir):
    out = git(git_dir, 'cat-file', '--batch-all-objects', '--batch-check=%(objectname) %(objecttype)')
    return {line.split()[0] for line in out.splitlines() if line.endswith(' blob')}


def roots_of(git_dir, refs='--all'):
    return set(git(git_dir, 'rev-list', '--max-parents=0', refs).split())


def tree_blobs(root):
    shas = set()
    for base, _, files in os.walk(root):
        for name in files:
            with open(os.path.join(base, name), 'rb') as f:
                data = f.read()
            shas.add(hashlib.sha1(b'blob %d\0' % len(data) + data).hexdigest())
    return shas


def repo_name(git_dir):
    # /work/.mirror/owner+name/repo → owner/name
    parts = os.path.abspath(git_dir).split(os.sep)
    for part in reversed(parts):
        if '+' in part:
            return part.replace('+', '/', 1)
    return parts[-1]


def words(s):
    return ' '.join(IDENT.findall(s))


def clean(s):
    return re.sub(r'\s+', ' ', s.replace('\t', ' ')).strip()


def comment_text(line, lang):
    """The prose of a comment line, or None when the line is code."""
    s = line.strip()
    if lang in HASH_COMMENT:
        if s.startswith('#') and not s.startswith('#!') and not s.startswith('#include'):
            return s.lstrip('#')
        return None
    if lang == 'lua' and s.startswith('--'):
        return s.lstrip('-')
    if s.startswith('//'):
        return s.lstrip('/!')
    if s.startswith('/*') or s.startswith('*') or s.endswith('*/'):
        return s.strip('/*! ')
    return None


def units_of_file(path, text, lang):
    """Yields (kind, prose, code) for one source file."""
    lines = text.split('\n')
    comment = []
    in_doc = None   # Python docstring: the def line it documents
    doc = []
    code_window = []
    stem = re.sub(r'\.[^/]*$', '', path.rsplit('/', 1)[-1])
    for i, line in enumerate(lines):
        s = line.strip()
        if in_doc is not None:
            end = s.find('"""') if '"""' in s else s.find("'''")
            doc.append(s if end < 0 else s[:end])
            if end >= 0:
                yield 'doc', ' '.join(doc), words(in_doc)
                in_doc = None
                doc = []
            continue
        if lang == 'python' and (s.startswith('"""') or s.startswith("'''")) and i > 0:
            prev = lines[i - 1].strip()
            if prev.startswith(('def ', 'async def ', 'class ')):
                body = s[3:]
                end = body.find(s[:3])
                if end >= 0:
                    yield 'doc', body[:end], words(prev)
                else:
                    in_doc, doc = prev, [body]
                continue
        prose = comment_text(line, lang)
        if prose is not None:
            if len(comment) < 12:
                comment.append(prose)
            continue
        if not s:
            continue
        if comment:
            decl = words(s)
            if decl and not s.startswith(('}', ')', 'return ', 'end')):
                yield 'doc', ' '.join(comment), decl + ' ' + stem
            comment = []
        m = TEST.search(line)
        if m:
            name = next(g for g in m.groups() if g)
            calls = []
            for body in lines[i + 1:i + 16]:
                calls.extend(c for c in CALL.findall(body) if c.lower() not in KEYWORDS)
            if calls:
                yield 'test', name, ' '.join(dict.fromkeys(calls))
        code_window.append(s)
        if len(code_window) == 6:
            yield 'code', '', words(' '.join(code_window))
            code_window = []
    if code_window:
        yield 'code', '', words(' '.join(code_window))


def sampled_files(git_dir, budget, excluded_blobs, counts):
    """Source files at HEAD, vendored ones and excluded blobs left out, spread over the tree
    in a stable pseudo-random order until @budget bytes."""
    out = git(git_dir, 'ls-tree', '-r', '-l', '-z', 'HEAD')
    files = []
    for entry in out.split('\0'):
        if not entry:
            continue
        meta, path = entry.split('\t', 1)
        mode, kind, sha, size = meta.split()
        ext = os.path.splitext(path)[1].lower()
        if kind != 'blob' or ext not in LANGUAGES or not size.isdigit() or mode == '120000':
            continue
        if VENDORED.search(path) or int(size) > MAX_FILE_BYTES:
            counts['vendored'] += 1
            continue
        if sha in excluded_blobs:
            counts['excluded_blobs'] += 1
            continue
        files.append((hashlib.md5(path.encode()).hexdigest(), sha, int(size), path))
    files.sort()
    chosen, total = [], 0
    for _, sha, size, path in files:
        if total >= budget:
            break
        chosen.append((sha, path))
        total += size
    return chosen


def read_blobs(git_dir, shas):
    p = subprocess.run(['git', '--git-dir', git_dir, 'cat-file', '--batch'],
                       input=''.join(s + '\n' for s in shas).encode(), capture_output=True,
                       check=True)
    data, pos, blobs = p.stdout, 0, []
    for _ in shas:
        nl = data.index(b'\n', pos)
        header = data[pos:nl].split()
        if header[-1] == b'missing':
            blobs.append('')
            pos = nl + 1
            continue
        size = int(header[2])
        blobs.append(data[nl + 1:nl + 1 + size].decode('utf-8', 'replace'))
        pos = nl + 1 + size + 1
    return blobs


def commit_units(git_dir, n):
    log = ['log', '-n', str(n), '--no-merges', '--format=%x01%s']
    try:
        out = git(git_dir, *log, '--name-only', 'HEAD')
    except subprocess.CalledProcessError:
        # A snapshot lacks its largest blobs, which a rename check may need: subjects alone.
        out = git(git_dir, *log, 'HEAD')
    for record in out.split('\x01')[1:]:
        lines = [l for l in record.split('\n') if l.strip()]
        if not lines:
            continue
        names = ' '.join(re.sub(r'\.[^/]*$', '', l.rsplit('/', 1)[-1]) for l in lines[1:20])
        yield 'commit', lines[0], names


EXCLUSIONS = None


def set_exclusions(*exclusions):
    global EXCLUSIONS
    EXCLUSIONS = exclusions


def repo_units(git_dir):
    """(row of the corpus list, the repository's units as lines, a note) for one git dir."""
    args, excluded_names, excluded_blobs, excluded_roots = EXCLUSIONS
    name = repo_name(git_dir)
    counts = {'vendored': 0, 'excluded_blobs': 0}
    if name.lower() in excluded_names:
        return None, '', f'{name}: excluded by name'
    try:
        if roots_of(git_dir, 'HEAD') & excluded_roots:
            return None, '', f'{name}: excluded, shares a root commit with an excluded repository'
        head = git(git_dir, 'rev-parse', 'HEAD').strip()
        files = sampled_files(git_dir, args.bytes_per_repo, excluded_blobs, counts)
        blobs = read_blobs(git_dir, [sha for sha, _ in files])
        commits = list(commit_units(git_dir, args.commits_per_repo))
    except subprocess.CalledProcessError as e:
        return None, '', f'{name}: skipped, git failed: {e.stderr.strip()[:200]}'
    out = []
    n_lines = 0
    langs = {}
    for (sha, path), text in zip(files, blobs):
        lang = LANGUAGES[os.path.splitext(path)[1].lower()]
        langs[lang] = langs.get(lang, 0) + text.count('\n')
        n_lines += text.count('\n')
        out.extend(f'{kind}\t{clean(prose)}\t{clean(code)}\n'
                   for kind, prose, code in units_of_file(path, text, lang))
    out.extend(f'{kind}\t{clean(prose)}\t{clean(code)}\n' for kind, prose, code in commits)
    main_lang = max(langs, key=langs.get) if langs else '-'
    row = (name, head, main_lang, len(files), n_lines, len(out), counts['excluded_blobs'])
    note = (f'{name}: {len(files)} files, {n_lines} lines, {len(out)} units, '
            f'{counts["excluded_blobs"]} excluded blobs, {counts["vendored"]} vendored')
    return row, ''.join(out), note


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--words', required=True, help='the lode-lexicon-words binary')
    ap.add_argument('--out', required=True)
    ap.add_argument('--list', required=True, help='write the repositories and commits here')
    ap.add_argument('--exclude-git', action='append', default=[])
    ap.add_argument('--exclude-tree', action='append', default=[])
    ap.add_argument('--exclude-repos', default='')
    ap.add_argument('--bytes-per-repo', type=int, default=1_500_000)
    ap.add_argument('--commits-per-repo', type=int, default=1500)
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('git_dirs', nargs='+')
    args = ap.parse_args()

    excluded_names = {r.strip().lower() for r in args.exclude_repos.split(',') if r.strip()}
    excluded_blobs, excluded_roots = set(), set()
    for g in args.exclude_git:
        excluded_blobs |= blobs_of(g)
        excluded_roots |= roots_of(g)
    for t in args.exclude_tree:
        excluded_blobs |= tree_blobs(t)
    print(f'excluding {len(excluded_blobs)} blobs and {len(excluded_roots)} root commits',
          file=sys.stderr)

    words = subprocess.Popen([args.words], stdin=subprocess.PIPE,
                             stdout=open(args.out, 'w', encoding='utf-8'), text=True,
                             encoding='utf-8', errors='replace')
    listing = open(args.list, 'w', encoding='utf-8')
    listing.write('# repository\tcommit\tmain language\tfiles read\tlines\tunits\t'
                  'files left out as copies of an excluded repository\n')
    with multiprocessing.Pool(args.jobs, initializer=set_exclusions,
                              initargs=(args, excluded_names, excluded_blobs,
                                        excluded_roots)) as pool:
        for row, units, note in pool.imap(repo_units, args.git_dirs):
            print(note, file=sys.stderr)
            if row is None:
                continue
            words.stdin.write(units)
            listing.write('\t'.join(str(x) for x in row) + '\n')
            listing.flush()
    words.stdin.close()
    listing.close()
    if words.wait() != 0:
        sys.exit('lode-lexicon-words failed')


if __name__ == '__main__':
    main()
