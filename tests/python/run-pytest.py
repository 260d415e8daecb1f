#!/usr/bin/env python3
"""Runs tests/python with pytest for `meson test` (and so for tools/test).

Everything pytest writes goes into one fresh temporary folder, removed at
the end: its tmp_path folders (--basetemp), matplotlib's font cache
(MPLCONFIGDIR), and no cache of pytest's (-p no:cacheprovider) or bytecode
(PYTHONDONTWRITEBYTECODE). pytest's "no tests collected" (exit 5) is a
failure here, never a silent pass, and so is collecting fewer tests than
the suite has.
"""
import os
import shutil
import sys
import tempfile

import pytest

MIN_TESTS = 20  # the suite has more: parametrised over every example


class Count:
    def __init__(self):
        self.collected = 0

    def pytest_collection_finish(self, session):
        self.collected = len(session.items)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    tmp = tempfile.mkdtemp(prefix="flexion-pytest-")
    count = Count()
    # matplotlib's font cache and any other cache of the examples: here too
    os.environ["MPLCONFIGDIR"] = os.path.join(tmp, "matplotlib")
    os.environ["XDG_CACHE_HOME"] = os.path.join(tmp, "cache")
    try:
        rc = pytest.main(["-p", "no:cacheprovider", "--basetemp", os.path.join(tmp, "t"),
                          "-q", "-rs", here] + sys.argv[1:], plugins=[count])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if rc == pytest.ExitCode.NO_TESTS_COLLECTED:
        print("run-pytest: no tests were collected: that is a failure", file=sys.stderr)
        return 1
    if rc == 0 and count.collected < MIN_TESTS and len(sys.argv) == 1:
        print(f"run-pytest: only {count.collected} tests collected, expected at least {MIN_TESTS}",
              file=sys.stderr)
        return 1
    return int(rc)


if __name__ == "__main__":
    sys.exit(main())
