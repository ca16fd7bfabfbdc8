def unique_in_order(values, key=None):
    """Yields each value whose key was not seen before, in the original order."""
    seen = set()
    for value in values:
        k = value if key is None else key(value)
        if k in seen:
            continue
        seen.add(k)
        yield value
