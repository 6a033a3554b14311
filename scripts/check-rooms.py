#!/usr/bin/env python3
"""Checks the rooms of the explorer (ui/) and of the engine (engine/src/), as docs/architecture.md draws
them: every #include "room/file.h" points to the same room or one on a lower floor, and no files include
each other, directly or around a circle. The engine's public headers (<hiera/…>) are its API, which
every room may include. Prints each violation as file:line: message and exits 1 when there is one."""
import os
import re
import sys

# Lower floors first; a room may include itself and any room on a lower floor.
TREES = {
    "ui": [
        ["models"],
        ["facts", "widgets"],
        ["jobs"],
        ["document"],
        ["panels"],
        ["window"],
    ],
    "engine/src": [
        ["core"],
        ["parse", "report", "trace"],
        ["interpolate"],
        ["config", "cache"],
        ["backends"],
        ["providers"],
        ["lookup"],
        ["explain", "nodes", "repository"],
    ],
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def main(root):
    problems = []
    for tree, floors in TREES.items():
        check_tree(os.path.join(root, tree), tree, floors, problems)
    for p in problems:
        print(p)
    return 1 if problems else 0


def check_tree(ui, tree, floors, problems):
    FLOOR_OF = {room: floor for floor, rooms in enumerate(floors) for room in rooms}
    graph = {}
    for dirpath, _, names in os.walk(ui):
        for name in sorted(names):
            if not name.endswith((".h", ".cpp")):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, ui)
            room = rel.split(os.sep)[0]
            if room not in FLOOR_OF:
                problems.append(f"{tree}/{rel}:1: not in a room ({', '.join(sorted(FLOOR_OF))})")
                continue
            unit = os.path.splitext(rel)[0]
            with open(path, encoding="utf-8") as f:
                for number, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    target = m.group(1)
                    target_room = target.split("/")[0]
                    if target_room not in FLOOR_OF or "/" not in target:
                        continue  # the engine's <hiera/…>, moc files, generated headers
                    if FLOOR_OF[target_room] > FLOOR_OF[room] or (
                            FLOOR_OF[target_room] == FLOOR_OF[room] and target_room != room):
                        problems.append(f"{tree}/{rel}:{number}: {room}/ may not include {target} "
                                        f"({target_room}/ is not below it)")
                    target_unit = os.path.splitext(target)[0]
                    if target_unit != unit:
                        graph.setdefault(unit, set()).add(target_unit)
    # Circles between files (a .h and its .cpp count as one unit).
    state = {}
    def visit(unit, stack):
        state[unit] = 1
        stack.append(unit)
        for nxt in sorted(graph.get(unit, ())):
            if state.get(nxt) == 1:
                circle = stack[stack.index(nxt):] + [nxt]
                problems.append(f"{tree}/{unit}:1: include circle: {' -> '.join(circle)}")
            elif nxt not in state:
                visit(nxt, stack)
        stack.pop()
        state[unit] = 2
    for unit in sorted(graph):
        if unit not in state:
            visit(unit, [])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")))
