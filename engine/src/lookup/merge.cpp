#include "lookup/deepmerge.h"
#include "lookup/puppettype.h"
#include "lookup/valuehash.h"

#include <hiera/error.h>
#include <hiera/merge.h>
#include <hiera/valueformat.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <utility>

namespace hiera {

namespace {

[[noreturn]] void typeError(bool first, const std::string& expected, const Value& got)
{
    throw Error(ErrorCode::MergeType,
                std::string("The ") + (first ? "first" : "second") + " element of the merge has wrong type, expects "
                    + expected + ", got " + detail::puppetTypeName(got, detail::CollectionNames::TupleStruct),
                SourceFiles::locate(got.mark()));
}

// ---- unique -----------------------------------------------------------------------------------------

void flattenInto(Array& out, const Value& v)
{
    if (v.isArray())
        for (const auto& e : v.asArray())
            flattenInto(out, e);
    else
        out.push_back(v);
}

// Appends the elements of `from` that are not in `out` yet, in order. Membership is a hash probe
// (valuehash.h), not a search of `out` per element: that made a unique merge of two 50,000-element
// arrays take 67 s, where Puppet's (Ruby's uniq) is linear.
void appendUnique(Array& out, const Array& from)
{
    auto present = detail::valueMembership(out);
    for (const Value& v : from)
        if (!present.contains(v))
            out.push_back(v);
}

// Puppet's Data: scalars, undef, arrays of Data, hashes with string keys and Data values. Returns the
// path to the first value that is not Data ("index 0 entry 'x'"), or nullopt.
std::optional<std::string> notDataAt(const Value& v)
{
    if (v.isArray()) {
        for (std::size_t i = 0; i < v.asArray().size(); ++i)
            if (auto at = notDataAt(v.asArray()[i]))
                return " index " + std::to_string(i) + *at;
    } else if (v.isHash()) {
        for (const auto& e : v.asHash()) {
            if (!e.key.isString())
                return std::string();
            if (auto at = notDataAt(e.value))
                return " entry '" + e.key.asString() + "'" + *at;
        }
    }
    return std::nullopt;
}

// Puppet checks each side of a unique merge against Variant[Scalar, Array[Data]]; its message has one
// line per variant, joined here with "; ".
void checkUniqueData(bool first, const Value& v)
{
    if (!v.isArray())
        return;
    const auto at = notDataAt(v);
    if (!at)
        return;
    const std::string which =
        std::string("The ") + (first ? "first" : "second") + " element of the merge has wrong type, ";
    throw Error(ErrorCode::MergeType,
                which + "variant 0 expects a Scalar value, got Tuple; " + which + "variant 1" + *at
                    + " expects a Data value, got Hash",
                SourceFiles::locate(v.mark()));
}

// Both sides must be Variant[Scalar, Array[Data]]: hashes inside arrays are fine (lists of user or rule
// hashes) when they are Data, i.e. have string keys all the way down. `higher` null: not checked (a
// fold's accumulated array, made of values that passed already).
void checkUniqueStep(const Value* higher, const Value& lower)
{
    if (lower.isNull() || lower.isHash())
        typeError(false, "a value of type Scalar or Array", lower);
    if (higher)
        checkUniqueData(true, *higher);
    checkUniqueData(false, lower);
}
void checkUniqueStep(const Value& higher, const Value& lower)
{
    checkUniqueStep(&higher, lower);
}

Value uniqueOf(const Value& v)
{
    Array flat;
    flattenInto(flat, v);
    Array out;
    out.reserve(flat.size());
    appendUnique(out, flat);
    return Value(std::move(out));
}

// ---- hash ------------------------------------------------------------------------------------------

void checkHashForHashMerge(const Value& v, bool first)
{
    if (!v.isHash())
        typeError(first, "a Hash value", v);
    for (const auto& e : v.asHash())
        if (!e.key.isString())
            typeError(first, "a Hash[String, Data] value", v);
}

Value hashMerge(const Value& higher, const Value& lower)
{
    checkHashForHashMerge(higher, true);
    checkHashForHashMerge(lower, false);
    // Lower's keys in lower's order (with the higher value where shared), then keys only in higher.
    Hash out;
    out.reserve(higher.asHash().size() + lower.asHash().size());
    const Hash& h = higher.asHash();
    for (const auto& e : lower.asHash()) {
        const Value* hv = h.find(e.key);
        out.set(e.key, hv ? *hv : e.value);
    }
    for (const auto& e : h)
        if (!out.find(e.key))
            out.set(e.key, e.value);
    Value r(std::move(out));
    r.setMark(higher.mark());
    return r;
}

// The fold of hash merges over `found` (priority order) at once: each step puts the lower hash's keys
// first, so the answer has the lowest hash's keys, then each higher one's new keys; a key keeps the
// value of the highest hash holding it and is written as the lowest writes it (Hash::set keeps the
// first key and position and replaces the value). The mark is the first value's, as each step keeps the
// higher one's.
Value hashMergeAll(const std::vector<Value>& found)
{
    Hash out;
    for (auto v = found.rbegin(); v != found.rend(); ++v)
        for (const auto& e : v->asHash())
            out.set(e.key, e.value);
    Value r(std::move(out));
    r.setMark(found.front().mark());
    return r;
}

} // namespace

Value normalizeFirst(const MergeSpec& spec, const Value& first)
{
    if (spec.strategy == MergeStrategy::Unique)
        return uniqueOf(first);
    return first;
}

Value mergeStep(const MergeSpec& spec, const Value& higher, const Value& lower)
{
    switch (spec.strategy) {
    case MergeStrategy::First:
        return higher;
    case MergeStrategy::Unique: {
        checkUniqueStep(higher, lower);
        Array out = higher.isArray() ? higher.asArray() : uniqueOf(higher).asArray();
        Array flat;
        flattenInto(flat, lower);
        appendUnique(out, flat);
        Value r(std::move(out));
        r.setMark(higher.mark());
        return r;
    }
    case MergeStrategy::Hash:
        return hashMerge(higher, lower);
    case MergeStrategy::Deep:
        // Without a knockout_prefix nothing depends on Ruby's object identity: the cheap merger on plain
        // values (deepmerge.cpp) gives the gem's result; with one, the gem's port (deepmergegem.cpp).
        if (!spec.knockoutPrefix)
            return detail::deepMergeValues(spec, higher, lower);
        return detail::deepMergeGem(spec, higher, lower);
    }
    return higher;
}

// ---- the fold ---------------------------------------------------------------------------------------

struct MergeFold::State
{
    explicit State(const MergeSpec& s)
        : spec(s)
        , allAtOnce(s.strategy == MergeStrategy::Hash
                    || (s.strategy == MergeStrategy::Deep && detail::deepMergeAllApplies(s)))
    {
    }

    MergeSpec spec;
    bool allAtOnce; // hash, and deep where deepMergeAll applies: the values are kept, merged when asked
    std::size_t count = 0;
    Value first;
    std::vector<Value> found; // allAtOnce
    Array unique; // unique from the second value on: the flat accumulated array
    std::optional<decltype(detail::valueMembership(std::declval<const Array&>()))> uniqueIndex;
    Value stepped; // any other strategy from the second value on: the fold so far
    mutable std::optional<Value> merged; // value(), made when asked after the first value
};

MergeFold::MergeFold(const MergeSpec& spec) : m_state(std::make_unique<State>(spec))
{
}
MergeFold::~MergeFold() = default;
MergeFold::MergeFold(MergeFold&&) noexcept = default;
MergeFold& MergeFold::operator=(MergeFold&&) noexcept = default;

std::size_t MergeFold::count() const
{
    return m_state->count;
}

void MergeFold::add(Value lower)
{
    State& s = *m_state;
    s.merged.reset();
    if (s.count++ == 0) {
        s.first = lower;
        if (s.allAtOnce)
            s.found.push_back(std::move(lower));
        return;
    }
    switch (s.spec.strategy) {
    case MergeStrategy::First:
        return;
    case MergeStrategy::Unique: {
        if (s.count == 2) {
            checkUniqueStep(uniqueOf(s.first), lower); // as mergeStep checks the normalised first value
            s.unique = uniqueOf(s.first).asArray();
            s.uniqueIndex.emplace(detail::valueMembership(s.unique));
        } else {
            checkUniqueStep(nullptr, lower);
        }
        Array flat;
        flattenInto(flat, lower);
        for (const Value& v : flat)
            if (!s.uniqueIndex->contains(v))
                s.unique.push_back(v);
        return;
    }
    case MergeStrategy::Hash:
        if (s.count == 2)
            checkHashForHashMerge(s.first, true);
        checkHashForHashMerge(lower, false);
        s.found.push_back(std::move(lower));
        return;
    case MergeStrategy::Deep:
        if (s.allAtOnce) {
            s.found.push_back(std::move(lower));
            return;
        }
        s.stepped = mergeStep(s.spec, s.count == 2 ? s.first : s.stepped, lower);
        return;
    }
}

const Value& MergeFold::value() const
{
    const State& s = *m_state;
    if (s.count <= 1 || s.spec.strategy == MergeStrategy::First)
        return s.first;
    if (!s.merged) {
        switch (s.spec.strategy) {
        case MergeStrategy::Unique:
            s.merged = Value(s.unique); // no mark: the normalised first value has none
            break;
        case MergeStrategy::Hash:
            s.merged = hashMergeAll(s.found);
            break;
        default:
            s.merged = s.allAtOnce ? detail::deepMergeAll(s.spec, s.found) : s.stepped;
            break;
        }
    }
    return *s.merged;
}

Value MergeFold::result() const
{
    if (m_state->count == 1 && m_state->spec.strategy == MergeStrategy::Unique)
        return normalizeFirst(m_state->spec, m_state->first);
    return value();
}

} // namespace hiera
