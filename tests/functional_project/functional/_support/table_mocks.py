"""A decorator of the tests patching every name of the table it is given,
exposing each mock as ``self.mock_<name>`` (horizon's create_mocks)."""
# pylint: disable=import-error,missing-function-docstring
from functools import wraps
from unittest import mock


def create_mocks(target_methods):
    def wrapper(function):
        @wraps(function)
        def wrapped(inst, *args, **kwargs):
            for target, methods in target_methods.items():
                for method in methods:
                    if isinstance(method, str):
                        method_mocked = attr_name = method
                    else:
                        method_mocked, attr_name = method[0], method[1]
                    patcher = mock.patch.object(target, method_mocked)
                    setattr(inst, f"mock_{attr_name}", patcher.start())
            try:
                return function(inst, *args, **kwargs)
            finally:
                mock.patch.stopall()
        return wrapped
    return wrapper
