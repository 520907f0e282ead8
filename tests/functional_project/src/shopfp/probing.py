"""Runs commands and probes interpreters; each caller handles its callee's failures."""
import shutil
import subprocess

LOG = []


class CommandFailed(Exception):
    """A command exited with a failure status."""


class Interrupted(Exception):
    """A command was stopped before it finished."""


def read_raw(path):
    if not path:
        raise ValueError("no path")
    with open(path, encoding="utf-8") as stream:
        return stream.read()


def run_command(args):
    result = subprocess.run(args, capture_output=True, encoding="utf-8", check=False)
    if result.returncode == -2:
        raise Interrupted(args)
    if result.returncode:
        raise CommandFailed(result.returncode)
    return result.stdout


def run_logged(args):
    try:
        output = run_command(args)
    except Interrupted:
        LOG.append("interrupted")
        raise
    return output


def probe_version(python):
    try:
        out = run_command([python, "--version"])
        major, minor = out.split(".")[:2]
    except (CommandFailed, ValueError):
        return None
    return int(major), int(minor)


def probe_name(python):
    try:
        name = run_command([python, "-c", "print(1)"]).strip()
    except CommandFailed:
        return None
    return name


def settings_text(path):
    try:
        return read_raw(path)
    except ValueError:
        return ""


def find_python():
    path = shutil.which("python3")
    if not path:
        return None
    return path


def describe():
    path = find_python()
    if path is None:
        return "no python"
    return path


def read_mode():
    if LOG:
        return "fast"
    return None


def mode_of(default):
    mode = read_mode()
    if not mode:
        mode = default
    if mode == "fast":  # reads the default as often as read_mode's answer
        return 1
    return 2
