"""A client keeping its host in private names, which Python stores mangled."""


class _Base:
    __port = 80


class HostClient(_Base):
    __instance = "localhost"

    def url(self):
        return f"http://{self.__instance}"
