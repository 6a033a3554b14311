// lookup_options patterns: Ruby regular expressions on Oniguruma (engine/src/lookup/rubyregex.cpp). The input's
// first line is the pattern, the rest the key it is matched against (as a lookup matches a root key).
// A pattern either compiles or is refused with a message; a search ends, within the retry and stack
// limits, in one of the four outcomes, whatever the pattern and however long the key (std::regex
// overflowed the stack on a long key and hung on `^(a+)+$`). Run it with -max_len large too.

#include "fuzz_common.h"
#include "lookup/rubyregex.h" // engine/src, through hiera::engine_internals

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const std::size_t newline = text.find('\n');
    const std::string pattern(text.substr(0, newline));
    const std::string_view key = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
    try {
        const hiera::detail::RubyRegex regex(pattern);
        using Outcome = hiera::detail::RubyRegex::Outcome;
        const Outcome outcome = regex.search(key);
        if (outcome != Outcome::Match && outcome != Outcome::NoMatch && outcome != Outcome::GaveUp
            && outcome != Outcome::InvalidSubject && outcome != Outcome::BudgetSpent)
            fuzz::violated("an unknown outcome");
        // The empty key and the pattern itself as a key: the first characters a lookup key brings.
        (void)regex.search({});
        (void)regex.search(pattern);
    } catch (const std::invalid_argument& e) {
        if (std::string_view(e.what()).empty())
            fuzz::violated("a pattern refused without a message", pattern);
    }
    return 0;
}
