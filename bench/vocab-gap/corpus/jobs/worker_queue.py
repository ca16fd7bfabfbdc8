import queue
import threading


class WorkerQueue:
    """Background jobs run by a fixed set of worker threads, in the order they were queued."""

    def __init__(self, workers=4):
        self._jobs = queue.Queue()
        self._threads = [threading.Thread(target=self._loop, daemon=True) for _ in range(workers)]
        for t in self._threads:
            t.start()

    def submit(self, job, *args):
        self._jobs.put((job, args))

    def _loop(self):
        while True:
            job, args = self._jobs.get()
            try:
                job(*args)
            finally:
                self._jobs.task_done()
