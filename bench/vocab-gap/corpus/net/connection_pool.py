import queue


class ConnectionPool:
    """Keeps up to `size` open database connections and hands them out to requests."""

    def __init__(self, connect, size=8):
        self._connect = connect
        self._idle = queue.LifoQueue(maxsize=size)

    def acquire(self):
        try:
            return self._idle.get_nowait()
        except queue.Empty:
            return self._connect()

    def release(self, connection):
        try:
            self._idle.put_nowait(connection)
        except queue.Full:
            connection.close()
