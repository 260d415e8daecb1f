"""Shared fixtures: the build's flexion-cli, the examples, the source tree.

meson passes them in the environment (tests/meson.build); the typelib and
the library come from GI_TYPELIB_PATH and LD_LIBRARY_PATH, set there too.
"""
import os
import subprocess

import gi
import pytest

gi.require_version("Flexion", "1.0")


def _env(name):
    value = os.environ.get(name)
    if not value:
        raise RuntimeError(f"{name} is not set: run these tests with meson test")
    return value


@pytest.fixture(scope="session")
def cli():
    return _env("FLEXION_CLI")


@pytest.fixture(scope="session")
def source_root():
    return _env("FLEXION_SOURCE_ROOT")


def examples():
    folder = os.path.join(_env("FLEXION_SOURCE_ROOT"), "data", "examples")
    return sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".flexion"))


def run_cli(cli, args, cwd):
    """flexion-cli ARGS in `cwd`: (exit status, stdout, stderr)."""
    p = subprocess.run([cli] + args, cwd=cwd, capture_output=True, text=True, timeout=600,
                       stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout, p.stderr
