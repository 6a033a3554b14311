#pragma once

// How an answer was made, in words, for the summary line and for exported reports: the merge and
// where it came from, how many files contributed, how long it took.

#include "models/snapshots.h"

#include <QString>

namespace hiera::ui {

namespace AnswerSummary {

// "deep merge (knockout_prefix --, sort_merged_arrays)", "first found".
QString mergeText(const std::optional<hiera::MergeSpec>& spec);
// "deep merge (knockout_prefix --) from lookup_options entry 'profile::ntp'", other options after it.
QString mergeSummary(const hiera::TraceNode& root, bool chosenInSelector);
// The whole summary line: merge · files · time.
QString text(const LookupOutcome& outcome);
// The answer as YAML: the value, and the root key's merged value for a dotted key.
QString yaml(const LookupOutcome& outcome);

} // namespace AnswerSummary

} // namespace hiera::ui
