#pragma once

// The one walk of a node's top scope (hiera/nodescope.h lists its order), over facts held either as a
// decoded Value (NodeScope) or in a node library's compact store (nodes/factsscope.h). `Facts` gives:
//
//   using Handle;                                         a position in the facts
//   Handle whole() const;                                 the facts hash
//   std::optional<Handle> find(Handle, std::string_view)  a hash's entry
//   std::optional<Handle> dig(Handle, segments)           Hiera's dig walk (hiera::dig)
//   bool isHash(Handle) const;
//   Value value(Handle) const;                            decoded (only the value found is)
//
// Public so that a host holding facts in a form of its own (the node library's store is one) walks
// the top scope exactly as NodeScope does.
// A template rather than an interface: the fleet runs this once a level a node, twenty thousand nodes
// at a time, and the store's walk must stay inlined.

#include <hiera/lookupkey.h>
#include <hiera/value.h>

#include <cctype>
#include <optional>
#include <string>
#include <string_view>

namespace hiera::detail {

// A dotted reference of plain segments (facts.os.family, trusted.certname): what every hierarchy path
// of a fleet interpolates. Such a reference needs no LookupKey (parsing one costs more than the walk):
// no quotes or blanks, so segments are verbatim, and no numeric segment ([+-]?[0-9]+) after the first,
// so each step is a string key of a hash. Anything else returns false and takes the general path.
inline bool isPlainDotted(std::string_view ref)
{
    bool first = true, digitsOnly = true, signed_ = false;
    std::size_t length = 0;
    auto numeric = [&] { return digitsOnly && length > (signed_ ? 1u : 0u); };
    for (const char c : ref) {
        if (c == '.') {
            if (length == 0 || (numeric() && !first))
                return false;
            first = false;
            digitsOnly = true;
            signed_ = false;
            length = 0;
            continue;
        }
        if (c == '\'' || c == '"' || std::isspace(static_cast<unsigned char>(c)))
            return false;
        if (length == 0 && (c == '-' || c == '+'))
            signed_ = true;
        else
            digitsOnly = digitsOnly && c >= '0' && c <= '9';
        ++length;
    }
    return length != 0 && !numeric() && !first;
}

// Splits a plain dotted reference's segments, in order.
class PlainSegments
{
public:
    explicit PlainSegments(std::string_view rest) : m_rest(rest) { }
    bool next(std::string_view& segment)
    {
        if (m_done)
            return false;
        const std::size_t dot = m_rest.find('.');
        segment = m_rest.substr(0, dot);
        if (dot == std::string_view::npos)
            m_done = true;
        else
            m_rest.remove_prefix(dot + 1);
        return true;
    }

private:
    std::string_view m_rest;
    bool m_done = false;
};

// Puppet's trusted hash for a certname it did not verify: {authenticated: local, certname, extensions:
// {}, hostname, domain, external: {}}, hostname and domain split at the first dot (domain null when
// there is none), every value marked with `mark`.
inline Value localTrusted(const std::string& certname, SourceMark mark = {})
{
    const std::size_t dot = certname.find('.');
    Hash t;
    t.set("authenticated", Value("local").withMark(mark));
    t.set("certname", Value(certname).withMark(mark));
    t.set("extensions", Value(Hash()).withMark(mark));
    t.set("hostname", Value(certname.substr(0, dot)).withMark(mark));
    t.set("domain", (dot == std::string::npos ? Value() : Value(certname.substr(dot + 1))).withMark(mark));
    t.set("external", Value(Hash()).withMark(mark));
    return Value(std::move(t)).withMark(mark);
}

template <typename Facts>
class TopScopeWalk
{
public:
    using Handle = typename Facts::Handle;

    // `variables`: a Hash or null; `certname` empty: no trusted overlay; `environment` null: no
    // $environment; `mark`: what the trusted overlay's values are marked with.
    TopScopeWalk(const Facts& facts, const Value& variables, const std::string& certname, const Value& environment,
                 SourceMark mark)
        : m_facts(facts)
        , m_variables(variables)
        , m_certname(certname)
        , m_environment(environment)
        , m_mark(mark)
    {
    }

    std::optional<Value> lookup(std::string_view ref) const
    {
        // MapScope::lookup's walk (core/scope.cpp) over what root() answers.
        if (ref.substr(0, 2) == "::")
            ref.remove_prefix(2);
        if (ref.empty())
            return std::nullopt;
        if (LookupKey::isSingleSegment(ref)) {
            const Root r = root(ref);
            if (r.value)
                return *r.value;
            if (r.trusted)
                return trusted();
            return decoded(r.handle);
        }
        if (isPlainDotted(ref))
            return plainDotted(ref);
        auto key = LookupKey::tryParse(ref);
        if (!key)
            return std::nullopt;
        const Root r = root(key->root());
        const std::vector<KeySegment>& segments = key->segments();
        if (r.value) {
            if (const Value* v = dig(*r.value, segments))
                return *v;
            return std::nullopt;
        }
        if (r.trusted) {
            if (segments.empty())
                return trusted();
            if (segments.front().text == "certname") {
                if (segments.size() == 1)
                    return certname();
                return std::nullopt; // a string in the way
            }
            if (const std::optional<Handle> stored = trustedHash())
                return decoded(m_facts.dig(*stored, segments));
            const Value local = trusted();
            if (const Value* v = dig(local, segments))
                return *v;
            return std::nullopt;
        }
        return decoded(r.handle ? m_facts.dig(*r.handle, segments) : std::nullopt);
    }

private:
    // Where a top-scope name is answered from: a variable (or $environment), the trusted overlay, or
    // a place in the facts.
    struct Root
    {
        const Value* value = nullptr;
        bool trusted = false;
        std::optional<Handle> handle;
    };

    Root root(std::string_view name) const
    {
        if (m_variables.isHash())
            if (const Value* v = m_variables.asHash().find(name))
                return {v, false, std::nullopt};
        // $environment is the environment's name, never a fact of that name (Puppet refuses to set
        // the node parameter from it); the fact stays facts.environment.
        if (name == "environment" && !m_environment.isNull())
            return {&m_environment, false, std::nullopt};
        if (name == "trusted" && !m_certname.empty())
            return {nullptr, true, std::nullopt};
        if (name == "facts")
            return {nullptr, false, m_facts.whole()};
        return {nullptr, false, m_facts.find(m_facts.whole(), name)};
    }

    std::optional<Value> plainDotted(std::string_view ref) const
    {
        const std::size_t dot = ref.find('.');
        PlainSegments segments(ref.substr(dot + 1));
        std::string_view segment;
        const Root r = root(ref.substr(0, dot));
        if (r.value) {
            const Value* v = r.value;
            while (v && segments.next(segment))
                v = v->isHash() ? v->asHash().find(segment) : nullptr; // as dig: a scalar is not found
            return v ? std::optional<Value>(*v) : std::nullopt;
        }
        std::optional<Handle> h = r.handle;
        if (r.trusted) {
            segments.next(segment);
            if (segment == "certname")
                return segments.next(segment) ? std::nullopt : std::optional<Value>(certname());
            h = trustedHash();
            if (!h) {
                const Value local = trusted();
                const Value* v = local.asHash().find(segment);
                while (v && segments.next(segment))
                    v = v->isHash() ? v->asHash().find(segment) : nullptr;
                return v ? std::optional<Value>(*v) : std::nullopt;
            }
            h = m_facts.find(*h, segment);
        }
        while (h && segments.next(segment))
            h = m_facts.find(*h, segment);
        return decoded(h);
    }

    // The facts' own trusted hash, which the overlay completes (a trusted fact that is not a hash is
    // replaced by the overlay).
    std::optional<Handle> trustedHash() const
    {
        std::optional<Handle> t = m_facts.find(m_facts.whole(), "trusted");
        return t && m_facts.isHash(*t) ? t : std::nullopt;
    }

    Value certname() const { return Value(m_certname).withMark(m_mark); }

    // The facts' own trusted hash with the certname set; without one, the hash Puppet builds for a
    // node it did not authenticate (puppet lookup, puppet apply: TrustedInformation.local), whose
    // hostname and domain are the certname split at its first dot (docs/hiera-reference.md §3.2a).
    Value trusted() const
    {
        if (const std::optional<Handle> stored = trustedHash()) {
            Value t = m_facts.value(*stored);
            t.mutableHash().set("certname", certname());
            t.setMark(m_mark);
            return t;
        }
        return localTrusted(m_certname, m_mark);
    }

    std::optional<Value> decoded(std::optional<Handle> h) const
    {
        if (!h)
            return std::nullopt;
        return m_facts.value(*h);
    }

    const Facts& m_facts;
    const Value& m_variables;
    const std::string& m_certname;
    const Value& m_environment;
    SourceMark m_mark;
};

} // namespace hiera::detail
