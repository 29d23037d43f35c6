"""Check the built distributions hold what they should: ``python .ci/check_dist.py dist``.

The sdist carries what the README names (the tests with the root ``conftest.py``, the
documentation's sources, the examples, the benchmarks, the CI script), so ``pytest`` and
``bash .ci/run`` work from it; in a git checkout, it carries every file git tracks but the
training's resume state, byte for byte, so the tests run from it are the tests the checkout
ran; neither carries build or cache debris; the wheel carries the package with its
``py.typed`` marker and the command, and nothing else.
"""

from __future__ import annotations

import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

SDIST_MUST_HAVE = (
    "pyproject.toml",
    "README.md",
    "LICENSE",
    "conftest.py",
    ".ci/run",
    ".ci/check_dist.py",
    ".readthedocs.yaml",
    ".github/workflows/ci.yml",
    "persian_rummy/__init__.py",
    "persian_rummy/py.typed",
    "tests/conftest.py",
    "tests/data/perft.json",
    "docs/conf.py",
    "docs/index.rst",
    "docs/_static/table-state.svg",
    "examples/play_bots.py",
    "benchmarks/perft.py",
)
WHEEL_MUST_HAVE = (
    "persian_rummy/__init__.py",
    "persian_rummy/py.typed",
    "persian_rummy/cli/__init__.py",
    # The shipped learned player (make_bot("neural")).
    "persian_rummy/policies/default.npz",
)
NEVER = ("__pycache__", ".pyc", "docs/_build", ".ci-venv", ".hypothesis", ".coverage")
#: Tracked files the sdist leaves out on purpose: the training's resume state (no test reads it).
SDIST_LEAVES_OUT = ("training/default/",)


def check(names: list[str], must_have: tuple[str, ...], what: str) -> list[str]:
    problems = [f"{what} lacks {name}" for name in must_have if name not in names]
    problems += [f"{what} holds {name}" for name in names if any(bad in name for bad in NEVER)]
    return problems


def tracked_files() -> dict[str, bytes] | None:
    """Every file git tracks here, with its bytes in the working tree; ``None`` outside a
    git checkout (an unpacked sdist), where there is nothing to compare with."""
    try:
        listed = subprocess.run(["git", "ls-files", "-z"], capture_output=True, check=True, timeout=60).stdout.decode()
    except (OSError, subprocess.SubprocessError):
        return None
    names = [name for name in listed.split("\0") if name and not name.startswith(SDIST_LEAVES_OUT)]
    return {name: Path(name).read_bytes() for name in names if Path(name).is_file()}


def compare_with_checkout(archive: tarfile.TarFile, what: str) -> list[str]:
    """The tracked files the sdist lacks or holds with other bytes."""
    tracked = tracked_files()
    if tracked is None:
        return []
    held = {member.name.partition("/")[2]: member for member in archive.getmembers() if member.isfile()}
    problems = []
    for name, data in sorted(tracked.items()):
        member = held.get(name)
        if member is None:
            problems.append(f"{what} lacks {name}, which git tracks")
            continue
        extracted = archive.extractfile(member)
        if extracted is None or extracted.read() != data:
            problems.append(f"{what} holds {name} with other bytes than the checkout's")
    return problems


def main(folder: str) -> int:
    (sdist,) = Path(folder).glob("*.tar.gz")
    (wheel,) = Path(folder).glob("*.whl")
    with tarfile.open(sdist) as archive:
        # Every member sits under one "name-version/" folder.
        sdist_names = [member.name.partition("/")[2] for member in archive.getmembers() if member.isfile()]
        problems = compare_with_checkout(archive, sdist.name)
    with zipfile.ZipFile(wheel) as archive:
        wheel_names = archive.namelist()
    problems += check(sdist_names, SDIST_MUST_HAVE, sdist.name)
    problems += check(wheel_names, WHEEL_MUST_HAVE, wheel.name)
    problems += [
        f"{wheel.name} holds {name}"
        for name in wheel_names
        if not name.startswith(("persian_rummy/", "persian_rummy-"))
    ]
    if not any(name.endswith("entry_points.txt") for name in wheel_names):
        problems.append(f"{wheel.name} has no entry points (the persian-rummy command)")
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"{sdist.name}: {len(sdist_names)} files; {wheel.name}: {len(wheel_names)} files")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "dist"))
