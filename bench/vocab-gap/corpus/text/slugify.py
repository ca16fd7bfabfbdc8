import re
import unicodedata


def slugify(value, max_length=60):
    """Lower-case ASCII words joined by hyphens: 'Ça va, Zoë?' -> 'ca-va-zoe'."""
    value = unicodedata.normalize('NFKD', value).encode('ascii', 'ignore').decode()
    value = re.sub(r'[^a-zA-Z0-9]+', '-', value).strip('-').lower()
    return value[:max_length].rstrip('-')
