"""First-party packages, test folders and plugins, detected from real files."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import write_tree

from mockpolicy.project import ConfigError, find_root, load_project


def detect(root: Path, files: dict[str, str]) -> frozenset[str]:
    write_tree(root, files)
    return load_project(root).first_party


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        ({"pyproject.toml": "[project]\nname = 'my-app'\n", "my_app/__init__.py": ""}, {"my_app"}),
        ({"pyproject.toml": "[tool.setuptools]\npackages = ['core', 'core.sub']\n", "core/__init__.py": ""}, {"core"}),
        (
            {"pyproject.toml": "[tool.setuptools.packages.find]\nwhere = ['lib']\n[project]\nname = 'x'\n",
             "lib/x/__init__.py": ""},
            {"x"},
        ),
        ({"pyproject.toml": "[tool.hatch.build.targets.wheel]\npackages = ['src/hx']\n", "src/hx/__init__.py": ""}, {"hx"}),
        ({"pyproject.toml": "[tool.flit.module]\nname = 'fl'\n", "fl/__init__.py": ""}, {"fl"}),
        (
            {"pyproject.toml": "[tool.poetry]\nname = 'po'\npackages = [{include = 'po', from = 'lib'}]\n",
             "lib/po/__init__.py": ""},
            {"po"},
        ),
        (
            {"pyproject.toml": "[project]\nname = 'ns'\n[tool.poetry]\npackages = [{include = 'ns', from = 'src'}]\n",
             "src/ns/console/__init__.py": "", "src/ns/factory.py": ""},
            {"ns"},
        ),
        ({"setup.cfg": "[metadata]\nname = cfgpkg\n[files]\npackages =\n    cfgpkg\n", "cfgpkg/__init__.py": ""}, {"cfgpkg"}),
        ({"setup.py": "from setuptools import setup\nsetup(name='sp')\n", "sp/__init__.py": ""}, {"sp"}),
        ({"pyproject.toml": "[project]\nname = 'unrelated'\n", "src/alpha/__init__.py": "", "src/beta.py": ""}, {"alpha", "beta"}),
        (
            {"pyproject.toml": "[project]\nname = 'pytest'\n", "src/pytest/__init__.py": "",
             "src/_pytest/__init__.py": "", "src/py.py": "", "src/__pycache__/x.pyc": "", "src/tests/__init__.py": ""},
            {"pytest", "_pytest", "py"},
        ),
        (
            {"setup.cfg": "[metadata]\nversion = 1\n", "pkg/__init__.py": "", "tests/__init__.py": "", "t/__init__.py": "",
             "docs/__init__.py": ""},
            {"pkg"},
        ),
        (
            {"setup.py": "from setuptools import setup\nsetup(name='google-auth')\n", "google/auth/__init__.py": "",
             "google/auth/jwt.py": "", "google/oauth2/__init__.py": "", "tests/__init__.py": "", "docs/conf.py": ""},
            {"google.auth", "google.oauth2"},
        ),
        (
            {"setup.py": "from setuptools import setup\nsetup(name='google-cloud-storage')\n",
             "google/cloud/storage/__init__.py": "", "google/cloud/_storage_v2/__init__.py": "",
             "tests/unit/test_blob.py": ""},
            {"google.cloud.storage", "google.cloud._storage_v2"},
        ),
    ],
    ids=[
        "project-name", "setuptools", "setuptools-find", "hatch", "flit", "poetry", "namespace-package", "pbr",
        "setup.py", "src", "src-private-beside-declared", "beside-tests", "members-of-a-shared-namespace",
        "two-namespace-levels-down",
    ],
)
def test_first_party_detection(tmp_path: Path, files: dict[str, str], expected: set[str]) -> None:
    assert detect(tmp_path, files) == expected


def test_members_of_a_shared_namespace_are_first_party_alone(tmp_path: Path) -> None:
    write_tree(tmp_path, {"google/auth/__init__.py": "", "google/auth/jwt.py": "", "google/oauth2/__init__.py": ""})
    project = load_project(tmp_path)
    assert project.is_first_party("google.auth.jwt") and project.is_first_party("google.oauth2")
    assert not project.is_first_party("google.protobuf.message")  # another distribution's share of the namespace
    assert not project.is_first_party("google")
    assert sorted(p.relative_to(tmp_path).as_posix() for p in project.code_under_test()) == [
        "google/auth/__init__.py", "google/auth/jwt.py", "google/oauth2/__init__.py",
    ]


def test_a_pkgutil_namespace_init_shares_its_package(tmp_path: Path) -> None:
    """``azure/__init__.py`` extending ``__path__`` declares a namespace shared
    with other distributions (azure-core): only the project's member is its own."""
    declaration = "__path__ = __import__('pkgutil').extend_path(__path__, __name__)\n"
    write_tree(tmp_path, {"azure/__init__.py": declaration, "azure/identity/__init__.py": "", "azure/identity/_x.py": ""})
    project = load_project(tmp_path)
    assert project.is_first_party("azure.identity._x")
    assert not project.is_first_party("azure.core.pipeline") and not project.is_first_party("azure")
    write_tree(tmp_path / "other", {"azure/__init__.py": "VERSION = 1\n", "azure/identity/__init__.py": ""})
    assert load_project(tmp_path / "other").is_first_party("azure.core")  # an ordinary package: all of it


def test_configured_first_party_wins(tmp_path: Path) -> None:
    files = {"pyproject.toml": "[project]\nname = 'a'\n[tool.mockpolicy]\nfirst-party = ['b', 'c']\n", "a/__init__.py": ""}
    assert detect(tmp_path, files) == {"b", "c"}


def test_mock_helpers_are_read(tmp_path: Path) -> None:
    write_tree(tmp_path, {"pyproject.toml": "[tool.mockpolicy]\nmock-helpers = ['tests.base.TestCase.patch_it']\n"})
    assert load_project(tmp_path).mock_helpers == {"tests.base.TestCase.patch_it"}


def test_test_paths_from_pytest_configuration(tmp_path: Path) -> None:
    write_tree(tmp_path, {"pytest.ini": "[pytest]\ntestpaths = it unit\n", "it/x.py": "", "unit/y.py": ""})
    assert load_project(tmp_path).test_paths == (tmp_path / "it", tmp_path / "unit")


def test_test_paths_fall_back_to_tests_folder(tmp_path: Path) -> None:
    write_tree(tmp_path, {"setup.cfg": "[metadata]\nname = x\n", "tests/test_a.py": ""})
    assert load_project(tmp_path).test_paths == (tmp_path / "tests",)


def test_pytest11_plugins_are_found(tmp_path: Path) -> None:
    write_tree(tmp_path, {
        "pyproject.toml": "[project]\nname = 'p'\n[project.entry-points.pytest11]\np = 'p.plugin'\n",
        "setup.py": "from setuptools import setup\nsetup(entry_points={'pytest11': ['q = q.fixtures:thing']})\n",
    })
    assert set(load_project(tmp_path).pytest_plugins) == {"p.plugin", "q.fixtures"}


def test_root_is_the_nearest_project_folder(tmp_path: Path) -> None:
    write_tree(tmp_path, {"pyproject.toml": "", "sub/setup.cfg": "", "sub/deep/tests/test_x.py": ""})
    assert find_root(tmp_path / "sub" / "deep" / "tests" / "test_x.py") == tmp_path / "sub"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("[tool.mockpolicy\n", "not valid TOML"),
        ("[tool.mockpolicy]\nfirst-party = 'app'\n", "first-party must be a list of strings"),
        ("[tool.mockpolicy]\nrequire_spec = 'all'\n", "unknown option 'require_spec'"),
        ("[tool]\nmockpolicy = 3\n", "[tool.mockpolicy] must be a table"),
        ("[tool.mockpolicy]\nmock-helpers = 'a.b'\n", "mock-helpers must be a list of strings"),
        ("[tool.mockpolicy]\nmock-helpers = ['tests.base:patch']\n", "'tests.base:patch', which is not a dotted name"),
    ],
)
def test_broken_configuration_is_one_clear_error(tmp_path: Path, text: str, problem: str) -> None:
    (tmp_path / "pyproject.toml").write_text(text)
    with pytest.raises(ConfigError) as caught:
        load_project(tmp_path)
    message = str(caught.value)
    assert message.startswith(str(tmp_path / "pyproject.toml"))
    assert problem in message


def test_shipped_test_support_is_code_under_test_and_test_folders_are_not(tmp_path: Path) -> None:
    write_tree(tmp_path, {
        "pyproject.toml": '[project]\nname = "app"\n',
        "src/app/__init__.py": "",
        "src/app/test/__init__.py": "",  # shipped: a runner the package gives its users
        "src/app/test/runner.py": "",
        "src/app/net/test/__init__.py": "",  # a test folder: it holds test modules
        "src/app/net/test/helpers.py": "",
        "src/app/net/test/deep/test_net.py": "",
        "src/app/testing.py": "",
        "tests/test_app.py": "",
    })
    project = load_project(tmp_path)
    assert project.test_folders == {"app.net.test"}
    assert project.is_test_code("app.test.runner") and project.is_shipped_test_support("app.test.runner")
    assert not project.is_shipped_test_support("app.net.test.helpers")
    assert not project.is_shipped_test_support("app.testing")  # a module named so is the tests'
    assert not project.is_shipped_test_support("app.test.test_runner")
    assert not project.is_shipped_test_support("app.jobs")  # not test code at all


def test_root_without_metadata_or_git_is_the_folder_above_the_packages(tmp_path: Path) -> None:
    write_tree(tmp_path, {"pkg/__init__.py": "", "tests/__init__.py": "", "tests/unit/__init__.py": "",
                          "tests/unit/test_x.py": "", "loose/test_y.py": ""})
    assert find_root(tmp_path / "tests" / "unit" / "test_x.py") == tmp_path
    assert find_root(tmp_path / "loose" / "test_y.py") == tmp_path / "loose"
    assert load_project(tmp_path).first_party == frozenset({"pkg"})


def test_declared_requirements_from_each_kind_of_metadata(tmp_path: Path) -> None:
    write_tree(tmp_path, {
        "a/pyproject.toml": (
            "[project]\nname = 'a'\ndependencies = ['Requests>=2', 'tomli; python_version < \"3.0\"',"
            " 'extra-only; extra == \"docs\"', 'not a requirement!!', 'odd; os_name ~= \"x\"']\n"
            "[tool.poetry.dependencies]\npython = '^3.9'\nclick = '*'\n"
        ),
        "b/setup.cfg": "[options]\ninstall_requires =\n    oslo.config>=6\n    stevedore\n",
        "c/setup.py": "", "c/requirements.txt": "# pinned\n-r base.txt\npbr!=2.1.0 # comment\nhttps://x/y.whl\nWebOb\n",
    })
    names = {key: [r.name for r in load_project(tmp_path / key).requirements] for key in "abc"}
    assert names == {"a": ["Requests", "click"], "b": ["oslo.config", "stevedore"], "c": ["pbr", "WebOb"]}
