"""Time the clue check (RULES.md W1-W8): one word against a 24-picture table.

    .venv/bin/python bench/clue_check.py [--words N] [--tables T] [--seed S]

Prints the one-off load time (import, then the first call, which loads wordfreq's list,
lemminflect's tables and the data files), the warm-up over every table, and then the mean
and p95 of N timed calls, each a random word against a random one of T tables. Tables are
drawn from the project's deck (games/constellate/deck.json; --invented-deck for the
~230-picture one below); words mix common English words, forms of the pictured names, and
junk. The target: mean under 2 ms after warm-up.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# The invented deck: "/" separates a picture's aliases, "_" stands for a space.
DECK = """
apple anchor moon pineapple mouse leaf cat child goose bicycle/bike rabbit/bunny ox foot
tooth knife pen sun teddy_bear/teddy television/tv/telly candle glasses/spectacles cactus
key dog horse whale shark octopus spider bee butterfly owl eagle penguin frog snake turtle
lion tiger elephant giraffe zebra monkey camel kangaroo koala panda fox wolf deer sheep cow
pig chicken duck swan crab lobster snail ant ladybird/ladybug bat hedgehog squirrel banana
cherry grape lemon orange pear strawberry watermelon carrot potato tomato onion mushroom
corn pumpkin bread cheese egg cake cookie/biscuit pizza sandwich candy ice_cream
coffee tea milk honey salt chair table bed lamp clock mirror door window key ladder hammer
saw nail screw scissors brush comb soap towel bucket broom umbrella bag/handbag shoe boot
hat crown ring necklace glove sock shirt/t-shirt dress coat button zipper needle thread
book pencil paintbrush drum guitar piano violin trumpet bell whistle kite balloon ball doll
robot puzzle dice card/playing_card car bus truck train plane/aeroplane/airplane boat/ship
rocket helicopter tractor wheel anchor map compass flag tent castle house bridge tower
lighthouse windmill fountain volcano mountain island river waterfall tree flower rose
tulip cactus mushroom cloud rain snowflake rainbow lightning fire candle torch lantern
bottle cup/mug plate fork spoon bowl kettle oven fridge/refrigerator phone/telephone
computer camera radio battery magnet microscope telescope globe skull ghost dragon wizard
mermaid unicorn pirate knight king queen baby snowman angel heart star/starfish diamond
skeleton tornado anchor feather shell pearl coin wallet envelope stamp ticket trophy medal
"""


def deck(invented: bool = False) -> list[list[str]]:
    """The project's picture deck (games/constellate/deck.json), else the invented one."""
    if not invented:
        try:
            from games.constellate.deck import load_deck

            return [picture.names for picture in load_deck()]
        except (ImportError, OSError):
            pass
    seen: dict[str, list[str]] = {}
    for item in DECK.split():
        names = [n.replace("_", " ") for n in item.split("/")]
        seen.setdefault(names[0], names)
    return list(seen.values())


def words(rng: random.Random, pictures: list[list[str]], n: int) -> list[str]:
    from wordfreq import top_n_list

    common = [w for w in top_n_list("en", 30000) if w.isascii() and w.isalpha()]
    forms = [n + s for names in pictures for n in names for s in ("", "s", "es", "ing", "ed")]
    letters = "abcdefghijklmnopqrstuvwxyz"
    out = []
    for _ in range(n):
        roll = rng.random()
        if roll < 0.7:
            out.append(rng.choice(common))
        elif roll < 0.9:
            out.append(rng.choice(forms).replace(" ", ""))
        else:
            out.append("".join(rng.choice(letters) for _ in range(rng.randint(2, 10))))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--words", type=int, default=20000)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--invented-deck", action="store_true", help="not deck.json's")
    args = parser.parse_args()
    rng = random.Random(args.seed)

    started = time.perf_counter()
    from games.constellate.clues import check_clue

    imported = time.perf_counter()
    check_clue("warm", [])
    loaded = time.perf_counter()

    pictures = deck(args.invented_deck)
    tables = [rng.sample(pictures, 24) for _ in range(args.tables)]
    sample = words(rng, pictures, args.words)
    started_warm = time.perf_counter()
    for table in tables:
        check_clue("comet", table)
    warmed = time.perf_counter()

    timings = []
    refused = 0
    for word in sample:
        table = rng.choice(tables)
        t0 = time.perf_counter_ns()
        reason = check_clue(word, table)
        timings.append((time.perf_counter_ns() - t0) / 1e6)
        refused += reason is not None
    timings.sort()
    p95 = timings[int(len(timings) * 0.95) - 1]
    print(f"import            {1000 * (imported - started):8.1f} ms")
    print(f"first call (load) {1000 * (loaded - imported):8.1f} ms")
    print(
        f"warm-up           {1000 * (warmed - started_warm):8.1f} ms"
        f"  ({args.tables} new tables of 24 from a deck of {len(pictures)}:"
        f" {1000 * (warmed - started_warm) / args.tables:.2f} ms for a table's first call)"
    )
    print(f"calls             {len(timings):8d}     ({refused} refused)")
    print(f"mean              {statistics.fmean(timings):8.4f} ms per call")
    print(f"p95               {p95:8.4f} ms per call")
    print(f"max               {timings[-1]:8.4f} ms per call")


if __name__ == "__main__":
    main()
