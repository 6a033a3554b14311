#pragma once

// The merged `lookup_options` hash and the choice of entry for a root key (docs/hiera-reference.md §4.2): the exact
// key wins; otherwise the first `^pattern` entry, in merged order (lowest level first), that matches
// somewhere in the key.

#include <hiera/merge.h>
#include <hiera/value.h>

#include "lookup/rubyregex.h"

#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace hiera::detail {

struct LookupOptionsEntry
{
    std::string name; // the entry's key (an exact key or a ^pattern)
    Value value; // the entry (a Hash)
    std::optional<MergeSpec> merge;
    std::optional<Value> convertTo; // applied by convertTo() (convertto.h)
};

class LookupOptionsTable
{
public:
    LookupOptionsTable() = default;
    // `merged` is the hash-merged lookup_options (or null). Throws hiera::Error(LookupOptions) for a
    // non-hash value or an invalid regular expression.
    explicit LookupOptionsTable(const Value& merged);

    // The entry for `rootKey`, or nullopt. Throws for a malformed entry (non-hash, bad merge).
    // Selections are remembered per key (regex matching costs more than the rest of a warm lookup).
    std::shared_ptr<const LookupOptionsEntry> select(const std::string& rootKey) const;
    const Value& merged() const { return m_merged; }

private:
    Value m_merged;
    struct Pattern
    {
        std::string source;
        std::shared_ptr<const RubyRegex> regex;
        SourceMark mark; // the pattern key's place, for errors
    };
    std::vector<Pattern> m_patterns;
    std::shared_ptr<const LookupOptionsEntry> selectUncached(const std::string& rootKey) const;
    mutable std::shared_mutex m_memoMutex;
    mutable std::unordered_map<std::string, std::shared_ptr<const LookupOptionsEntry>> m_memo;
};

} // namespace hiera::detail
