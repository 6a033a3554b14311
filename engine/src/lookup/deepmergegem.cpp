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

namespace {

// ---- deep (the deep_merge gem, as Puppet calls it) -----------------------------------------------------
//
// A port of DeepMerge.deep_merge!(source, dest) (deep_merge/core.rb, as Puppet 7.23 calls it with
// preserve_unmergeables: false). The gem works in place on Ruby objects, and that shows in results: a
// hash new to the destination is merged with a shallow copy of itself, so the arrays and hashes below it
// are merged with *themselves* (the same object), and a hash written over a scalar is the source object
// itself. An array merged with itself loses everything when it holds the naked knockout prefix (the
// destination is cleared, and it is the source), and its knocked-out items are removed while Ruby's
// delete_if walks the same array. So the merge runs on a small graph with Ruby's object identity
// (RVal/RNode), built fresh from the two values as Puppet's interpolation builds fresh ones.

struct RNode;

// A Ruby reference: a scalar (never mutated by the gem, so its identity does not matter) or an array or
// hash object.
struct RVal
{
    Value scalar; // when node is null
    std::shared_ptr<RNode> node;

    bool isArray() const;
    bool isHash() const;
    bool isNil() const { return !node && scalar.isNull(); }
    bool isString() const { return !node && scalar.isString(); }
    bool truthy() const { return node || detail::truthy(scalar); }
};

struct RNode
{
    bool hash = false;
    SourceMark mark;

    // The value this node was converted from, while nothing changed it (toValue then gives it back,
    // storage shared, instead of rebuilding an unchanged subtree at every merge step).
    Value original;
    bool hasOriginal = false;
    bool modified = false;

    // Children are converted only when the merge first looks inside this node: most subtrees of the two
    // values are never reached, and converting them at every merge step was most of a warm deep lookup.
    // The node itself exists from the start, so Ruby's object identity (a dup sharing its children, a
    // value merged with itself) is the same whether or not it has been expanded.
    std::vector<RVal>& items()
    {
        expand();
        return m_items;
    }
    const std::vector<RVal>& items() const
    {
        expand();
        return m_items;
    }
    const std::vector<Value>& keys() const
    {
        expand();
        return m_keys;
    } // hash keys, parallel to items
    bool expanded() const { return m_expanded; }

    std::optional<std::size_t> find(const Value& key) const
    {
        expand();
        if (m_keys.size() <= kScanLimit) {
            for (std::size_t i = 0; i < m_keys.size(); ++i)
                if (m_keys[i] == key) // the equality Hash::find(Value) uses
                    return i;
            return std::nullopt;
        }
        if (!m_indexed) {
            m_index = Hash();
            m_index.reserve(m_keys.size());
            for (std::size_t i = 0; i < m_keys.size(); ++i)
                m_index.set(m_keys[i], Value(static_cast<std::int64_t>(i)));
            m_indexed = true;
        }
        const Value* p = m_index.find(key);
        return p ? std::optional<std::size_t>(static_cast<std::size_t>(p->asInteger())) : std::nullopt;
    }
    void set(const Value& key, RVal v);
    void clear()
    {
        expand();
        modified = true;
        m_items.clear();
        m_keys.clear();
        m_index = Hash();
        m_indexed = false;
    }

    static std::shared_ptr<RNode> fromContainer(const Value& v)
    {
        auto n = std::make_shared<RNode>();
        n->hash = v.isHash();
        n->mark = v.mark();
        n->original = v;
        n->hasOriginal = true;
        n->m_expanded = false;
        return n;
    }

private:
    void expand() const;

    mutable std::vector<RVal> m_items; // array elements, or hash values
    mutable std::vector<Value> m_keys;
    mutable bool m_expanded = true; // a node built by the merge has no original to expand

    // Key positions, built only when a large hash is searched: most hashes are never searched, or are
    // small enough to scan.
    static constexpr std::size_t kScanLimit = 16;
    mutable Hash m_index; // hash key -> position in items
    mutable bool m_indexed = false;
};

RVal fromValue(const Value& v)
{
    if (!v.isArray() && !v.isHash())
        return RVal{v, nullptr};
    return RVal{Value(), RNode::fromContainer(v)};
}

void RNode::expand() const
{
    if (m_expanded)
        return;
    m_expanded = true;
    if (original.isArray()) {
        m_items.reserve(original.asArray().size());
        for (const auto& e : original.asArray())
            m_items.push_back(fromValue(e));
    } else {
        m_items.reserve(original.asHash().size());
        m_keys.reserve(original.asHash().size());
        for (const auto& e : original.asHash()) { // keys of a hiera::Hash are unique
            m_keys.push_back(e.key);
            m_items.push_back(fromValue(e.value));
        }
    }
}

void RNode::set(const Value& key, RVal v)
{
    modified = true;
    if (auto pos = find(key)) {
        m_items[*pos] = std::move(v);
        return;
    }
    if (m_indexed)
        m_index.set(key, Value(static_cast<std::int64_t>(m_items.size())));
    m_keys.push_back(key);
    m_items.push_back(std::move(v));
}

bool RVal::isArray() const
{
    return node && !node->hash;
}
bool RVal::isHash() const
{
    return node && node->hash;
}

// Whether a converted subtree still holds exactly its original value: its node and every node below
// unchanged (a change to a node's own items always marks that node).
// Not remembered: toValue also runs in the middle of a merge (sort_merged_arrays), before later changes.
bool unchanged(const RVal& r)
{
    if (!r.node)
        return true;
    const RNode& n = *r.node;
    if (!n.hasOriginal || n.modified)
        return false;
    if (!n.expanded())
        return true; // nothing below was reached, so nothing below changed
    for (const RVal& item : n.items())
        if (!unchanged(item))
            return false;
    return true;
}

Value toValue(const RVal& r, std::size_t depth = 0)
{
    if (!r.node)
        return r.scalar;
    if (unchanged(r))
        return r.node->original;
    if (depth > 100000)
        throw Error(ErrorCode::DataLimit, "deep merge: the merged value nests too deeply");
    Value out;
    if (r.node->hash) {
        Hash h;
        h.reserve(r.node->items().size());
        for (std::size_t i = 0; i < r.node->items().size(); ++i)
            h.set(r.node->keys()[i], toValue(r.node->items()[i], depth + 1));
        out = Value(std::move(h));
    } else {
        Array a;
        a.reserve(r.node->items().size());
        for (const auto& e : r.node->items())
            a.push_back(toValue(e, depth + 1));
        out = Value(std::move(a));
    }
    out.setMark(r.node->mark);
    return out;
}

// Ruby's eql? (what Array#| uses): structural and type-strict; hashes compare without order.
bool rubyEql(const RVal& a, const RVal& b)
{
    if (!a.node || !b.node)
        return !a.node && !b.node && a.scalar == b.scalar;
    if (a.node == b.node)
        return true;
    if (a.node->hash != b.node->hash || a.node->items().size() != b.node->items().size())
        return false;
    for (std::size_t i = 0; i < a.node->items().size(); ++i) {
        if (!a.node->hash) {
            if (!rubyEql(a.node->items()[i], b.node->items()[i]))
                return false;
        } else {
            const auto pos = b.node->find(a.node->keys()[i]);
            if (!pos || !rubyEql(a.node->items()[i], b.node->items()[*pos]))
                return false;
        }
    }
    return true;
}

// A hash consistent with rubyEql: the valueHash of the value toValue(r) gives (rubyEql is that value's
// operator==). A node nothing has looked inside is hashed as its original value, without expanding it;
// identity plays no part (equal is equal, shared or not), so hashing cannot change what the merge does.
std::uint64_t rubyHash(const RVal& r)
{
    if (!r.node)
        return valueHash(r.scalar);
    const RNode& n = *r.node;
    if (n.hasOriginal && !n.modified && !n.expanded())
        return valueHash(n.original);
    if (!n.hash) {
        std::uint64_t h = arrayHashStart(n.items().size());
        for (const RVal& item : n.items())
            h = arrayHashStep(h, rubyHash(item));
        return h;
    }
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < n.items().size(); ++i)
        sum += hashEntryHash(valueHash(n.keys()[i]), rubyHash(n.items()[i]));
    return hashHashFinish(sum, n.items().size());
}

class DeepMerger
{
public:
    explicit DeepMerger(const MergeSpec& spec) : m_spec(spec) { }

    // src has priority; dst is the lower value.
    Value merge(const Value& src, const Value& dst) { return toValue(dm(fromValue(src), fromValue(dst))); }

private:
    // ko_item.gsub(/^K/, ""): the prefix (matched literally, docs/engine-semantics.md) removed at the
    // start of every line.
    std::string stripKnockout(const std::string& s) const
    {
        const std::string& k = *m_spec.knockoutPrefix;
        std::string out;
        std::size_t pos = 0;
        while (pos <= s.size()) {
            if (s.compare(pos, k.size(), k) == 0)
                pos += k.size();
            const std::size_t nl = s.find('\n', pos);
            if (nl == std::string::npos) {
                out.append(s, pos, std::string::npos);
                break;
            }
            out.append(s, pos, nl + 1 - pos);
            pos = nl + 1;
        }
        return out;
    }
    bool knockedOut(const RVal& v) const
    {
        return m_spec.knockoutPrefix && v.isString() && stripKnockout(v.scalar.asString()) != v.scalar.asString();
    }

    // Array#delete(string): removes every element equal to the string, keeping the others' order.
    static void deleteString(RNode& a, const std::string& s)
    {
        a.modified = true;
        std::erase_if(a.items(), [&](const RVal& e) { return e.isString() && e.scalar.asString() == s; });
    }

    // source.delete_if { knocked out: dest.delete(item); dest.delete(ko_item) }, with Ruby's
    // reject! loop (array.c), so that a destination which is the source itself behaves as in Ruby.
    void knockOut(RNode& src, RNode& dst) const
    {
        src.modified = true;
        dst.modified = true;
        std::vector<RVal>& a = src.items();
        std::size_t i1 = 0, i2 = 0;
        for (; i1 < a.size(); ++i1) {
            RVal v = a[i1];
            if (v.isString()) {
                const std::string item = stripKnockout(v.scalar.asString());
                if (item != v.scalar.asString()) {
                    deleteString(dst, item);
                    deleteString(dst, v.scalar.asString());
                    continue;
                }
            }
            if (i1 != i2)
                a[i2] = std::move(v);
            ++i2;
        }
        if (i2 < a.size() && i2 < i1) {
            const std::size_t tail = i1 < a.size() ? a.size() - i1 : 0;
            std::move(a.begin() + static_cast<std::ptrdiff_t>(i1), a.end(),
                      a.begin() + static_cast<std::ptrdiff_t>(i2));
            a.resize(i2 + tail);
        }
    }

    // overwrite_unmergeables: the source replaces the destination; a string carrying the prefix
    // becomes "", an array loses its prefixed strings.
    RVal overwrite(RVal source) const
    {
        if (!m_spec.knockoutPrefix)
            return source;
        if (source.isString()) {
            if (knockedOut(source))
                return RVal{Value(std::string()).withMark(source.scalar.mark()), nullptr};
            return source;
        }
        if (source.isArray()) {
            source.node->modified = true;
            std::erase_if(source.node->items(), [&](const RVal& e) { return knockedOut(e); });
        }
        return source;
    }

    static RVal shallowDup(const RVal& v)
    {
        if (!v.node)
            return v;
        v.node->items(); // expanded first, so that the copy shares the original's children (Ruby's dup)
        return RVal{Value(), std::make_shared<RNode>(*v.node)};
    }

    static bool allHashes(const RNode& a)
    {
        return std::all_of(a.items().begin(), a.items().end(), [](const RVal& e) { return e.isHash(); });
    }

    RVal dm(RVal source, RVal dest)
    {
        if (source.isNil())
            return dest; // a higher null never overrides
        if (!dest.truthy())
            return source;
        if (source.isHash()) {
            const std::shared_ptr<RNode> s = source.node; // may be dest itself
            for (std::size_t i = 0; i < s->items().size(); ++i) {
                const Value key = s->keys()[i];
                const RVal sv = s->items()[i];
                if (dest.isHash()) {
                    RNode& d = *dest.node;
                    const auto pos = d.find(key);
                    if (pos && d.items()[*pos].truthy()) {
                        RVal merged = dm(sv, d.items()[*pos]);
                        d.items()[*d.find(key)] = std::move(merged);
                        d.modified = true;
                    } else {
                        RVal merged = dm(sv, shallowDup(sv));
                        d.set(key, std::move(merged));
                    }
                } else {
                    dest = overwrite(source);
                }
            }
            return dest; // an empty source hash leaves dest as it is
        }
        if (source.isArray()) {
            const auto& K = m_spec.knockoutPrefix;
            RNode& s = *source.node;
            if (K && std::any_of(s.items().begin(), s.items().end(), [&](const RVal& e) {
                    return e.isString() && e.scalar.asString() == *K;
                })) {
                // clear_or_nil(dest): arrays and hashes are emptied in place (a destination that is the
                // source is emptied too), a string becomes "", anything else nil.
                if (dest.node)
                    dest.node->clear();
                else if (dest.isString())
                    dest = RVal{Value(std::string()).withMark(dest.scalar.mark()), nullptr};
                else
                    dest = RVal{};
                deleteString(s, *K);
            }
            if (!dest.isArray())
                return overwrite(source);
            if (K)
                knockOut(s, *dest.node);
            auto out = std::make_shared<RNode>();
            out->mark = dest.node->mark;
            RNode& d = *dest.node;
            if (m_spec.mergeHashArrays && allHashes(s) && allHashes(d)) {
                for (std::size_t i = 0; i < d.items().size(); ++i) {
                    RVal from = i < s.items().size() ? s.items()[i] : RVal{Value(), std::make_shared<RNode>()};
                    if (i >= s.items().size())
                        from.node->hash = true; // source[i] || {}
                    out->items().push_back(dm(from, d.items()[i]));
                }
                for (std::size_t i = d.items().size(); i < s.items().size(); ++i)
                    out->items().push_back(s.items()[i]);
            } else {
                // dest | source: dest's elements first, then source's new ones, duplicates dropped.
                // Membership by hash (rubyHash), not a search of the result per element: the same
                // elements in the same order (the same objects: nothing is copied), linear as Ruby's
                // Array#| is, where the search made two 50,000-element arrays take minutes.
                std::vector<RVal>& items = out->items();
                items.reserve(d.items().size() + s.items().size());
                MembershipIndex present(items, rubyHash, rubyEql);
                auto add = [&](const RVal& v) {
                    if (!present.contains(v))
                        items.push_back(v);
                };
                for (const RVal& v : d.items())
                    add(v);
                for (const RVal& v : s.items())
                    add(v);
            }
            if (m_spec.sortMergedArrays)
                sortItems(*out);
            return RVal{Value(), out};
        }
        return overwrite(source);
    }

    static void sortItems(RNode& a)
    {
        std::vector<std::pair<Value, RVal>> keyed;
        keyed.reserve(a.items().size());
        for (RVal& v : a.items())
            keyed.emplace_back(toValue(v), std::move(v));
        // Check every pair against the first element once, so a failing comparison is reported before
        // the sort starts rather than from inside it.
        for (std::size_t i = 1; i < keyed.size(); ++i) {
            rubyCompare(keyed[i].first, keyed[0].first);
            rubyCompare(keyed[0].first, keyed[i].first);
        }
        std::stable_sort(keyed.begin(), keyed.end(),
                         [](const auto& x, const auto& y) { return rubyCompare(x.first, y.first) < 0; });
        a.modified = true;
        a.items().clear();
        for (auto& k : keyed)
            a.items().push_back(std::move(k.second));
    }

    const MergeSpec& m_spec;
};

} // namespace

Value deepMergeGem(const MergeSpec& spec, const Value& higher, const Value& lower)
{
    return DeepMerger(spec).merge(higher, lower);
}

} // namespace hiera::detail
