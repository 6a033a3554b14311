#include "lookup/lookupoptions.h"

#include <hiera/error.h>

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace hiera::detail {

namespace {

// Compiled patterns, shared by every table: a fleet has many lookup_options tables (one per distinct
// set of files) but few distinct patterns, and compiling a pattern costs far more than matching.
std::shared_ptr<const RubyRegex> compiledPattern(const std::string& source)
{
    static std::mutex mutex;
    static std::unordered_map<std::string, std::shared_ptr<const RubyRegex>> cache;
    {
        std::lock_guard lock(mutex);
        if (auto it = cache.find(source); it != cache.end())
            return it->second;
    }
    auto regex = std::make_shared<const RubyRegex>(source); // throws std::invalid_argument
    std::lock_guard lock(mutex);
    if (cache.size() > 10000)
        cache.clear();
    cache.emplace(source, regex);
    return regex;
}

} // namespace

namespace {
std::string giveUpReason(RubyRegex::Outcome outcome, std::size_t keyBytes)
{
    switch (outcome) {
    case RubyRegex::Outcome::GaveUp:
        return "gave up matching a key of " + std::to_string(keyBytes) + " bytes (more backtracking than the limit of "
            + std::to_string(RubyRegex::retryLimitFor(keyBytes)) + " steps)";
    case RubyRegex::Outcome::BudgetSpent:
        return "was not matched: this lookup's patterns already took more than "
            + std::to_string(RubyRegex::kLookupBudget.count()) + " s of matching";
    default:
        return "cannot match a key that is not valid UTF-8";
    }
}
} // namespace

LookupOptionsTable::LookupOptionsTable(const Value& merged)
{
    if (merged.isNull())
        return;
    if (!merged.isHash())
        throw Error(ErrorCode::LookupOptions,
                    "value of lookup_options must be a hash, got " + std::string(merged.typeName()),
                    SourceFiles::locate(merged.mark()));
    m_merged = merged;
    for (const auto& e : merged.asHash()) {
        if (!e.key.isString() || e.key.asString().empty() || e.key.asString()[0] != '^')
            continue;
        std::string source = e.key.asString();
        try {
            m_patterns.push_back({source, compiledPattern(source), e.key.mark()});
        } catch (const std::invalid_argument& err) {
            throw Error(ErrorCode::LookupOptions,
                        "invalid regular expression in lookup_options: /" + source + "/ (" + err.what() + ")",
                        SourceFiles::locate(e.key.mark()));
        }
    }
}

std::shared_ptr<const LookupOptionsEntry> LookupOptionsTable::select(const std::string& rootKey) const
{
    if (!m_merged.isHash())
        return nullptr;
    {
        std::shared_lock lock(m_memoMutex);
        if (auto it = m_memo.find(rootKey); it != m_memo.end())
            return it->second;
    }
    std::shared_ptr<const LookupOptionsEntry> entry = selectUncached(rootKey); // errors are not remembered
    std::unique_lock lock(m_memoMutex);
    if (m_memo.size() > 100000)
        m_memo.clear();
    m_memo.emplace(rootKey, entry);
    return entry;
}

std::shared_ptr<const LookupOptionsEntry> LookupOptionsTable::selectUncached(const std::string& rootKey) const
{
    const Value* found = m_merged.asHash().find(std::string_view(rootKey));
    std::string name = rootKey;
    if (!found) {
        for (const Pattern& p : m_patterns) {
            const RubyRegex::Outcome outcome = p.regex->search(rootKey);
            if (outcome == RubyRegex::Outcome::Match) {
                found = m_merged.asHash().find(std::string_view(p.source));
                name = p.source;
                break;
            }
            if (outcome != RubyRegex::Outcome::NoMatch)
                throw Error(ErrorCode::LookupOptions,
                            "lookup_options pattern /" + p.source + "/ " + giveUpReason(outcome, rootKey.size()),
                            SourceFiles::locate(p.mark));
        }
    }
    if (!found || found->isNull())
        return nullptr;
    if (!found->isHash())
        throw Error(ErrorCode::LookupOptions,
                    "lookup_options entry for '" + name + "' must be a hash (e.g. {merge: deep}), got "
                        + std::string(found->typeName()),
                    SourceFiles::locate(found->mark()));
    auto result = std::make_shared<LookupOptionsEntry>();
    LookupOptionsEntry& entry = *result;
    entry.name = name;
    entry.value = *found;
    const Hash& h = found->asHash();
    if (const Value* m = h.find("merge")) {
        try {
            entry.merge = MergeSpec::fromValue(*m);
        } catch (const Error& e) {
            throw Error(e.code(), e.message() + " (lookup_options entry '" + name + "')",
                        SourceFiles::locate(m->mark()));
        }
    }
    if (const Value* c = h.find("convert_to"))
        entry.convertTo = *c;
    return result;
}

} // namespace hiera::detail
