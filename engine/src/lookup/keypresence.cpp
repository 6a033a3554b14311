#include "lookup/keypresence.h"

#include <algorithm>

namespace hiera::detail {

KeyPresence::KeyPresence(const NodeSnapshot& snapshot)
{
    std::vector<const DataFile*> files;
    std::unordered_map<const DataFile*, std::uint64_t> fileLevels; // the levels each file is read by
    std::size_t entries = 0;
    int bit = 0;
    for (const LayerState& layer : snapshot.layers)
        for (const auto* levels : {&layer.levels, &layer.defaultLevels}) {
            m_firstBits.emplace_back(levels, bit);
            for (const LevelState& level : *levels) {
                const std::uint64_t mask = bit < 64 ? std::uint64_t(1) << bit : 0;
                ++bit;
                bool quiet = !level.error && level.provider && !level.provider->unrunnable()
                    && level.provider->answersFromDataHash();
                for (const ResolvedFile& rf : level.files) {
                    const DataFile* file = rf.file.get();
                    quiet = quiet && file && (!file->exists || (!file->error && file->warnings.empty()));
                    if (file && file->exists && !file->error && file->data.isHash()) {
                        if (std::find(files.begin(), files.end(), file) == files.end()) {
                            files.push_back(file);
                            entries += file->data.asHash().size();
                        }
                        fileLevels[file] |= mask;
                    }
                }
                if (quiet)
                    m_quietLevels |= mask;
            }
        }
    std::size_t capacity = 16;
    while (capacity < entries * 2)
        capacity <<= 1;
    m_slots.assign(capacity, 0);
    m_keys.reserve(entries);
    const std::size_t mask = capacity - 1;
    for (const DataFile* file : files) {
        const std::uint64_t levels = fileLevels[file];
        for (const auto& e : file->data.asHash()) {
            if (!e.key.isString())
                continue;
            const Hash::PreparedKey key(e.key.asString());
            std::size_t i = key.hash() & mask;
            for (; m_slots[i] != 0; i = (i + 1) & mask) {
                const Keyed& k = m_keys[m_slots[i] - 1];
                if (k.hash == key.hash() && k.key == key.text())
                    break;
            }
            if (m_slots[i] == 0) {
                m_keys.push_back({key.text(), key.hash(), {}});
                m_slots[i] = static_cast<std::uint32_t>(m_keys.size());
            }
            Holders& h = m_keys[m_slots[i] - 1].holders;
            h.levels |= levels;
            if (h.count < Holders::kMax)
                h.files[h.count++] = file;
            else
                h.all = true;
        }
    }
}

int KeyPresence::firstLevelBit(const std::vector<LevelState>& levels) const
{
    for (const auto& [v, bit] : m_firstBits)
        if (v == &levels)
            return bit;
    return -1;
}

const KeyPresence::Holders& KeyPresence::filesWith(const Hash::PreparedKey& root) const
{
    static const Holders kNone;
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t i = root.hash() & mask; m_slots[i] != 0; i = (i + 1) & mask) {
        const Keyed& k = m_keys[m_slots[i] - 1];
        if (k.hash == root.hash() && k.key == root.text())
            return k.holders;
    }
    return kNone;
}

} // namespace hiera::detail
