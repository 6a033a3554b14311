#pragma once

// A fast reader for the plain block subset of YAML that hiera data files are almost always written in.
//
// yaml-cpp's scanner runs at about 9 MB/s a core (its regex matching is most of it), which makes
// parsing a control repository's data the slowest thing the engine does. Most data files use only
// block mappings and sequences of one-line scalars, so this reader handles exactly that subset and
// emits the events yaml-cpp's parser would emit for it, marks included, to the same handler. At the
// first thing outside the subset (anchors, tags, multi-line or escaped scalars, flow collections
// over several lines, tabs, a lone CR, anything malformed) it gives up, and the caller
// parses the file with yaml-cpp instead. So yaml-cpp stays the parser of record: every error message
// comes from it, and this reader can only ever be faster, never different. The fuzz target
// fuzz/fuzz_blockyaml.cpp and tests/engine/tst_blockyaml.cpp check that claim event by event.

#include <string_view>

namespace YAML {
class EventHandler;
}

namespace hiera::detail {

// Emits `text`'s first document to `handler` and returns true, or returns false (the handler may have
// seen some events by then: discard it) when the text is not within the subset.
bool parseBlockYaml(std::string_view text, YAML::EventHandler& handler);

} // namespace hiera::detail
