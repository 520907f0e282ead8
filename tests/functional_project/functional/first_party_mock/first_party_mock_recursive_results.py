"""What a method returns is found without following its recursive calls with
their arguments: the object a session's ``get`` returns through ``send``,
which calls itself from three returns, is found at once (it took minutes
when each recursive return was followed)."""
# pylint: disable=missing-docstring,import-error
from unittest import mock

from shopfp import retrying


def test_response_closed():
    response = retrying.Session().get("u")
    with mock.patch.object(response, "close", autospec=True):  # [first-party-mock]
        response.close()
