#!/usr/bin/env python3
"""Works out the built-in vocabulary keywords' buckets for the vector keyword filter (KeywordScanner.builtinPlacement)
by a local search over log text, counting the positions each placement lets through that begin no keyword.

At start-up, a vocabulary of your own gets its buckets from LiteralSearch.buckets, a model of English letter
frequencies. Log messages are not English text (`didUpdateLocations`, `download`, hex), and for the built-in keywords a
placement searched over real text lets through far fewer positions. The cost of a placement is the number of
positions of the text (each distinct 16-byte window once, times how often it occurs) that pass some bucket and begin
no keyword, summed over both filters the scan has: eight positions looked up by the byte's low six bits (AVX-512 VBMI)
and five through nibble tables (AVX2, AVX-512 without VBMI, NEON). The search makes single moves and swaps between
buckets while one lowers the cost. It starts from the placement given (--start), since it cannot leave some local
minima on its own: a bucket that holds `nib` accepts any byte at positions 3 to 7, and no single move out of it lowers
the cost.

Needs numpy. The placement in KeywordScanner.swift came from (about two minutes):

  head -c 1500000 bench-data/capture-200MB.log > /tmp/head.log
  Scripts/keyword-placement.py --nslog /tmp/head.log --plain '../shared/corpus/real/*.log:3' \\
    --start '[[21,22,23,28,29,30],[17],[0,8,9,10,18,19,20,24,25,26,27],[7,13,31,36,48,49],[6,15,16,34,44],
              [3,4,32,33,37,39,41],[2,5,42,43,45],[1,11,12,14,35,38,40,46,47]]'

(the benchmark capture's first 1.5 MB, its messages; the real corpus's lines, weighted three times). The start is
where this search goes from the model's placement (a cost of 7,281 down to 5,339 on these texts), with `nib` moved to
a bucket of its own, `hide` to the bucket of `protected`, and the bucket of `active` merged into that of `phase`:
from there it reaches 3,797. (From the model's placement with the `did` spellings and `nib` each given a bucket of
their own, it reaches 4,417.)
"""
import argparse
import glob
import json
import re
import sys

import numpy as np

VOCABULARY = "Sources/TraceAnalysis/Vocabulary+Builtin.swift"


def keywords(path):
    """The built-in keywords, lowercased, in the order EventRecognizer collects them (first use)."""
    source = open(path).read()
    found = []
    for match in re.finditer(r'keywords:\s*(\[([^\]]*)\]|spellings\("([^"]*)"\))', source):
        if match.group(3):
            words = match.group(3).lower().split(" ")
            spellings = [""]
            for index, word in enumerate(words):
                gaps = [""] if index == 0 else ["", " ", "_"]
                spellings = [s + gap + word for s in spellings for gap in gaps]
        else:
            spellings = re.findall(r'"((?:[^"\\]|\\.)*)"', match.group(2))
        for keyword in spellings:
            keyword = keyword.lower()
            if keyword not in found:
                found.append(keyword)
    return [k.encode() for k in found]


def digest(literals):
    """KeywordScanner.digest: FNV-1a of the lowercased bytes, each keyword followed by a zero."""
    value, prime, mask = 0xCBF29CE484222325, 0x100000001B3, (1 << 64) - 1
    for literal in literals:
        for byte in literal:
            value = ((value ^ byte) * prime) & mask
        value = (value * prime) & mask
    return value


def lines(spec, nslog):
    pattern, _, weight = spec.partition(":")
    out = []
    for path in sorted(glob.glob(pattern)):
        for line in open(path, "rb").read().split(b"\n"):
            if nslog:
                end = line.find(b"] ")
                if end < 0:
                    continue
                line = line[end + 2:]
            out.append(line)
    return out, float(weight or 1)


def windows(text_lines, literals):
    """Each distinct 16-byte window that begins no keyword (its first eight bytes, by column) and its count."""
    text = b"\n".join(text_lines) + b"\n" * 16
    lowered = text.lower()
    begins = np.zeros(len(text), bool)
    for literal in literals:
        start = lowered.find(literal)
        while start >= 0:
            begins[start] = True
            start = lowered.find(literal, start + 1)
    array = np.frombuffer(text, dtype=np.uint8)
    count = len(array) - 16
    view = np.lib.stride_tricks.sliding_window_view(array, 16)[:count][~begins[:count]]
    unique, counts = np.unique(np.ascontiguousarray(view).view(np.dtype((np.void, 16))).ravel(), return_counts=True)
    first8 = np.frombuffer(unique.tobytes(), dtype=np.uint8).reshape(-1, 16)[:, :8]
    return np.ascontiguousarray(first8.T), counts.astype(np.float64)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nslog", action="append", default=[], help="NSLog capture(s), GLOB[:WEIGHT]: messages")
    parser.add_argument("--plain", action="append", default=[], help="any log(s), GLOB[:WEIGHT]: whole lines")
    parser.add_argument("--start", required=True, help="the placement to start from, as JSON")
    parser.add_argument("--vocabulary", default=VOCABULARY)
    arguments = parser.parse_args()

    literals = keywords(arguments.vocabulary)
    print(f"{len(literals)} keywords, digest 0x{digest(literals):016X}", file=sys.stderr)
    texts = [lines(spec, True) for spec in arguments.nslog] + [lines(spec, False) for spec in arguments.plain]
    corpora = []
    for text_lines, weight in texts:
        columns, counts = windows(text_lines, literals)
        corpora.append((columns, counts * weight))

    everything = np.arange(256)
    # Per keyword and position: the bytes the folded table accepts there; the nibbles the nibble tables accept.
    folded = []
    nibbles = []
    for literal in literals:
        rows, pairs = [], []
        for position in range(8):
            accepted = np.ones(256, bool)
            if position < len(literal):
                byte = literal[position] | 0x20
                accepted = np.isin(everything & 0x3F, [byte & 0x3F, byte & 0x1F])
            rows.append(accepted)
            if position < 5:
                if position < len(literal):
                    pairs.append(({byte & 15}, {byte >> 4, (byte >> 4) & ~2}))
                else:
                    pairs.append((set(range(16)), set(range(16))))
        folded.append(rows)
        nibbles.append(pairs)

    def passing(members, columns, tables):
        survives = np.ones(columns.shape[1], bool)
        for position in range(8 if tables == "folded" else 5):
            if tables == "folded":
                accepted = np.zeros(256, bool)
                for member in members:
                    accepted |= folded[member][position]
            else:
                low, high = np.zeros(16, bool), np.zeros(16, bool)
                for member in members:
                    low[list(nibbles[member][position][0])] = True
                    high[list(nibbles[member][position][1])] = True
                accepted = low[everything & 15] & high[everything >> 4]
            survives &= accepted[columns[position]]
            if not survives.any():
                break
        return survives

    costs = {}

    def cost(members):
        key = tuple(sorted(members))
        if not key:
            return 0.0
        if key not in costs:
            costs[key] = sum(
                float(counts[passing(key, columns, tables)].sum())
                for columns, counts in corpora
                for tables in ("folded", "nibbles"))
        return costs[key]

    placement = [list(bucket) for bucket in json.loads(arguments.start)]
    if sorted(sum(placement, [])) != list(range(len(literals))) or len(placement) != 8:
        sys.exit("--start must put each keyword in exactly one of eight buckets")
    print(f"start: {sum(map(cost, placement)):.0f}", file=sys.stderr)
    for round_number in range(1, 21):
        improved = False
        for a in range(8):
            for x in list(placement[a]):
                without = [m for m in placement[a] if m != x]
                best, best_gain = None, 1e-9
                for b in range(8):
                    if b == a:
                        continue
                    before = cost(placement[a]) + cost(placement[b])
                    gain = before - cost(without) - cost(placement[b] + [x])
                    if gain > best_gain:
                        best, best_gain = (b, None), gain
                    for y in placement[b]:
                        gain = before - cost(without + [y]) - cost([m for m in placement[b] if m != y] + [x])
                        if gain > best_gain:
                            best, best_gain = (b, y), gain
                if best:
                    b, y = best
                    placement[a].remove(x)
                    placement[b].append(x)
                    if y is not None:
                        placement[b].remove(y)
                        placement[a].append(y)
                    improved = True
        print(f"round {round_number}: {sum(map(cost, placement)):.0f}", file=sys.stderr)
        if not improved:
            break
    print(json.dumps([sorted(bucket) for bucket in placement]))


if __name__ == "__main__":
    main()
