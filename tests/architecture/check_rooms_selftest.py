#!/usr/bin/env python3
"""The rooms checker (scripts/check-rooms.py) catches what docs/architecture.md forbids: each case below
is a small tree with one violation, which the checker must report (and exit 1), and the same tree
without it, which it must pass. Run by ctest as architecture_rooms_selftest."""
import os
import subprocess
import sys
import tempfile

CHECKER = os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "check-rooms.py")

# A clean skeleton: one file in a few rooms, every include pointing down.
CLEAN = {
    "ui/models/model.h": '#include <hiera/value.h>\n',
    "ui/window/window.cpp": '#include "models/model.h"\n',
    "engine/src/core/value.cpp": '#include <hiera/value.h>\n',
    "engine/src/lookup/run.h": '#include "core/thing.h"\n',
    "engine/src/core/thing.h": '\n',
    "engine/src/nodes/fleet.cpp": '#include "nodes/parallel.h"\n#include <hiera/engine.h>\n',
    "engine/src/nodes/parallel.h": '\n',
    "engine/include/hiera/value.h": '#include <hiera/sourcelocation.h>\n',
    "engine/include/hiera/sourcelocation.h": '\n',
    "engine/include/hiera/engine.h": '#include <hiera/value.h>\n#include <hiera/version.h>\n',
    "engine/include/hiera/nodes/fleet.h": '#include <hiera/engine.h>\n',
}

# (what is wrong, file, its text, a fragment the report must hold)
CASES = [
    ("ui: a model includes the window", "ui/models/bad.h", '#include "window/window.h"\n',
     "models/ may not include window/window.h"),
    ("engine: core includes lookup", "engine/src/core/bad.cpp", '#include "lookup/run.h"\n',
     "core/ may not include lookup/run.h"),
    ("nodes/ reaches a private engine header", "engine/src/nodes/bad.cpp", '#include "lookup/run.h"\n',
     "nodes/ reaches the engine only through its public headers, not lookup/run.h"),
    ("nodes/ reaches a private header below it", "engine/src/nodes/bad2.cpp", '#include "core/thing.h"\n',
     "not core/thing.h"),
    ("a public header points up a floor", "engine/include/hiera/value.h",
     '#include <hiera/sourcelocation.h>\n#include <hiera/engine.h>\n',
     "hiera/value.h (core/) may not include hiera/engine.h (lookup/ is not below it)"),
    ("an engine header includes the node library's", "engine/include/hiera/engine.h",
     '#include <hiera/nodes/fleet.h>\n', "hiera/engine.h (lookup/) may not include hiera/nodes/fleet.h"),
    ("a public header includes a private one", "engine/include/hiera/engine.h", '#include "lookup/run.h"\n',
     'a public header includes only public headers, not "lookup/run.h"'),
    ("a private file includes a public header above its floor", "engine/src/core/bad3.cpp",
     '#include <hiera/engine.h>\n', "core/ may not include hiera/engine.h (lookup/ is above it)"),
    ("a public header in no room", "engine/include/hiera/newthing.h", '\n', "hiera/newthing.h:1: a public header in no room"),
    ("files including each other", "engine/src/core/thing.h", '#include "core/other.h"\n', "include circle"),
]
EXTRA = {"engine/src/core/other.h": '#include "core/thing.h"\n'}  # with the last case: a circle


def run(files):
    with tempfile.TemporaryDirectory() as root:
        for path, text in files.items():
            full = os.path.join(root, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w", encoding="utf-8") as f:
                f.write(text)
        p = subprocess.run([sys.executable, CHECKER, root], capture_output=True, text=True)
        return p.returncode, p.stdout


def main():
    failures = []
    code, out = run(CLEAN)
    if code != 0 or out:
        failures.append(f"the clean tree failed: exit {code}\n{out}")
    for what, path, text, expected in CASES:
        files = dict(CLEAN)
        files[path] = text
        if expected == "include circle":
            files.update(EXTRA)
        code, out = run(files)
        if code != 1 or expected not in out:
            failures.append(f"{what}: exit {code}, expected a report holding '{expected}', got:\n{out}")
    for f in failures:
        print(f)
    print(f"{len(CASES) + 1 - len(failures)} of {len(CASES) + 1} cases as expected")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
