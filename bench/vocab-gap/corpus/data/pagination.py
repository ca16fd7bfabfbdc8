def paginate(items, offset=0, limit=20):
    """A slice of `items` with the cursor of the next slice, or None at the end."""
    offset = max(0, offset)
    limit = max(1, min(limit, 100))
    chunk = items[offset:offset + limit]
    following = offset + limit if offset + limit < len(items) else None
    return {'items': chunk, 'next': following, 'total': len(items)}
