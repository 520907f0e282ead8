"""An HTTP adapter whose verbs all go through one request method."""


class Adapter:
    def request(self, url, method):
        return url, method

    def get(self, url):
        return self.request(url, "GET")

    def patch(self, url):
        return self.request(url, "PATCH")
