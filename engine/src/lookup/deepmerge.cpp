// The deep merge on plain values, and what the two mergers share (lookup/deepmerge.h).

#include "lookup/deepmerge.h"
#include "lookup/valuehash.h"

#include <hiera/error.h>
#include <hiera/valueformat.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace hiera::detail {

bool truthy(const Value& v)
{
    return !v.isNull() && !(v.isBoolean() && !v.asBoolean());
}

// Ruby's sort order for sort_merged_arrays: numbers with numbers, strings with strings, arrays
// element-wise; anything else fails as Ruby's <=> does ("comparison of String with 1 failed").
int rubyCompare(const Value& x, const Value& y)
{
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
            if (int c = rubyCompare(ax[i], ay[i]))
                return c;
        return ax.size() < ay.size() ? -1 : ax.size() > ay.size() ? 1 : 0;
    }
    const std::string cls = x.isHash() ? "Hash"
        : x.isArray()                  ? "Array"
        : x.isString()                 ? "String"
        : x.isNull()                   ? "NilClass"
        : x.isBoolean()                ? (x.asBoolean() ? "TrueClass" : "FalseClass")
        : x.isInteger()                ? "Integer"
                                       : "Float";
    // Ruby names the other value; a decrypted one is named only as what it is.
    const std::string other = y.isHash() ? "Hash" : containsSecret(y) ? "<sensitive> (String)" : rubyInspect(y);
    throw Error(ErrorCode::MergeType, "sort_merged_arrays: comparison of " + cls + " with " + other + " failed");
}

// sort_merged_arrays on plain values: Ruby's sort, with a failing comparison reported before sorting.
void sortRubyValues(Array& a)
{
    for (std::size_t i = 1; i < a.size(); ++i) {
        rubyCompare(a[i], a[0]);
        rubyCompare(a[0], a[i]);
    }
    std::stable_sort(a.begin(), a.end(), [](const Value& x, const Value& y) { return rubyCompare(x, y) < 0; });
}

namespace {

// The same merge on plain values, for the common case of no knockout_prefix. Without the prefix nothing
// the gem does depends on object identity: the only in-place work left is a value merged with itself,
// which comes to "normalize" below (arrays de-duplicated, or their hashes normalized, and sorted when
// asked), and a hash written over a scalar, whose entries after the first are normalized. So values
// can be shared instead of converted, which keeps a warm deep lookup as cheap as a plain one.
// tst_merge's gem cases run through both mergers (a prefix that never matches forces the graph port).
class ValueDeepMerger
{
public:
    explicit ValueDeepMerger(const MergeSpec& spec) : m_spec(spec) { }

    Value merge(const Value& src, const Value& dst, std::size_t depth = 0) const
    {
        checkDepth(depth);
        if (src.isNull())
            return dst; // a higher null never overrides
        if (!truthy(dst))
            return src;
        if (src.isHash()) {
            const Hash& s = src.asHash();
            if (s.empty())
                return dst;
            if (!dst.isHash()) {
                // dest becomes the source hash at its first entry; the later entries then meet
                // themselves.
                Value out = src;
                for (std::size_t i = 1; i < s.size(); ++i)
                    if (auto n = normalized(s.entries()[i].value, depth + 1))
                        out.mutableHash().set(s.entries()[i].key, std::move(*n));
                return out;
            }
            Value out = dst;
            Hash& d = out.mutableHash();
            for (const auto& e : s) {
                if (Value* existing = d.findMutable(e.key); existing && truthy(*existing))
                    *existing = merge(e.value, *existing, depth + 1);
                else
                    d.set(e.key, normalized(e.value, depth + 1).value_or(e.value));
            }
            return out;
        }
        if (src.isArray() && dst.isArray())
            return mergeArrays(src.asArray(), dst, depth);
        return src;
    }

    static void checkDepth(std::size_t depth)
    {
        if (depth > 100000)
            throw Error(ErrorCode::DataLimit, "deep merge: the merged value nests too deeply");
    }

private:
    static bool allHashes(const Array& a)
    {
        return std::all_of(a.begin(), a.end(), [](const Value& e) { return e.isHash(); });
    }

    // dest's elements, then source's: merged pairwise when both hold only hashes and merge_hash_arrays
    // is on, else their union (Array#|, eql? on structure and type).
    Value mergeArrays(const Array& s, const Value& dst, std::size_t depth) const
    {
        const Array& d = dst.asArray();
        Array out;
        out.reserve(std::max(d.size(), s.size()));
        if (m_spec.mergeHashArrays && allHashes(s) && allHashes(d)) {
            for (std::size_t i = 0; i < d.size(); ++i)
                out.push_back(i < s.size() ? merge(s[i], d[i], depth + 1) : d[i]);
            for (std::size_t i = d.size(); i < s.size(); ++i)
                out.push_back(s[i]);
        } else {
            // Membership by hash (valuehash.h): a search per element made two 50,000-element arrays
            // take 34 s; Ruby's Array#| hashes and is linear. Same elements, same order.
            auto present = valueMembership(out);
            auto add = [&](const Value& v) {
                if (!present.contains(v))
                    out.push_back(v);
            };
            for (const Value& v : d)
                add(v);
            for (const Value& v : s)
                add(v);
        }
        if (m_spec.sortMergedArrays)
            sortRubyValues(out);
        Value r(std::move(out));
        r.setMark(dst.mark());
        return r;
    }

public:
    // A value merged with itself, or nullopt when that leaves it as it is (so it stays shared).
    std::optional<Value> normalized(const Value& v, std::size_t depth) const
    {
        checkDepth(depth);
        if (v.isHash()) {
            std::optional<Value> out;
            const Hash& h = v.asHash();
            for (std::size_t i = 0; i < h.size(); ++i) {
                if (auto n = normalized(h.entries()[i].value, depth + 1)) {
                    if (!out)
                        out = v;
                    out->mutableHash().set(h.entries()[i].key, std::move(*n));
                }
            }
            return out;
        }
        if (v.isArray()) {
            const Array& a = v.asArray();
            if (m_spec.mergeHashArrays && allHashes(a)) {
                std::optional<Value> out;
                for (std::size_t i = 0; i < a.size(); ++i) {
                    if (auto n = normalized(a[i], depth + 1)) {
                        if (!out)
                            out = v;
                        out->mutableArray()[i] = std::move(*n);
                    }
                }
                if (m_spec.sortMergedArrays) {
                    Value sorted = out.value_or(v);
                    sortRubyValues(sorted.mutableArray());
                    return sorted;
                }
                return out;
            }
            Value merged = mergeArrays(a, v, depth);
            if (!m_spec.sortMergedArrays && merged.asArray().size() == a.size())
                return std::nullopt; // no duplicates: the union is the array itself
            return merged;
        }
        return std::nullopt;
    }

private:
    const MergeSpec& m_spec;
};

// The whole fold of a deep merge at once (deepMergeAll). Folding step by step merges the accumulated
// value into each lower one, so every step walks all that was accumulated: 5,000 files each adding a
// key took 25 million entry copies (docs/performance.md, "Cost that grows with the input"). Here each slot of the
// answer (the root, a hash member, a member's member...) is given its history instead, the values found there in
// priority order, and runs of steps that keep a hash a hash, or an array an array, are done in one pass:
//  - hash over hash keeps the lower hash's keys in its order, then the accumulated ones it lacks; over
//    a run that is the lowest piece's keys, then the next higher piece's new keys, and so on. Each
//    member's value is its own history, folded the same way (recursively).
//  - array over array is the lower array's elements, then the accumulated ones it lacks (Array#|);
//    over a run, the union of the pieces from the lowest up.
//  - a member a step leaves out (the lower hash lacks it, or holds null or false there) is normalised
//    by that step (merged with itself, ValueDeepMerger::normalized); normalising is idempotent, so a
//    member's history records one "normalise" per gap.
// Anything else (a hash meeting a scalar, a scalar meeting anything) is one ordinary step. The result
// is the one folding ValueDeepMerger::merge gives, marks included: tst_merge and fuzz_merge compare
// the two. Only without knockout_prefix, sort_merged_arrays and merge_hash_arrays (deepMergeAllApplies):
// those depend on the order of steps in ways a run does not keep.
class DeepFoldEvaluator
{
public:
    explicit DeepFoldEvaluator(const MergeSpec& spec) : m_merger(spec) { }

    // A slot's history: values in priority order, nullptr for "normalise" (a gap). `top`: the answer's
    // root, where a null or false lower value is simply passed over (mergeStep keeps the accumulated
    // value as it is) rather than normalising it, and where no gaps occur.
    Value evaluate(const std::vector<const Value*>& ops, bool top, std::size_t depth) const
    {
        ValueDeepMerger::checkDepth(depth);
        std::optional<Value> acc;
        for (std::size_t i = 0; i < ops.size();) {
            const Value* op = ops[i];
            if (!acc) {
                if (op)
                    acc = *op;
                ++i;
                continue;
            }
            if (acc->isHash() && !acc->asHash().empty()) {
                std::size_t j = i;
                while (j < ops.size() && (!ops[j] || !truthy(*ops[j]) || ops[j]->isHash()))
                    ++j;
                if (j > i) {
                    acc = hashRun(*acc, ops, i, j, top, depth);
                    i = j;
                } else {
                    acc = m_merger.merge(*acc, *op, depth); // a hash meeting a scalar or an array
                    ++i;
                }
                continue;
            }
            if (acc->isArray()) {
                // Nothing turns an array into something else: every later step is part of the run.
                return arrayRun(*acc, ops, i, top);
            }
            // null, a scalar or an empty hash: normalising leaves it as it is; a step may replace it.
            if (op && (top || truthy(*op)))
                acc = m_merger.merge(*acc, *op, depth);
            ++i;
        }
        return acc ? std::move(*acc) : Value();
    }

private:
    Value hashRun(const Value& first, const std::vector<const Value*>& ops, std::size_t from, std::size_t to, bool top,
                  std::size_t depth) const
    {
        struct Member
        {
            const Value* key = nullptr; // as the lowest piece holding it writes it
            std::vector<const Value*> history;
            std::size_t last = 0; // the position of its latest value
            bool placed = false;
        };
        std::vector<Member> members;
        Hash index; // key -> position in members, with Hash's own key equality
        std::vector<std::pair<std::size_t, const Value*>> pieces{{0, &first}}; // (position, hash)
        std::size_t position = 0;
        for (std::size_t i = from; i < to; ++i) {
            const Value* op = ops[i];
            if (op && op->isHash())
                pieces.emplace_back(++position, op);
            else if (!top)
                ++position; // a normalising step: a gap for every member
            // at the top a null or false lower value changes nothing
        }
        for (const auto& [at, piece] : pieces) {
            for (const auto& entry : piece->asHash()) {
                std::size_t m;
                if (const Value* known = index.find(entry.key)) {
                    m = static_cast<std::size_t>(known->asInteger());
                    if (members[m].last + 1 < at)
                        members[m].history.push_back(nullptr);
                } else {
                    m = members.size();
                    index.set(entry.key, Value(static_cast<std::int64_t>(m)));
                    members.emplace_back();
                }
                members[m].history.push_back(&entry.value);
                members[m].last = at;
            }
        }
        Hash out;
        out.reserve(members.size());
        for (auto piece = pieces.rbegin(); piece != pieces.rend(); ++piece) {
            for (const auto& entry : piece->second->asHash()) {
                Member& member = members[static_cast<std::size_t>(index.find(entry.key)->asInteger())];
                if (member.placed)
                    continue;
                member.placed = true;
                if (member.last < position)
                    member.history.push_back(nullptr);
                out.set(entry.key, evaluate(member.history, false, depth + 1));
            }
        }
        Value result(std::move(out));
        result.setMark(pieces.back().second->mark());
        return result;
    }

    Value arrayRun(const Value& first, const std::vector<const Value*>& ops, std::size_t from, bool top) const
    {
        std::vector<const Value*> arrays;
        bool changed = false;
        for (std::size_t i = from; i < ops.size(); ++i) {
            const Value* op = ops[i];
            if (op && op->isArray()) {
                arrays.push_back(op);
                changed = true;
            } else if (!op || (!top && !truthy(*op))) {
                changed = true; // normalised: its duplicates go
            }
            // otherwise the array is kept as it is (a scalar or hash below an array does not replace it)
        }
        if (!changed)
            return first;
        Array out;
        auto present = valueMembership(out);
        const auto add = [&](const Array& elements) {
            for (const Value& v : elements)
                if (!present.contains(v))
                    out.push_back(v);
        };
        for (auto a = arrays.rbegin(); a != arrays.rend(); ++a)
            add((*a)->asArray());
        add(first.asArray());
        Value result(std::move(out));
        result.setMark(arrays.empty() ? first.mark() : arrays.back()->mark());
        return result;
    }

    ValueDeepMerger m_merger;
};

} // namespace

Value deepMergeValues(const MergeSpec& spec, const Value& higher, const Value& lower)
{
    return ValueDeepMerger(spec).merge(higher, lower);
}

bool deepMergeAllApplies(const MergeSpec& spec)
{
    return !spec.knockoutPrefix && !spec.sortMergedArrays && !spec.mergeHashArrays;
}

Value deepMergeAll(const MergeSpec& spec, const std::vector<Value>& found)
{
    std::vector<const Value*> history;
    history.reserve(found.size());
    for (const Value& v : found)
        history.push_back(&v);
    return DeepFoldEvaluator(spec).evaluate(history, true, 0);
}

} // namespace hiera::detail
