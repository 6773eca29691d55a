"""The preset dictionary of stored game texts (db/texts.zdict, see pdn.db.texts), built from the
corpus, and what it and the choices around it save.

The dictionary is made once, deterministically, from the corpus's game texts (every game of each
file but OCA_2.0.pdn, and every tenth of OCA_2.0.pdn's so that its 22,621 games do not drown the
rest) by a greedy cover of the texts' frequent substrings, as zstd's COVER builder does: the
corpus is cut into segments, each scored by how many texts hold each of its 6-byte substrings
not yet in the dictionary, and the best segments taken until it is full, the best placed last
(nearest to the text, where deflate's distances cost fewest bits). Stored databases depend on the
file: it is never rewritten (a new one would get a new format byte in pdn.db.texts).

Printed: the stored bytes of OCA_2.0.pdn's games and of the other files' with no dictionary, with
the shipped one, and (fair to texts never seen) with dictionaries built from half of the files
and a tenth of OCA_2.0.pdn's first half, measured on the other half and OCA_2.0.pdn's second half.

Usage: python benchmarks/textdict.py [--write]
"""

from __future__ import annotations

import argparse
import heapq
import time
import zlib
from collections import Counter
from collections.abc import Sequence

from _env import CORPUS
from pdn.db.schema import NUL_SHOWN
from pdn.db.texts import DICTIONARY_FILE, LEVEL, MEM_LEVEL, WINDOW_BITS
from pdn.read.reader import read_file

SIZE = 16384  # bytes: 32 KiB saved 6% more of OCA_2.0.pdn's text for 25% more compression time
SEGMENT = 96  # bytes a candidate segment (48, 64 and 96 tried: 96 best on texts held out)
SUBSTRING = 8  # bytes a scored substring (4, 5, 6 and 8 tried)
OCA = "english/OCA_2.0.pdn"


def corpus_texts() -> dict[str, list[bytes]]:
    """Each corpus file's game texts as the games table stores them, by its corpus path."""
    out = {}
    for path in sorted(CORPUS.rglob("*.pdn")):
        games = read_file(path).games
        out[path.relative_to(CORPUS).as_posix()] = [
            g.raw.replace("\x00", NUL_SHOWN).encode() for g in games
        ]
    return out


def build(texts: Sequence[bytes], size: int = SIZE) -> bytes:
    """A dictionary of *size* bytes covering the substrings most of *texts* hold."""
    held = Counter[bytes]()
    for t in texts:
        held.update({t[i : i + SUBSTRING] for i in range(len(t) - SUBSTRING + 1)})
    segments = sorted(
        {
            t[i : i + SEGMENT]
            for t in texts
            for i in range(0, max(1, len(t) - SEGMENT + 1), SEGMENT // 2)
        }
    )
    covered: set[bytes] = set()

    def score(segment: bytes) -> tuple[int, set[bytes]]:
        new = {segment[i : i + SUBSTRING] for i in range(len(segment) - SUBSTRING + 1)} - covered
        return sum(held[s] for s in new), new

    queue = [(-score(s)[0], i) for i, s in enumerate(segments)]
    heapq.heapify(queue)
    picked: list[bytes] = []
    length = 0
    while queue and length < size:
        _, i = heapq.heappop(queue)
        now, new = score(segments[i])
        if queue and -now > queue[0][0]:  # scores only fall: look again when it is next best
            heapq.heappush(queue, (-now, i))
            continue
        if now <= 1:
            break
        picked.append(segments[i])
        length += len(segments[i])
        covered |= new
    return b"".join(reversed(picked))[-size:]


def stored(texts: Sequence[bytes], dictionary: bytes | None) -> tuple[int, float]:
    """The bytes *texts* take deflated one by one (with a format byte, never more than plain)
    with *dictionary*, and the CPU seconds it took."""
    start = time.process_time()
    primed = zlib.compressobj(LEVEL, zlib.DEFLATED, WINDOW_BITS, MEM_LEVEL, zdict=dictionary or b"")
    total = 0
    for t in texts:
        c = primed.copy()
        total += 1 + min(len(t), len(c.compress(t) + c.flush()))
    return total, time.process_time() - start


def training(texts: dict[str, list[bytes]], names: Sequence[str], oca: int) -> list[bytes]:
    """The texts of the files *names* and every tenth of OCA_2.0.pdn's first *oca* games."""
    return [t for n in names if n != OCA for t in texts[n]] + texts[OCA][:oca:10]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help=f"write {DICTIONARY_FILE.name}")
    args = parser.parse_args()
    texts = corpus_texts()
    others = [n for n in texts if n != OCA]
    start = time.process_time()
    shipped = build(training(texts, list(texts), len(texts[OCA])))
    print(
        f"dictionary: {len(shipped):,} bytes from the corpus, {time.process_time() - start:.1f} s"
    )
    if args.write:
        DICTIONARY_FILE.write_bytes(shipped)
    elif DICTIONARY_FILE.read_bytes() != shipped:
        print(f"  differs from {DICTIONARY_FILE} (--write writes it)")
    half = len(texts[OCA]) // 2
    sets = {
        "OCA_2.0.pdn": texts[OCA],
        "the other files": [t for n in others for t in texts[n]],
    }
    held_out = {
        "OCA_2.0.pdn second half": texts[OCA][half:],
        "other files, odd": [t for n in others[1::2] for t in texts[n]],
    }
    trained = build(training(texts, others[0::2], half))
    for label, group, dictionaries in (
        ("", sets, {"none": None, "shipped": shipped}),
        ("held out", held_out, {"none": None, "from the others": trained}),
    ):
        for name, group_texts in group.items():
            plain = sum(len(t) for t in group_texts)
            for dname, dictionary in dictionaries.items():
                size, cpu = stored(group_texts, dictionary)
                what = f"{len(group_texts):,} games, {plain:,} bytes" + (
                    f", {label}" if label else ""
                )
                each = cpu / len(group_texts) * 1e6
                print(f"{name} ({what}), dictionary {dname}: {size:,} bytes, "
                      f"{plain / size:.2f}x, {each:.0f} us a game")  # fmt: skip


if __name__ == "__main__":
    main()
