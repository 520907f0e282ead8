"""A withheld value whose arm also depends on a part of the condition that
does not read the call is not told apart: `converging and not saved` is False
for None too while `converging` is False."""
# pylint: disable=missing-docstring,import-error
from shopfp import settling


class TestOtherOperandDecides:
    def test_settled(self, mocker):
        mocker.patch("shopfp.settling.persist", return_value="saved", autospec=True)  # None's arm needs `converging`
        assert settling.settle("x") == "saved"


class TestTheCallAloneDecides:
    def test_settled(self, mocker):
        mocker.patch("shopfp.settling.persist", return_value="saved", autospec=True)  # [undocumented-partial-mock]
        assert settling.settle_alone("x") == "saved"
