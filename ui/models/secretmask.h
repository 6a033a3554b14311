#pragma once

// SecretMask — what the explorer shows of values decrypted from eyaml (hiera::Value::isSecret) until
// the user reveals them: each secret string becomes "••••••", keeping its mark, so that views still
// know it is a secret (and show a lock) and still know where it was written.
//
// The runner masks a whole LookupOutcome on the worker (its values and every value of its trace), and
// the views show the masked copy: what they render, copy, export or print (the --explain text
// included) then never holds the plaintext. Only the Reveal Secrets action swaps the plaintext in.

#include "models/snapshots.h"

#include <hiera/trace.h>
#include <hiera/value.h>

#include <QString>

namespace hiera::ui {

namespace SecretMask {

// The text a masked secret shows.
QString maskText();

// Whether the result holds a decrypted value anywhere (its value, root value or trace).
bool containsSecret(const hiera::LookupResult& result);
bool containsSecret(const hiera::TraceNode& node);

hiera::Value masked(const hiera::Value& value);
// A secret shown masked (not revealed).
bool isMasked(const hiera::Value& value);
// The trace with every secret masked; subtrees without one are shared, not copied.
hiera::TracePtr masked(const hiera::TracePtr& trace);
// The outcome with every secret masked (`masked` of the copy is null, secretsMasked true).
LookupOutcomePtr masked(const LookupOutcome& outcome);

// For an eyaml value left encrypted (Value::isStillEncrypted): "encrypted (no key)" or "encrypted: GPG
// not supported". The raw ENC[...] text is the value itself (tooltips show it).
QString stillEncryptedText(const hiera::Value& value);

} // namespace SecretMask

} // namespace hiera::ui
