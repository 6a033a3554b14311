#include <hiera/error.h>
#include <hiera/mergespec.h>
#include <hiera/valueformat.h>

namespace hiera {

const char* mergeStrategyName(MergeStrategy s)
{
    switch (s) {
    case MergeStrategy::First:
        return "first";
    case MergeStrategy::Unique:
        return "unique";
    case MergeStrategy::Hash:
        return "hash";
    case MergeStrategy::Deep:
        return "deep";
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
        optionsError(
            "The hash given as 'merge' must contain the name of a strategy in string form for the key 'strategy'");
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

} // namespace hiera
