import json
import urllib.request


class HttpClient:
    """A small JSON client for the API: every request has a timeout and a user agent."""

    def __init__(self, base_url, timeout=10.0):
        self.base_url = base_url.rstrip('/')
        self.timeout = timeout

    def request(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base_url + path, data=data, method=method,
                                     headers={'User-Agent': 'app/1.0',
                                              'Content-Type': 'application/json'})
        with urllib.request.urlopen(req, timeout=self.timeout) as resp:
            return json.loads(resp.read() or b'null')

    def get(self, path):
        return self.request('GET', path)

    def post(self, path, body):
        return self.request('POST', path, body)
