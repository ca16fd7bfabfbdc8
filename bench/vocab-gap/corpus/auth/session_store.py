import time


class SessionStore:
    def __init__(self, ttl_seconds=1800):
        self._ttl = ttl_seconds
        self._by_token = {}

    def open(self, token, account_id):
        self._by_token[token] = (account_id, time.monotonic())

    def touch(self, token):
        account_id, _ = self._by_token[token]
        self._by_token[token] = (account_id, time.monotonic())

    def purge_stale_sessions(self):
        now = time.monotonic()
        stale = [t for t, (_, seen) in self._by_token.items() if now - seen > self._ttl]
        for token in stale:
            del self._by_token[token]
        return len(stale)
