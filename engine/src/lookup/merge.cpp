#include <hiera/error.h>
#include <hiera/merge.h>
#include <hiera/valueformat.h>

#include <algorithm>
#include <functional>

namespace hiera {

const char* mergeStrategyName(MergeStrategy s)
{
    switch (s) {
    case MergeStrategy::First: return "first";
    case MergeStrategy::Unique: return "unique";
    case MergeStrategy::Hash: return "hash";
    case MergeStrategy::Deep: return "deep";
    }
    return "?";
}

std::optional<MergeStrategy> mergeStrategyFromName(std::string_view name)
{
    for (MergeStrategy s : kMergeStrategies)
        if (name == mergeStrategyName(s))
            return s;
    // Puppet also knows the hidden names default, reverse_deep and unconstrained_deep; we refuse them
    // (docs/engine-semantics.md).
    return std::nullopt;
}

namespace {

[[noreturn]] void optionsError(const std::string& message)
{
    throw Error(ErrorCode::MergeOptions, message);
}

MergeStrategy strategyFromName(const std::string& name)
{
    if (auto s = mergeStrategyFromName(name))
        return *s;
    optionsError("Unknown merge strategy: '" + name + "'");
}

// Puppet's type names for the values a merge refuses.
std::string puppetTypeName(const Value& v)
{
    switch (v.type()) {
    case Value::Type::Null: return "Undef";
    case Value::Type::Boolean: return "Boolean";
    case Value::Type::Integer: return "Integer";
    case Value::Type::Float: return "Float";
    case Value::Type::String: return "String";
    case Value::Type::Array: return "Tuple";
    case Value::Type::Hash: return "Struct";
    }
    return "?";
}

[[noreturn]] void typeError(bool first, const std::string& expected, const Value& got)
{
    throw Error(ErrorCode::MergeType, std::string("The ") + (first ? "first" : "second")
                                          + " element of the merge has wrong type, expects " + expected + ", got "
                                          + puppetTypeName(got),
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

void appendUnique(Array& out, const Value& v)
{
    if (std::find(out.begin(), out.end(), v) == out.end())
        out.push_back(v);
}

Value uniqueOf(const Value& v)
{
    Array flat;
    flattenInto(flat, v);
    Array out;
    out.reserve(flat.size());
    for (auto& e : flat)
        appendUnique(out, e);
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

// ---- deep (the deep_merge gem, as Puppet calls it) -----------------------------------------------------

bool truthy(const Value& v)
{
    return !v.isNull() && !(v.isBoolean() && !v.asBoolean());
}

class DeepMerger
{
public:
    explicit DeepMerger(const MergeSpec& spec) : m_spec(spec) { }

    // src has priority; dst is the lower value (a copy we may change).
    Value merge(const Value& src, Value dst)
    {
        if (src.isNull())
            return dst; // a higher null never overrides
        if (!truthy(dst))
            return src;
        if (src.isHash())
            return mergeHash(src, std::move(dst));
        if (src.isArray())
            return mergeArray(src, std::move(dst));
        return overwrite(src);
    }

private:
    bool hasPrefix(const Value& v) const
    {
        return m_spec.knockoutPrefix && v.isString() && v.asString().rfind(*m_spec.knockoutPrefix, 0) == 0;
    }

    Value mergeHash(const Value& src, Value dst)
    {
        const Hash& s = src.asHash();
        if (s.empty())
            return dst; // an empty hash never overrides anything
        bool first = true;
        if (!dst.isHash()) {
            // deep_merge overwrites dest with the source hash at its first entry, then merges the
            // remaining entries with themselves (their arrays get de-duplicated, knocked out, sorted).
            Value out = src;
            for (const auto& e : s) {
                if (first) {
                    first = false;
                    continue;
                }
                out.mutableHash().set(e.key, merge(e.value, e.value));
            }
            return out;
        }
        Hash& d = dst.mutableHash();
        for (const auto& e : s) {
            if (Value* existing = d.findMutable(e.key); existing && truthy(*existing))
                *existing = merge(e.value, *existing);
            else
                d.set(e.key, merge(e.value, e.value));
        }
        return dst;
    }

    Value mergeArray(const Value& srcValue, Value dst)
    {
        Array src = srcValue.asArray();
        const auto& K = m_spec.knockoutPrefix;
        if (K) {
            auto naked = std::find(src.begin(), src.end(), Value(*K));
            if (naked != src.end()) {
                src.erase(std::remove(src.begin(), src.end(), Value(*K)), src.end());
                dst = dst.isArray() ? Value(Array()) : Value();
            }
        }
        if (!dst.isArray()) {
            Value out(removeKnockedOut(std::move(src)));
            out.setMark(srcValue.mark());
            return out;
        }
        Array d = dst.asArray();
        if (K) {
            Array kept;
            for (auto& item : src) {
                if (hasPrefix(item)) {
                    const Value stripped(item.asString().substr(K->size()));
                    d.erase(std::remove(d.begin(), d.end(), stripped), d.end());
                    d.erase(std::remove(d.begin(), d.end(), item), d.end());
                } else {
                    kept.push_back(std::move(item));
                }
            }
            src = std::move(kept);
        }
        auto allHashes = [](const Array& a) {
            return std::all_of(a.begin(), a.end(), [](const Value& v) { return v.isHash(); });
        };
        Array out;
        if (m_spec.mergeHashArrays && allHashes(src) && allHashes(d)) {
            for (std::size_t i = 0; i < d.size(); ++i)
                out.push_back(merge(i < src.size() ? src[i] : Value(Hash()), d[i]));
            for (std::size_t i = d.size(); i < src.size(); ++i)
                out.push_back(src[i]);
        } else {
            // Ruby's dest | source: dest's elements first, then source's new ones, duplicates dropped.
            out.reserve(d.size() + src.size());
            for (auto& v : d)
                appendUnique(out, v);
            for (auto& v : src)
                appendUnique(out, v);
        }
        if (m_spec.sortMergedArrays)
            sortValues(out);
        Value r(std::move(out));
        r.setMark(dst.mark());
        return r;
    }

    Array removeKnockedOut(Array src) const
    {
        if (m_spec.knockoutPrefix)
            src.erase(std::remove_if(src.begin(), src.end(), [&](const Value& v) { return hasPrefix(v); }), src.end());
        return src;
    }

    Value overwrite(const Value& src) const
    {
        if (hasPrefix(src))
            return Value(std::string()).withMark(src.mark()); // a knocked-out scalar becomes ""
        return src;
    }

    static void sortValues(Array& a)
    {
        // Ruby's <=>: numbers with numbers, strings with strings, arrays element-wise; anything else
        // fails ("comparison of String with 1 failed").
        std::function<int(const Value&, const Value&)> cmp = [&](const Value& x, const Value& y) -> int {
            if (x.isNumber() && y.isNumber()) {
                const double dx = x.isInteger() ? static_cast<double>(x.asInteger()) : x.asFloat();
                const double dy = y.isInteger() ? static_cast<double>(y.asInteger()) : y.asFloat();
                return dx < dy ? -1 : dx > dy ? 1 : 0;
            }
            if (x.isString() && y.isString())
                return x.asString().compare(y.asString()) < 0 ? -1 : x.asString() == y.asString() ? 0 : 1;
            if (x.isArray() && y.isArray()) {
                const Array &ax = x.asArray(), &ay = y.asArray();
                for (std::size_t i = 0; i < ax.size() && i < ay.size(); ++i)
                    if (int c = cmp(ax[i], ay[i]))
                        return c;
                return ax.size() < ay.size() ? -1 : ax.size() > ay.size() ? 1 : 0;
            }
            const std::string cls = x.isHash() ? "Hash" : x.isArray() ? "Array" : x.isString() ? "String"
                                  : x.isNull() ? "NilClass" : x.isBoolean() ? (x.asBoolean() ? "TrueClass" : "FalseClass")
                                  : x.isInteger() ? "Integer" : "Float";
            const std::string other = y.isHash() ? "Hash" : rubyInspect(y);
            throw Error(ErrorCode::MergeType, "sort_merged_arrays: comparison of " + cls + " with " + other + " failed");
        };
        // Check every pair against the first element once, so a failing comparison is reported before
        // the sort starts rather than from inside it.
        for (std::size_t i = 1; i < a.size(); ++i) {
            cmp(a[i], a[0]);
            cmp(a[0], a[i]);
        }
        std::stable_sort(a.begin(), a.end(), [&](const Value& x, const Value& y) { return cmp(x, y) < 0; });
    }

    const MergeSpec& m_spec;
};

} // namespace

MergeSpec MergeSpec::fromValue(const Value& v)
{
    MergeSpec spec;
    if (v.isNull())
        return spec;
    if (v.isString()) {
        spec.strategy = strategyFromName(v.asString());
        return spec;
    }
    if (!v.isHash())
        optionsError("the 'merge' option must be a strategy name or a hash with 'strategy', got "
                     + std::string(v.typeName()));
    const Hash& h = v.asHash();
    if (h.empty())
        return spec;
    const Value* s = h.find("strategy");
    if (!s || !s->isString())
        optionsError("The hash given as 'merge' must contain the name of a strategy in string form for the key 'strategy'");
    spec.strategy = strategyFromName(s->asString());
    for (const auto& e : h) {
        const std::string key = e.key.isString() ? e.key.asString() : rubyInspect(e.key);
        if (key == "strategy")
            continue;
        if (spec.strategy != MergeStrategy::Deep)
            optionsError("The merge options has wrong type, unrecognized key '" + key + "'");
        if (key == "knockout_prefix") {
            if (e.value.isNull())
                continue;
            if (!e.value.isString())
                optionsError("The merge options entry 'knockout_prefix' expects a value of type Undef or String, got "
                             + std::string(e.value.typeName()));
            if (e.value.asString().empty())
                optionsError("knockout_prefix cannot be an empty string in deep_merge!");
            spec.knockoutPrefix = e.value.asString();
        } else if (key == "sort_merged_arrays" || key == "merge_hash_arrays" || key == "merge_debug") {
            if (!e.value.isNull() && !e.value.isBoolean())
                optionsError("The merge options entry '" + key + "' expects a value of type Undef or Boolean, got "
                             + std::string(e.value.typeName()));
            const bool on = e.value.isBoolean() && e.value.asBoolean();
            if (key == "sort_merged_arrays")
                spec.sortMergedArrays = on;
            else if (key == "merge_hash_arrays")
                spec.mergeHashArrays = on;
        } else {
            optionsError("The merge options has wrong type, unrecognized key '" + key + "'");
        }
    }
    return spec;
}

Value MergeSpec::toValue() const
{
    Hash h;
    h.set("strategy", Value(mergeStrategyName(strategy)));
    if (knockoutPrefix)
        h.set("knockout_prefix", Value(*knockoutPrefix));
    if (sortMergedArrays)
        h.set("sort_merged_arrays", Value(true));
    if (mergeHashArrays)
        h.set("merge_hash_arrays", Value(true));
    return Value(std::move(h));
}

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
        if (lower.isNull() || lower.isHash())
            typeError(false, "a value of type Scalar or Array", lower);
        Array out = higher.isArray() ? higher.asArray() : uniqueOf(higher).asArray();
        Array flat;
        flattenInto(flat, lower);
        for (auto& v : flat) {
            if (v.isHash())
                typeError(false, "a value of type Scalar or Array", v);
            appendUnique(out, v);
        }
        Value r(std::move(out));
        r.setMark(higher.mark());
        return r;
    }
    case MergeStrategy::Hash:
        return hashMerge(higher, lower);
    case MergeStrategy::Deep:
        return DeepMerger(spec).merge(higher, lower);
    }
    return higher;
}

} // namespace hiera
