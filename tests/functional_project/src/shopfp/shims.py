"""Old method names added to a class at run time, with setattr."""


class Greeter:
    def greet(self):
        return "hi"


def _alias(new_name):
    def alias(self, *args):
        return getattr(self, new_name)(*args)

    return alias


for _old, _new in [("hello", "greet")]:
    setattr(Greeter, _old, _alias(_new))
