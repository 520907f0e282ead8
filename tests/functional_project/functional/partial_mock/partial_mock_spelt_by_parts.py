"""A sibling whose raising double is patched at a target built from parts
(``module + ".get_info"``, Swift's spelling) takes the outer handler: the
last name of the target is read from the written part."""
# pylint: disable=missing-docstring,import-error
import unittest
from unittest import mock

from shopfp import syncing


class TestSync(unittest.TestCase):
    def test_broker_gone(self):
        sync = syncing.ContainerSync()
        broker = "shopfp.syncing.Broker"
        with mock.patch(broker + ".get_info", side_effect=syncing.DatabaseGone("gone")):
            sync.sync("a.db")
        self.assertEqual(1, sync.failures)

    def test_rows(self):
        sync = syncing.ContainerSync()
        with mock.patch("shopfp.syncing.hash_path", lambda *args: b"\x00" * 16):
            sync.sync("a.db")
        self.assertEqual(["o1", "o2"], sync.synced)
