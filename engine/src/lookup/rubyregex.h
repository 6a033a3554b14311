#pragma once

// Ruby regular expressions, for lookup_options' `^pattern` keys. Puppet matches them with Ruby's
// Regexp (Onigmo), so we use Oniguruma, Onigmo's ancestor, with its Ruby syntax: `\A`, `\z`, `\h`,
// `(?i:…)`, named groups and Ruby's line anchors work as in Puppet, which std::regex (ECMAScript)
// could not do. Oniguruma also keeps its backtracking stack on the heap (std::regex recursed once per
// subject character and overflowed the thread's stack on a long key) and lets us bound the work of a
// match, so a pathological pattern such as `^(a+)+$` gives up with an error instead of hanging.

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

namespace hiera::detail {

class RubyRegex
{
public:
    // Compiles `pattern`. Throws std::invalid_argument with Oniguruma's message when it does not compile.
    explicit RubyRegex(const std::string& pattern);
    ~RubyRegex();
    RubyRegex(const RubyRegex&) = delete;
    RubyRegex& operator=(const RubyRegex&) = delete;

    enum class Outcome { Match, NoMatch, GaveUp, InvalidSubject, BudgetSpent };
    // Ruby's `subject =~ regex`: a match anywhere in `subject`. GaveUp when the match needed more
    // backtracking (or stack) than the limits below allow; InvalidSubject when `subject` is not UTF-8.
    // Thread-safe: a compiled pattern is shared by every lookup of every node.
    Outcome search(std::string_view subject) const;

    // Backtracking steps one search may take, all start positions together: a base, plus a few per
    // byte of the key, since a sane pattern (`^profile::(x|y)*$`) needs steps in proportion to the key.
    // `^(a+)+$` on `aaa…ab` needs 2^n steps and gives up after about a millisecond; a lookup that makes
    // many such searches (thousands of patterns, or thousands of keys) still adds them up.
    static constexpr unsigned long kRetryBase = 100'000;
    static constexpr unsigned long kRetryPerByte = 16;
    static unsigned long retryLimitFor(std::size_t keyBytes) { return kRetryBase + kRetryPerByte * keyBytes; }
    // Entries of the heap-allocated backtracking stack one search may use, likewise.
    static constexpr unsigned int kStackBase = 1'000'000;

    // The matching time one lookup may spend, all its searches together (BudgetSpent after that). Each
    // search is bounded by the step limits above, but a lookup can make thousands of them (thousands of
    // patterns, or thousands of keys through %{lookup()}) each just under the limit. A time budget,
    // since Oniguruma does not say how many steps a search took. Installed by a top-level lookup on
    // its thread (nested lookups share it); without one, searches are not limited in total.
    class LookupBudget
    {
    public:
        explicit LookupBudget(std::chrono::nanoseconds budget);
        ~LookupBudget();
        LookupBudget(const LookupBudget&) = delete;
        LookupBudget& operator=(const LookupBudget&) = delete;

    private:
        friend class RubyRegex;
        LookupBudget* m_outer;
        std::chrono::nanoseconds m_left;
    };
    static constexpr std::chrono::seconds kLookupBudget{2};

private:
    struct Compiled;
    std::unique_ptr<Compiled> m_compiled;
};

} // namespace hiera::detail
