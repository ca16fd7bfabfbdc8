import threading


class VisitCounter:
    """Counts page visits from many threads; reads are approximate while writers run."""

    def __init__(self):
        self.visits = 0
        self.threads_seen = set()

    def record(self):
        self.threads_seen.add(threading.get_ident())
        self.visits += 1
