#pragma once

// hiera::LookupKey — a lookup key split into its root key and dig segments (docs/seed-rules.md §1, with Puppet's
// quoted segments: `"a.b".c` addresses the root key `a.b`, then `c`).
//
// Rules (docs/engine-semantics.md):
// - a key with none of `.`, `'`, `"` is one segment, verbatim (`ntp::servers`, `" k"`, `""`);
// - otherwise SEG ('.' SEG)*, each SEG optional blanks + "quoted" | 'quoted' | a run of other
//   characters + optional blanks; quotes are removed, outer blanks trimmed;
// - an empty segment, a leading or trailing dot, empty quotes, a stray quote: KeySyntax error;
// - the root is always a string; an unquoted segment of decimal digits is an index (it indexes arrays
//   and matches integer hash keys); any other segment is a string.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hiera {

class Value;

struct KeySegment
{
    std::string text;
    bool quoted = false;
    // Set for an unquoted segment of the shape [+-]?[0-9]+ (seed: 0-based decimal index; Puppet: also
    // a YAML integer key, -1 included). The text still matches a string key first (seed).
    std::optional<long long> index;
};

class LookupKey
{
public:
    // Throws hiera::Error(KeySyntax) with "Syntax error in key: '<key>'".
    static LookupKey parse(std::string_view key);
    // Like parse, but returns nullopt instead of throwing.
    static std::optional<LookupKey> tryParse(std::string_view key);
    // True when `key` has none of . ' " and so is one verbatim segment (cheap: one pass, no parse).
    static bool isSingleSegment(std::string_view key);
    // The key that looks up the root key `root` itself: `root` as it is, or quoted when it holds a dot or
    // a quote ("a.b" names the root key a.b, not b under a).
    static std::string forRoot(std::string_view root);

    const std::string& original() const { return m_original.empty() ? m_root : m_original; }
    const std::string& root() const { return m_root; }
    const std::vector<KeySegment>& segments() const { return m_segments; }
    bool isDotted() const { return !m_segments.empty(); }
    // The dig part as written after the root, e.g. "servers.0" (for explain texts).
    std::string subKey() const;

private:
    std::string m_original; // empty when the key is its root, verbatim
    std::string m_root;
    std::vector<KeySegment> m_segments;
};

// The one dig walk (docs/seed-rules.md §1) used by lookups, Scope references and mapped_paths loop variables:
// into a hash by key (an index segment also matches an integer key), into an array by index. Any miss
// (absent key, out-of-range or non-numeric index, a scalar or null in the way) returns nullptr.
const Value* dig(const Value& root, const std::vector<KeySegment>& segments);

} // namespace hiera
