#pragma once

#include "lookup/nodesnapshot.h"

#include <hiera/value.h>

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace hiera::detail {

// Which of a snapshot's data files hold which root keys (string keys of their top-level hashes), for
// hosts that look up every key of a node: a lookup given one does not ask a data_hash level's
// provider about a file that lacks the root key, with the same answer (that file has nothing for it)
// at a fraction of the cost (a node of a large control repository: 17,000 keys, 37 files, most of
// them asked about a key they lack). A level none of whose files holds the key, and that would
// report nothing else (no error, no warning), is passed over whole: most keys are in one or two of a
// node's levels, and walking the others' files was a fifth of the all-keys view's instructions. Only for
// lookups without a trace.
class KeyPresence
{
public:
    // The files that hold a key. A key held by more than kMax files is not filtered (all == true):
    // skipping is only a shortcut, and a fixed size keeps the index to one allocation per key.
    struct Holders
    {
        static constexpr std::size_t kMax = 4;
        const DataFile* files[kMax] = {};
        std::uint8_t count = 0;
        bool all = false;
        // The levels (bits, see KeyPresence::skips) with a file that holds the key, however many files hold it.
        std::uint64_t levels = 0;

        bool holds(const DataFile* f) const
        {
            if (all)
                return true;
            for (std::uint8_t i = 0; i < count; ++i)
                if (files[i] == f)
                    return true;
            return false;
        }
    };

    explicit KeyPresence(const NodeSnapshot& snapshot);
    // The files holding `root` (none: an empty Holders).
    const Holders& filesWith(const Hash::PreparedKey& root) const;

    // The bit of the first level of `levels` (a LayerState's levels or defaultLevels); level lv of it
    // has bit first + lv. Levels past the 64th have none (-1 or beyond 63: never skipped).
    int firstLevelBit(const std::vector<LevelState>& levels) const;
    // Whether the level at `bit` can be passed over whole for a key held as `h`: none of its files holds
    // the key, and the level would say nothing else either (no error, runnable, a data_hash, no file
    // with an error or a warning). The lookup's answer, warnings and errors are the same without it.
    bool skips(const Holders& h, int bit) const
    {
        return bit >= 0 && bit < 64 && ((m_quietLevels >> bit) & 1) != 0 && ((h.levels >> bit) & 1) == 0;
    }

private:
    // An open-addressing table over the distinct keys (one per key, not a node each): the all-keys view
    // asks it once for every key and sub-lookup, and a node-based map's pointer chasing was a seventh
    // of that view's time.
    struct Keyed
    {
        std::string_view key; // a view into the file's key
        std::size_t hash; // Hash::PreparedKey's
        Holders holders;
    };
    std::vector<Keyed> m_keys;
    std::vector<std::uint32_t> m_slots; // index into m_keys + 1; 0 = empty; at most half full
    std::vector<std::pair<const std::vector<LevelState>*, int>> m_firstBits;
    std::uint64_t m_quietLevels = 0;
};

} // namespace hiera::detail
