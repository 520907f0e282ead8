"""A session whose send calls itself from several returns (retries and
redirects), as keystoneauth1's ``Session._send_request`` does."""


class Response:
    def __init__(self, url):
        self.url = url

    def close(self):
        return None


class Session:
    def send(self, url, redirects=0, retries=0, backoff=0):
        if retries:
            return self.send(url, redirects, retries - 1, backoff + 1)
        if redirects:
            return self.send(url + "/", redirects - 1, retries, backoff)
        if backoff > 100:
            return self.send(url, redirects, retries, backoff - 1)
        return Response(url)

    def get(self, url):
        return self.send(url, redirects=3, retries=3)
