"""What a bot keeps of its last search for its next decision: the subtree under the moves played since
(tree reuse, as in Browne et al., "A Survey of Monte Carlo Tree Search Methods", 2012, §5.4).

A search's tree already holds, under the move it chose, statistics for the decisions that follow:
in Spellbook solo, under a Morning's choice, some 300–1,000 iterations that went on to the Midday and
the Night. Started from that subtree instead of an empty root, the next search adds its own iterations
to those: it thinks about as long and knows more. The tree is open-loop (a node is a sequence of tree
moves, chance and out-of-tree moves in between are averaged over), so the subtree of the move the
game really took stays meaningful after the draws that came since; determinizations drawn before the
last observation are a little less informed than those drawn now, which the new iterations outweigh.

Which moves lead down the tree is the search's own rule (search.py): a move is a node when its mover
had more than one choice and it was in the tree — one seat to act, or the observer among several —
and, below the root, the knowledge keeps that decision in the tree (`Knowledge.in_tree`). `carry`
follows that rule over every move the game plays; `Knowledge.reuses` says where a game wants it.

Determinism: a decision is a pure function of (state, seed, memory), and the memory is a pure function
of the decisions before it, so a game's bots still play the same game from the same seed. The workers
keep the memory with the table (`dump`/`load`, lossless) and drop it when the table moved in a way it
did not follow.
"""

from __future__ import annotations

import struct
import zlib
from typing import Any

from rulesets.core.ai.knowledge import Knowledge
from rulesets.core.ai.search import Node

_NODE = struct.Struct("<hIdIIdH")  # actor, choice's index, prior, visits, avail, total, children


def carry(knowledge: Knowledge, memory: Node | None, state: Any, actor: int, choice: str,
          observer: int) -> Node | None:
    """The observer's memory once `actor` has played `choice` in `state` (`state` as before the move):
    down to that move's child when the search's tree has a node for such a move, kept when the move
    was out of the tree, None when the tree never tried it."""
    if memory is None:
        return None
    game = knowledge.game
    if len(game.legal_choices(state, actor)) == 1:
        return memory  # a forced move is never a node
    seats = game.to_act(state)
    if len(seats) > 1 and actor != observer:
        return memory  # another seat's simultaneous move: sampled by the policy, out of the tree
    if not knowledge.in_tree(state):
        return memory  # a decision the knowledge plays by policy below the root
    return memory.children.get((actor, choice))


def dump(node: Node) -> bytes:
    """The subtree as bytes (exact: floats as doubles), for the workers to keep with the table."""
    names: dict[str, int] = {}
    parts: list[bytes] = []
    stack = [node]
    while stack:
        n = stack.pop()
        index = names.setdefault(n.choice, len(names))
        parts.append(_NODE.pack(n.actor, index, n.prior, n.visits, n.avail, n.total, len(n.children)))
        stack.extend(reversed(n.children.values()))
    table = "\x00".join(names).encode()
    return zlib.compress(struct.pack("<I", len(table)) + table + b"".join(parts), 6)


def load(blob: bytes) -> Node:
    """The subtree `dump` wrote, with its children in the same order."""
    raw = zlib.decompress(blob)
    (size,) = struct.unpack_from("<I", raw)
    names = raw[4:4 + size].decode().split("\x00")
    offset = 4 + size

    def read() -> tuple[Node, int]:
        nonlocal offset
        actor, index, prior, visits, avail, total, count = _NODE.unpack_from(raw, offset)
        offset += _NODE.size
        node = Node(actor, names[index], prior)
        node.visits, node.avail, node.total = visits, avail, total
        return node, count

    root, count = read()
    stack = [(root, count)]
    while stack:
        parent, left = stack[-1]
        if not left:
            stack.pop()
            continue
        stack[-1] = (parent, left - 1)
        child, n = read()
        parent.children[(child.actor, child.choice)] = child
        stack.append((child, n))
    return root
