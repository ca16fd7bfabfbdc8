def levenshtein(a, b):
    """Edit distance: insertions, deletions and substitutions to turn a into b."""
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def closest(word, candidates, max_distance=2):
    scored = sorted((levenshtein(word.lower(), c.lower()), c) for c in candidates)
    return [c for d, c in scored if d <= max_distance]
