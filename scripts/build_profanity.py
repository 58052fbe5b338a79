"""Rebuild the family table's word list from the npm package ``cuss``.

A Constellate host may choose a *family table* (``games/constellate/game.py``): there the
clue check (``games/constellate/clues.py``) also refuses general profanity, on top of the
slurs and the moderators' blocklist it refuses at every table (RULES.md W3). The words come
from ``cuss`` by Titus Wormer (wooorm), MIT: a map of English profane words to a *sureness*
rating, 0 (often innocent: "lesbian", "adult"), 1 (maybe: "abortion") or 2 (likely
profane). This script writes two files next to ``slurs.txt``:

* ``games/constellate/data/profanity.txt``: a header naming the package, its version and
  licence, then one lowercase word per line (as ``slurs.txt`` is written; the check reads
  both with ``clues._read_list``, which lowercases anyway):
    - every entry rated **2** that is a single word of letters a-z: refused at a family
      table, with its close forms;
    - after a ``!``, every single-word entry rated 0 or 1: never refused at a family table,
      even when it looks like a close form of a refused word (GABLE beside GABLES).
  Dropped: entries of several words ('alligator bait': a clue is one word, and cuss lists
  the spellings run together on their own, alligatorbait) and entries with digits
  (brea5t: W1 refuses digits anyway).
* ``games/constellate/data/LICENSE-cuss.txt``: the package's licence, as shipped.

Run it with no argument to download the tarball from the npm registry (its SHA-512 is
checked against the one pinned here), or pass a tarball fetched with ``npm pack``:

    .venv/bin/python scripts/build_profanity.py
    cd "$(mktemp -d)" && npm pack cuss@2.2.0 && cd - && \
        .venv/bin/python scripts/build_profanity.py "$OLDPWD/cuss-2.2.0.tgz"

Commit both files: nothing reads the network when the tests or the server run.
Not run by the tests or CI (they test ``parse`` and ``family_lists`` on a sample); stdlib only.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import io
import re
import sys
import tarfile
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "games" / "constellate" / "data"
PACKAGE = "cuss"
VERSION = "2.2.0"
LICENCE = "MIT"
TARBALL_URL = f"https://registry.npmjs.org/{PACKAGE}/-/{PACKAGE}-{VERSION}.tgz"
# The registry's dist.integrity for cuss 2.2.0 (`npm view cuss@2.2.0 dist.integrity`).
INTEGRITY = "sha512-" + (
    "3hlHOhMiZ6YdHY5LPUhfxlx1Pj14eGttv2l9ADB1Lkv7e/us5XD798wrVLJ9DHmDO8SzCDuA+ItByFZ3M1dIYg=="
)
REFUSED = 2  # cuss's "likely profane"

# One entry of the map: `  word: 2,` or `  'two words': 2,` (the last has no comma).
_ENTRY = re.compile(r"""^\s+(?:'([^'\\]*)'|"([^"\\]*)"|([A-Za-z0-9_$]+)):\s*([0-2]),?\s*$""")
_START = re.compile(r"^export const cuss = \{\s*$")
_WORD = re.compile(r"^[a-z]+$")


class BuildError(Exception):
    """The package is not what this script expects: nothing is written."""


def parse(source: str) -> dict[str, int]:
    """The map in cuss's ``index.js``: entry -> rating. Every line of the object literal
    must be an entry, so a change of format fails loudly instead of dropping words."""
    lines = source.splitlines()
    start = next((n for n, line in enumerate(lines) if _START.match(line)), None)
    if start is None:
        raise BuildError("index.js has no `export const cuss = {` line")
    ratings: dict[str, int] = {}
    for line in lines[start + 1 :]:
        if line.strip() == "}":
            break
        found = _ENTRY.match(line)
        if found is None:
            raise BuildError(f"index.js: not an entry: {line.strip()!r}")
        entry = next(group for group in found.groups()[:3] if group is not None)
        if entry in ratings:
            raise BuildError(f"index.js lists {entry!r} twice")
        ratings[entry] = int(found.group(4))
    else:
        raise BuildError("index.js: the map never closes")
    if not ratings:
        raise BuildError("index.js: the map is empty")
    return ratings


def family_lists(ratings: dict[str, int]) -> tuple[list[str], list[str]]:
    """The words refused at a family table (rated 2) and the words never refused there
    (rated 0 or 1), each sorted: single words of letters a-z only, lowercased."""
    refused, never = set(), set()
    for entry, rating in ratings.items():
        word = entry.lower()
        if not _WORD.match(word):
            continue  # several words, or digits: never a clue
        (refused if rating == REFUSED else never).add(word)
    return sorted(refused), sorted(never - refused)


def render(refused: list[str], never: list[str], *, version: str = VERSION) -> str:
    header = f"""\
# Words refused at a family table (a host option of Constellate), on top of the slurs and
# the moderators' blocklist refused at every table (RULES.md W3). One lowercase word per
# line; '#' starts a comment. The check refuses each word and, for a word that is its own
# base form, its close forms (plurals, verb forms); never longer words that contain one.
# A word after a "!" is never refused at a family table, even where it looks like a close
# form of a refused word.
#
# GENERATED by scripts/build_profanity.py from the npm package `{PACKAGE}` {version} by
# Titus Wormer, licence {LICENCE} (LICENSE-cuss.txt beside this file). Do not edit by hand:
# change the script and run it again. cuss rates how sure it is that a word is profane:
#   refused: the {len(refused)} single words a-z rated 2 ("likely profane");
#   never refused: the {len(never)} single words a-z rated 0 or 1 (often innocent,
#                  e.g. "lesbian" 0, "abortion" 1);
#   dropped: entries of several words (a clue is one word) and entries with digits.
"""
    lines = [header, _heading("refused at a family table (rated 2)"), *refused, ""]
    lines.append(_heading("never refused at a family table (rated 0 or 1)"))
    lines.extend(f"!{word}" for word in never)
    return "\n".join(lines) + "\n"


def _heading(title: str, width: int = 92) -> str:
    return f"# -- {title} ".ljust(width, "-")


def _integrity(blob: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(blob).digest()).decode("ascii")


def _download() -> bytes:
    with urllib.request.urlopen(TARBALL_URL, timeout=60) as response:
        blob: bytes = response.read()
    return blob


def _member(tar: tarfile.TarFile, name: str) -> str:
    found = tar.extractfile(f"package/{name}")
    if found is None:
        raise BuildError(f"the tarball has no package/{name}")
    return found.read().decode("utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("tarball", nargs="?", type=Path, help=f"{PACKAGE}-{VERSION}.tgz")
    args = parser.parse_args()
    blob = args.tarball.read_bytes() if args.tarball else _download()
    try:
        if _integrity(blob) != INTEGRITY:
            raise BuildError(f"the tarball is not {PACKAGE} {VERSION} (its SHA-512 differs)")
        with tarfile.open(fileobj=io.BytesIO(blob), mode="r:gz") as tar:
            source = _member(tar, "index.js")
            licence = _member(tar, "license")
        refused, never = family_lists(parse(source))
    except BuildError as error:
        sys.exit(f"build_profanity: {error}")
    (DATA / "profanity.txt").write_text(render(refused, never), encoding="utf-8")
    (DATA / "LICENSE-cuss.txt").write_text(
        f"games/constellate/data/profanity.txt is built from the npm package {PACKAGE} "
        f"{VERSION}\n(https://github.com/words/cuss), under this licence:\n\n" + licence,
        encoding="utf-8",
    )
    print(f"wrote {len(refused)} refused and {len(never)} never-refused words to {DATA}")


if __name__ == "__main__":
    main()
