#pragma once

// The explain trace: a tree a UI can draw and a formatter can print, modelled on Puppet's
// explainer.rb, with what Puppet leaves out (file line and column of every found value, the candidate
// paths of globs and mapped_paths, warnings, the lookup_options entry chosen, the dug value).

#include <hiera/error.h>
#include <hiera/mergespec.h>
#include <hiera/value.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace hiera {

struct TraceNode
{
    enum class Kind {
        Lookup, // root: one requested key ("Searching for ...")
        LookupOptions, // the lookup_options meta-lookup
        Layer, // a data provider (the global layer, later environment and modules)
        Merge, // a fold of several sources with a strategy
        Level, // a hierarchy entry
        Location, // one candidate file of a level
        Interpolation, // one interpolated string
        ScopeRead, // a variable read from the scope
        SubLookup, // lookup()/hiera()/alias() inside interpolation
        Dig, // digging the segments of a dotted key into the merged value
        Segment, // one dig step
        ConvertTo, // convert_to of lookup_options applied
        Message, // free text: warnings, notes
    };
    enum class Event {
        None,
        Found, // the key was found (value set)
        NotFound, // the key is not in this source
        LocationNotFound, // the file does not exist
        Result, // the merged result of a Merge, or the final result of a Lookup (value set)
        Failed, // an error happened here (message set)
        Warning, // a warning (message set)
        InvalidKey, // lookup_options cannot be looked up
    };

    Kind kind = Kind::Message;
    Event event = Event::None;
    std::string name; // level name, layer name, scope reference, sub-lookup key, method
    std::string key; // the key this node is about
    std::string originalPath; // Location: as written (a glob: the joined pattern)
    std::string path; // Location: resolved absolute path
    std::string expression; // Interpolation: the whole original string
    std::optional<Value> value;
    std::optional<MergeSpec> merge; // Merge nodes; Lookup: the strategy used
    bool mergeFromLookupOptions = false;
    std::string lookupOptionsEntry; // Lookup: which lookup_options entry applied (key or pattern)
    std::optional<Value> lookupOptions; // Lookup: the entry's value
    std::string message; // Failed / Warning / Message text
    SourceLocation location; // where the found value (or the error) is in a file
    std::vector<std::shared_ptr<TraceNode>> children;

    TraceNode& addChild(Kind k)
    {
        children.push_back(std::make_shared<TraceNode>());
        children.back()->kind = k;
        return *children.back();
    }
};

using TracePtr = std::shared_ptr<const TraceNode>;

const char* traceKindName(TraceNode::Kind k);
const char* traceEventName(TraceNode::Event e);

} // namespace hiera
