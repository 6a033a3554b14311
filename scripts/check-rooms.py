#!/usr/bin/env python3
"""Checks the rooms of the explorer (ui/) and of the engine (engine/src/), as docs/architecture.md draws
them: every #include "room/file.h" points to the same room or one on a lower floor, and no files include
each other, directly or around a circle. The engine's public headers (<hiera/…>) are its API, which
every room may include if it is on the room's floor or below; they have rooms of their own
(PUBLIC_ROOMS): a public header includes only public headers, of its room or of a lower floor. The rooms in FRONT_DOOR_ONLY (the node library, the
repositories) reach the engine only through its public headers: their private includes stay in the
room. Prints each violation as file:line: message and exits 1 when there is one."""
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
PUBLIC_INCLUDE = re.compile(r'^\s*#\s*include\s+[<"]hiera/([^">]+)[">]')
ANY_QUOTED_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')

# The engine's public headers (engine/include/hiera/), each in the room that implements it, on the
# floors of engine/src. A header in a folder (hiera/nodes/…, hiera/report/…) is in the room of that name.
PUBLIC_ROOMS = {
    "core": ["value.h", "sourcelocation.h", "error.h", "lookupkey.h", "scope.h", "nodescope.h", "valuediff.h",
             "valueformat.h", "sourcetree.h", "overlaytree.h", "topscopewalk.h", "mergespec.h"],
    "parse": ["yaml.h", "facts.h", "backend.h"],
    "trace": ["trace.h"],
    "config": ["config.h", "layer.h", "environment.h"],
    "cache": ["datafile.h"],
    "lookup": ["engine.h", "context.h", "merge.h", "nodelookups.h"],
    "explain": ["explain.h", "explanationreport.h", "overridechain.h", "provenance.h"],
    "repository": ["gitrevision.h", "gitrevisionlist.h", "gitrevisiontree.h", "openrepository.h"],
}
GENERATED_PUBLIC = {"version.h"}  # configured into the build tree
FRONT_DOOR_ONLY = {"nodes", "repository"}


def main(root):
    problems = []
    for tree, floors in TREES.items():
        check_tree(os.path.join(root, tree), tree, floors, problems)
    check_public_headers(os.path.join(root, "engine/include/hiera"), TREES["engine/src"], problems)
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
                    if tree == "engine/src":
                        pm = PUBLIC_INCLUDE.match(line)
                        if pm and pm.group(1) not in GENERATED_PUBLIC:
                            target_room = public_room(pm.group(1))
                            if target_room in FLOOR_OF and FLOOR_OF[target_room] > FLOOR_OF[room]:
                                problems.append(f"{tree}/{rel}:{number}: {room}/ may not include hiera/{pm.group(1)} "
                                                f"({target_room}/ is above it)")
                            continue
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    target = m.group(1)
                    target_room = target.split("/")[0]
                    if tree == "engine/src" and room in FRONT_DOOR_ONLY and target_room in FLOOR_OF \
                            and target_room != room:
                        problems.append(f"{tree}/{rel}:{number}: {room}/ reaches the engine only through its public "
                                        f"headers, not {target}")
                        continue
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


def public_room(name):
    """The room of a public header named relative to include/hiera/, or None."""
    if "/" in name:
        return name.split("/")[0]
    for room, headers in PUBLIC_ROOMS.items():
        if name in headers:
            return room
    return None


def check_public_headers(include_dir, floors, problems):
    floor_of = {room: floor for floor, rooms in enumerate(floors) for room in rooms}
    for dirpath, _, names in os.walk(include_dir):
        for file in sorted(names):
            if not file.endswith(".h"):
                continue
            name = os.path.relpath(os.path.join(dirpath, file), include_dir)
            shown = f"engine/include/hiera/{name}"
            room = public_room(name)
            if room not in floor_of:
                problems.append(f"{shown}:1: a public header in no room (add it to PUBLIC_ROOMS)")
                continue
            with open(os.path.join(dirpath, file), encoding="utf-8") as f:
                for number, line in enumerate(f, 1):
                    m = PUBLIC_INCLUDE.match(line)
                    if m:
                        target = m.group(1)
                        if target in GENERATED_PUBLIC:
                            continue
                        target_room = public_room(target)
                        if target_room not in floor_of:
                            problems.append(f"{shown}:{number}: includes hiera/{target}, a public header in no room")
                        elif floor_of[target_room] > floor_of[room] or (
                                floor_of[target_room] == floor_of[room] and target_room != room):
                            problems.append(f"{shown}:{number}: hiera/{name} ({room}/) may not include "
                                            f"hiera/{target} ({target_room}/ is not below it)")
                        continue
                    m = ANY_QUOTED_INCLUDE.match(line)
                    if m:
                        problems.append(f"{shown}:{number}: a public header includes only public headers, "
                                        f"not \"{m.group(1)}\"")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")))
