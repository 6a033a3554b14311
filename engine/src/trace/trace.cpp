#include <hiera/trace.h>

namespace hiera {

const char* traceKindName(TraceNode::Kind k)
{
    switch (k) {
    case TraceNode::Kind::Lookup:
        return "lookup";
    case TraceNode::Kind::LookupOptions:
        return "lookup_options";
    case TraceNode::Kind::Layer:
        return "data_provider";
    case TraceNode::Kind::Merge:
        return "merge";
    case TraceNode::Kind::Level:
        return "hierarchy_entry";
    case TraceNode::Kind::Location:
        return "path";
    case TraceNode::Kind::Interpolation:
        return "interpolate";
    case TraceNode::Kind::ScopeRead:
        return "scope";
    case TraceNode::Kind::SubLookup:
        return "sub_lookup";
    case TraceNode::Kind::Dig:
        return "sub_key";
    case TraceNode::Kind::Segment:
        return "segment";
    case TraceNode::Kind::ConvertTo:
        return "convert_to";
    case TraceNode::Kind::Message:
        return "message";
    }
    return "?";
}

const char* traceEventName(TraceNode::Event e)
{
    switch (e) {
    case TraceNode::Event::None:
        return "";
    case TraceNode::Event::Found:
        return "found";
    case TraceNode::Event::NotFound:
        return "not_found";
    case TraceNode::Event::LocationNotFound:
        return "location_not_found";
    case TraceNode::Event::Result:
        return "result";
    case TraceNode::Event::Failed:
        return "failed";
    case TraceNode::Event::Warning:
        return "warning";
    case TraceNode::Event::InvalidKey:
        return "invalid_key";
    }
    return "?";
}

} // namespace hiera
