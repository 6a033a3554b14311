#include "nodes/answers.h"

#include <hiera/error.h>

namespace hiera::detail {

ResolvedKey resolveKey(const NodeLookups& node, std::string_view root, std::vector<std::string>& warnings)
{
    LookupResult r = node.lookup(root);
    ResolvedKey k;
    k.key = std::string(root);
    k.status = r.status;
    for (auto& w : r.warnings)
        warnings.push_back(std::move(w));
    if (r.status == LookupResult::Status::Error) {
        k.merge = std::move(r.merge);
        k.error = errorLine(r);
        return k;
    }
    if (!r.found()) {
        k.merge = std::move(r.merge);
        return k;
    }
    NodeLookups::Place place = node.placeOf(r);
    k.merge = std::move(r.merge);
    k.value = std::move(r.value);
    k.location = std::move(place.location);
    k.level = std::move(place.level);
    k.layer = std::move(place.layer);
    return k;
}

std::string errorLine(const LookupResult& r)
{
    return r.error ? printableLine(r.error->what()) : std::string();
}

bool sameAnswer(const LookupResult& x, const LookupResult& y)
{
    if (x.status != y.status)
        return false;
    switch (x.status) {
    case LookupResult::Status::Found:
        return x.value == y.value;
    case LookupResult::Status::NotFound:
        return true;
    case LookupResult::Status::Error:
        return errorLine(x) == errorLine(y);
    }
    return false;
}

KeyDifference::Side answerSide(const NodeLookups& node, LookupResult r)
{
    KeyDifference::Side s;
    s.status = r.status;
    s.merge = std::move(r.merge);
    if (r.status == LookupResult::Status::Error)
        s.error = errorLine(r);
    if (r.found()) {
        s.files = node.leafFiles(r.value);
        s.value = std::move(r.value);
    }
    return s;
}

} // namespace hiera::detail
