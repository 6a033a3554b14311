#pragma once

// Ruby regular expressions, for lookup_options' `^pattern` keys. Puppet matches them with Ruby's
// Regexp (Onigmo), so we use Oniguruma, Onigmo's ancestor, with its Ruby syntax: `\A`, `\z`, `\h`,
// `(?i:…)`, named groups and Ruby's line anchors work as in Puppet, which std::regex (ECMAScript)
// could not do. Oniguruma also keeps its backtracking stack on the heap (std::regex recursed once per
// subject character and overflowed the thread's stack on a long key) and lets us bound the work of a
// match, so a pathological pattern such as `^(a+)+$` gives up with an error instead of hanging.

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

    enum class Outcome { Match, NoMatch, GaveUp, InvalidSubject };
    // Ruby's `subject =~ regex`: a match anywhere in `subject`. GaveUp when the match needed more
    // backtracking (or stack) than the limits below allow; InvalidSubject when `subject` is not UTF-8.
    // Thread-safe: a compiled pattern is shared by every lookup of every node.
    Outcome search(std::string_view subject) const;

    // Backtracking steps one search may take, all start positions together. A sane lookup_options
    // pattern needs a few per character of the key; this stops `^(a+)+$` on a 30-character key.
    static constexpr unsigned long kRetryLimit = 1'000'000;
    // Entries of the heap-allocated backtracking stack one search may use.
    static constexpr unsigned int kStackLimit = 1'000'000;

private:
    struct Compiled;
    std::unique_ptr<Compiled> m_compiled;
};

} // namespace hiera::detail
