"""Rebuild the Constellate picture deck's vendored SVGs from the installed icon set.

The deck itself is data: ``games/constellate/deck.json`` lists every picture's canonical
name, its aliases, its static asset path and ``source`` (the icon's id in the set). This
script does not decide what is in the deck; it makes the files on disk match deck.json:

* writes ``games/constellate/static/constellate/sky/<name>.svg`` for every picture, from the
  icon ``source`` in the set's Iconify JSON (the body wrapped in ``<svg viewBox=...>``; ids
  renamed to ``<name>-<n>`` so they can never collide if two SVGs are ever inlined; nothing
  else: the set carries no title, desc, metadata or text),
* deletes any SVG in that folder that no picture uses,
* writes ``LICENSE.txt`` there (the set's licence and its attribution line),
* rewrites deck.json in its canonical form (sorted by name, one picture per line, asset
  derived from the name, source package and version recorded) after checking the rules the
  tests check (single lowercase a-z words, 3+ letters, canonical names 3-12 letters, no name
  or alias shared by two pictures). It refuses to write anything if a check fails.

The icon set is the npm package ``@iconify-json/fluent-emoji-flat`` (Microsoft's Fluent
Emoji, flat style, MIT). Install it OUTSIDE the repository and pass its folder:

    cd "$(mktemp -d)" && npm install @iconify-json/fluent-emoji-flat && \
        cd - && .venv/bin/python scripts/build_deck.py \
        "$OLDPWD/node_modules/@iconify-json/fluent-emoji-flat"

To add a picture: add ``{"name": ..., "aliases": [...], "source": "<icon id>"}`` to
deck.json (the asset is filled in), run the script, look at the new SVG, commit both.
``--sheet out.svg`` also writes a labelled contact sheet of the whole deck (render it with
``rsvg-convert out.svg -o out.png`` to look at it); it is for review, never commit it.

Not run by the tests or CI; stdlib only.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DECK_JSON = REPO / "games" / "constellate" / "deck.json"
SKY_DIR = REPO / "games" / "constellate" / "static" / "constellate" / "sky"
ASSET_PREFIX = "constellate/sky/"
PACKAGE = "@iconify-json/fluent-emoji-flat"

NAME_RE = re.compile(r"^[a-z]{3,12}$")
ALIAS_RE = re.compile(r"^[a-z]{3,}$")

MIT_TEXT = """\
MIT License

Copyright (c) Microsoft Corporation.

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
"""


def fail(msg: str) -> None:
    sys.exit(f"build_deck: {msg}")


def check_deck(pictures: list[dict]) -> None:
    """The same rules tests/games/constellate/test_deck.py checks (K1, W8)."""
    owner: dict[str, str] = {}
    for pic in pictures:
        name = pic["name"]
        if not NAME_RE.match(name):
            fail(f"canonical name {name!r} is not 3-12 lowercase letters a-z")
        for alias in pic["aliases"]:
            if not ALIAS_RE.match(alias):
                fail(f"alias {alias!r} of {name!r} is not 3+ lowercase letters a-z")
        for word in [name, *pic["aliases"]]:
            if word in owner and owner[word] != name:
                fail(f"{word!r} is listed by both {owner[word]!r} and {name!r}")
            if word in owner and owner[word] == name:
                fail(f"{word!r} is listed twice for {name!r}")
            owner[word] = name


def resolve(icon_set: dict, icon_id: str) -> dict:
    """The icon's body and box, following an Iconify alias without transformations."""
    icons, aliases = icon_set["icons"], icon_set.get("aliases", {})
    seen = []
    while icon_id not in icons:
        alias = aliases.get(icon_id)
        if alias is None:
            fail(f"icon {icon_id!r} is not in {PACKAGE}")
        if set(alias) - {"parent"}:
            fail(f"icon {icon_id!r} is a transformed alias; pick its parent instead")
        seen.append(icon_id)
        icon_id = alias["parent"]
    icon = icons[icon_id]
    if icon.get("hidden"):
        print(f"warning: icon {icon_id!r} is marked hidden (deprecated) in the set")
    box = {
        k: icon.get(k, icon_set.get(k, d))
        for k, d in (("left", 0), ("top", 0), ("width", 16), ("height", 16))
    }
    for k in ("rotate", "hFlip", "vFlip"):
        if icon.get(k):
            fail(f"icon {icon_id!r} has a {k} transformation; not supported")
    return {"body": icon["body"], **box}


def make_svg(name: str, icon: dict) -> str:
    body = icon["body"]
    for bad in ("<text", "<title", "<desc", "<metadata", "<script", "<foreignObject"):
        if bad in body:
            fail(f"icon for {name!r} contains {bad}>")
    ids = re.findall(r'\bid="([^"]+)"', body)
    for n, old in enumerate(dict.fromkeys(ids)):
        new = f"{name}-{n}"
        body = re.sub(rf'\bid="{re.escape(old)}"', f'id="{new}"', body)
        body = body.replace(f"url(#{old})", f"url(#{new})")
        body = body.replace(f'href="#{old}"', f'href="#{new}"')
    left, top, width, height = icon["left"], icon["top"], icon["width"], icon["height"]
    xlink = ' xmlns:xlink="http://www.w3.org/1999/xlink"' if "xlink:" in body else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg"{xlink} width="{width}" height="{height}" '
        f'viewBox="{left} {top} {width} {height}">{body}</svg>\n'
    )


def dump_deck(meta: dict, pictures: list[dict]) -> str:
    lines = ["{"]
    for key, value in meta.items():
        lines.append(f"  {json.dumps(key)}: {json.dumps(value)},")
    lines.append('  "pictures": [')
    rows = [
        json.dumps({k: pic[k] for k in ("name", "aliases", "asset", "source")}, ensure_ascii=True)
        for pic in pictures
    ]
    lines.append(",\n".join(f"    {row}" for row in rows))
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def write_sheet(path: Path, pictures: list[dict], svgs: dict[str, str], cols: int = 12) -> None:
    """A labelled grid of every picture, drawn at 80px (the size a phone shows)."""
    cell, pic_size = 110, 80
    rows = -(-len(pictures) // cols)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{cols * cell}" '
        f'height="{rows * cell}"><rect width="100%" height="100%" fill="#1b2340"/>'
    ]
    for i, pic in enumerate(pictures):
        x, y = (i % cols) * cell, (i // cols) * cell
        inner = svgs[pic["name"]].strip()
        inner = inner.replace("<svg ", f'<svg x="{x + 15}" y="{y + 4}" ', 1).replace(
            ' width="32" height="32"', f' width="{pic_size}" height="{pic_size}"', 1
        )
        parts.append(inner)
        parts.append(
            f'<text x="{x + cell / 2}" y="{y + 100}" fill="#fff" font-size="12" '
            f'font-family="DejaVu Sans" text-anchor="middle">{pic["name"]}</text>'
        )
    parts.append("</svg>\n")
    path.write_text("\n".join(parts))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("package", type=Path, help=f"folder of the installed {PACKAGE}")
    parser.add_argument("--sheet", type=Path, help="also write a contact-sheet SVG here")
    args = parser.parse_args()

    pkg_json = json.loads((args.package / "package.json").read_text())
    info = json.loads((args.package / "info.json").read_text())
    icon_set = json.loads((args.package / "icons.json").read_text())
    if pkg_json["name"] != PACKAGE:
        fail(f"{args.package} holds {pkg_json['name']}, not {PACKAGE}")

    deck = json.loads(DECK_JSON.read_text())
    pictures = sorted(deck["pictures"], key=lambda p: p["name"])
    for pic in pictures:
        pic["aliases"] = list(pic.get("aliases", []))
        pic["asset"] = f"{ASSET_PREFIX}{pic['name']}.svg"
        pic.setdefault("source", pic["name"])
    check_deck(pictures)

    svgs = {
        pic["name"]: make_svg(pic["name"], resolve(icon_set, pic["source"])) for pic in pictures
    }

    SKY_DIR.mkdir(parents=True, exist_ok=True)
    for old in SKY_DIR.glob("*.svg"):
        if old.stem not in svgs:
            old.unlink()
            print(f"removed {old.name}")
    for name, svg in svgs.items():
        (SKY_DIR / f"{name}.svg").write_text(svg)

    author = info["author"]["name"]
    (SKY_DIR / "LICENSE.txt").write_text(
        f"The pictures in this folder are Fluent Emoji (flat style) by {author},\n"
        f"taken from the npm package {PACKAGE} {pkg_json['version']}\n"
        f"(Iconify's packaging of microsoft/fluentui-emoji), licensed {info['license']['spdx']}.\n"
        f"Attribution: Fluent Emoji graphics by {author}, MIT License.\n"
        "Changes: each icon's Iconify JSON body was wrapped in a standalone <svg> with a\n"
        "viewBox, and its ids were renamed.\n\n" + MIT_TEXT
    )

    meta = {
        "source_package": f"{PACKAGE}@{pkg_json['version']}",
        "license": info["license"]["spdx"],
    }
    DECK_JSON.write_text(dump_deck(meta, pictures))
    if args.sheet:
        write_sheet(args.sheet, pictures, svgs)
    print(f"wrote {len(pictures)} pictures to {SKY_DIR.relative_to(REPO)}")


if __name__ == "__main__":
    main()
