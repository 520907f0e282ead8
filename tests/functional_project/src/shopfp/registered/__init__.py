"""Classes a registry sets on this package when register_all() imports them."""


def register_all():
    __import__("shopfp.registered.widget")
