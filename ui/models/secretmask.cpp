#include "models/secretmask.h"

#include <QCoreApplication>

#include <algorithm>
#include <cctype>

namespace hiera::ui {

namespace SecretMask {

namespace {
// Made of bullets, not of a word, so that nobody mistakes it for the value.
constexpr std::string_view maskUtf8 = "\u2022\u2022\u2022\u2022\u2022\u2022";

bool hasSecret(const std::optional<hiera::Value>& value)
{
    return value && hiera::containsSecret(*value);
}

// The node's own values hold a secret (its children not counted).
bool ownSecret(const hiera::TraceNode& node)
{
    return hasSecret(node.value) || hasSecret(node.lookupOptions);
}

// Null when nothing below `node` needs masking (the caller shares the original).
std::shared_ptr<hiera::TraceNode> maskedCopy(const hiera::TraceNode& node)
{
    std::vector<std::shared_ptr<hiera::TraceNode>> children;
    bool changed = ownSecret(node);
    for (std::size_t i = 0; i < node.children.size(); ++i) {
        if (auto child = maskedCopy(*node.children[i])) {
            if (children.empty())
                children = node.children;
            children[i] = std::move(child);
            changed = true;
        }
    }
    if (!changed)
        return nullptr;
    auto copy = std::make_shared<hiera::TraceNode>(node);
    if (!children.empty())
        copy->children = std::move(children);
    if (copy->value)
        copy->value = masked(*copy->value);
    if (copy->lookupOptions)
        copy->lookupOptions = masked(*copy->lookupOptions);
    return copy;
}
} // namespace

QString maskText()
{
    return QString::fromUtf8(maskUtf8.data(), static_cast<qsizetype>(maskUtf8.size()));
}

bool containsSecret(const hiera::TraceNode& node)
{
    return ownSecret(node)
        || std::any_of(node.children.begin(), node.children.end(), [](const auto& c) { return containsSecret(*c); });
}

bool containsSecret(const hiera::LookupResult& result)
{
    return hiera::containsSecret(result.value) || hiera::containsSecret(result.rootValue)
        || (result.trace && containsSecret(*result.trace));
}

hiera::Value masked(const hiera::Value& value)
{
    return hiera::redactSecrets(value, maskUtf8);
}

bool isMasked(const hiera::Value& value)
{
    return value.isSecret() && value.isString() && value.asString() == maskUtf8;
}

hiera::TracePtr masked(const hiera::TracePtr& trace)
{
    if (!trace)
        return trace;
    if (auto copy = maskedCopy(*trace))
        return copy;
    return trace;
}

LookupOutcomePtr masked(const LookupOutcome& outcome)
{
    auto copy = std::make_shared<LookupOutcome>();
    copy->engine = outcome.engine;
    copy->request = outcome.request;
    copy->elapsedMs = outcome.elapsedMs;
    copy->result.status = outcome.result.status;
    copy->result.value = masked(outcome.result.value);
    copy->result.rootFound = outcome.result.rootFound;
    copy->result.rootValue = masked(outcome.result.rootValue);
    copy->result.error = outcome.result.error;
    copy->result.warnings = outcome.result.warnings;
    copy->result.trace = masked(outcome.result.trace);
    if (copy->result.trace)
        copy->contributions = hiera::sourceContributions(*copy->result.trace);
    copy->secretsMasked = true;
    return copy;
}

QString stillEncryptedText(const hiera::Value& value)
{
    // hiera-eyaml names the scheme case-insensitively (ENC[gpg,...] is GPG too).
    std::string text = value.isString() ? value.asString().substr(0, 64 * 1024) : std::string();
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::toupper(c); });
    if (text.find("ENC[GPG,") != std::string::npos)
        return QCoreApplication::translate("SecretMask", "encrypted: GPG not supported");
    return QCoreApplication::translate("SecretMask", "encrypted (no key)");
}

} // namespace SecretMask

} // namespace hiera::ui
