#include "nodes/answers.h"

#include <hiera/nodes/nodediff.h>

#include <algorithm>
#include <iterator>
#include <unordered_set>

namespace hiera {

NodeDiff diffNodes(const Engine& engine, const Scope& a, const Scope& b, const DiffOptions& options)
{
    NodeDiff diff;
    const NodeLookups nodeA(engine, a);
    const NodeLookups nodeB(engine, b);
    const std::vector<std::string_view> keysA = nodeA.rootKeys();
    const std::vector<std::string_view> keysB = nodeB.rootKeys();
    std::vector<std::string_view> keys;
    keys.reserve(std::max(keysA.size(), keysB.size()));
    std::set_union(keysA.begin(), keysA.end(), keysB.begin(), keysB.end(), std::back_inserter(keys));
    std::vector<std::string> warnings;
    for (const std::string_view key : keys) {
        if (!key.starts_with(options.prefix))
            continue;
        if (options.stop.stop_requested()) {
            diff.cancelled = true;
            break;
        }
        LookupResult x = nodeA.lookup(key);
        LookupResult y = nodeB.lookup(key);
        ++diff.keysCompared;
        for (auto* r : {&x, &y})
            for (auto& w : r->warnings)
                warnings.push_back(std::move(w));
        if (detail::sameAnswer(x, y)) {
            if (x.status == LookupResult::Status::Error)
                diff.failedOnBoth.emplace_back(std::string(key), detail::errorLine(x));
            continue;
        }
        diff.keys.push_back(
            {std::string(key), detail::answerSide(nodeA, std::move(x)), detail::answerSide(nodeB, std::move(y)), {}});
        KeyDifference& d = diff.keys.back();
        if (d.a.found() && d.b.found() && !(d.a.value.isScalar() && d.b.value.isScalar())) {
            d.leaves = leafDifferences(d.a.value, d.b.value, 10000, ArrayWalk::SameLength);
            if (d.leaves.size() == 1 && d.leaves[0].path.empty())
                d.leaves.clear(); // the values differ as a whole (a type, an array's length): no leaves
        }
    }
    std::unordered_set<std::string> seen;
    for (auto& w : warnings)
        if (seen.insert(w).second)
            diff.warnings.push_back(std::move(w));
    return diff;
}

} // namespace hiera
