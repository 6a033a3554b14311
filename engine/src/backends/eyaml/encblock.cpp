#include "backends/eyaml/encblock.h"

namespace hiera::detail {

namespace {

constexpr std::string_view kOpen = "ENC[";

bool isWordChar(char c) // Ruby's \w: ASCII only
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool isPayloadChar(char c) // [A-Za-z0-9+\/ =\n]
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '+' || c == '/'
        || c == ' ' || c == '=' || c == '\n';
}

// The end of a payload starting at `from` (one past its `]`), or npos. The lazy `+?` followed by `]`,
// which is outside the payload alphabet, can only end at the first character that is not payload.
std::size_t payloadEnd(std::string_view text, std::size_t from)
{
    std::size_t i = from;
    while (i < text.size() && isPayloadChar(text[i]))
        ++i;
    if (i == from || i >= text.size() || text[i] != ']')
        return std::string_view::npos;
    return i + 1;
}

// Tries the block regex at `at` (where `ENC[` starts); fills `piece` on a match.
bool matchBlock(std::string_view text, std::size_t at, EncPiece& piece)
{
    const std::size_t body = at + kOpen.size();
    // (\w+,)? is tried first. \w has no comma, so the group can only be the run of word characters up to
    // the first comma.
    std::size_t i = body;
    while (i < text.size() && isWordChar(text[i]))
        ++i;
    if (i > body && i < text.size() && text[i] == ',') {
        const std::size_t end = payloadEnd(text, i + 1);
        if (end != std::string_view::npos) {
            piece = {EncPiece::Kind::Block, text.substr(at, end - at), text.substr(body, i - body), true,
                     text.substr(i + 1, end - 1 - (i + 1))};
            return true;
        }
    }
    // Without the group: the payload starts right after `ENC[`.
    const std::size_t end = payloadEnd(text, body);
    if (end == std::string_view::npos)
        return false;
    piece = {EncPiece::Kind::Block, text.substr(at, end - at), kDefaultEncScheme, false,
             text.substr(body, end - 1 - body)};
    return true;
}

} // namespace

bool containsEncBlock(std::string_view text)
{
    // Ruby's `.` matches anything but "\n": look line by line. Only a line's first `ENC[` matters: a `]`
    // after a later one is also after the first.
    std::size_t lineStart = 0;
    while (lineStart <= text.size()) {
        std::size_t lineEnd = text.find('\n', lineStart);
        if (lineEnd == std::string_view::npos)
            lineEnd = text.size();
        const std::string_view line = text.substr(lineStart, lineEnd - lineStart);
        const std::size_t open = line.find(kOpen);
        if (open != std::string_view::npos && line.find(']', open + kOpen.size()) != std::string_view::npos)
            return true;
        lineStart = lineEnd + 1;
    }
    return false;
}

std::vector<EncPiece> splitEncBlocks(std::string_view text)
{
    std::vector<EncPiece> pieces;
    std::size_t textStart = 0; // start of the text not yet emitted
    std::size_t searchFrom = 0;
    while (true) {
        const std::size_t at = text.find(kOpen, searchFrom);
        if (at == std::string_view::npos)
            break;
        EncPiece block;
        if (!matchBlock(text, at, block)) {
            searchFrom = at + 1;
            continue;
        }
        if (at > textStart)
            pieces.push_back({EncPiece::Kind::Text, text.substr(textStart, at - textStart), {}, false, {}});
        pieces.push_back(block);
        textStart = searchFrom = at + block.text.size();
    }
    if (textStart < text.size())
        pieces.push_back({EncPiece::Kind::Text, text.substr(textStart), {}, false, {}});
    return pieces;
}

} // namespace hiera::detail
