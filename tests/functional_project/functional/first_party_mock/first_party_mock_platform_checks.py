"""A name a module binds by a check of the platform or of Python's version is
what the branch the running Python takes binds, as type checkers read such
checks: ``rename = os.rename`` on Linux is the library's function (s3transfer's
``compat.rename_file``), the function defined for Windows does not exist here."""
# pylint: disable=missing-docstring,import-error
from unittest import mock


def test_a_library_function_on_this_platform():
    with mock.patch("shopfp.platforms.replace_file", autospec=True):
        pass


def test_os_name():
    with mock.patch("shopfp.platforms.sync_folder", autospec=True):
        pass


def test_the_python_version():
    with mock.patch("shopfp.platforms.spawn", autospec=True):  # [first-party-mock]
        pass


def test_combined_checks():
    with mock.patch("shopfp.platforms.ancient", autospec=True):
        pass


def test_another_condition():
    with mock.patch("shopfp.platforms.word_size", autospec=True):  # [first-party-mock]
        pass
