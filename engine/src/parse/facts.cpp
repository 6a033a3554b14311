#include <hiera/error.h>
#include <hiera/facts.h>
#include <hiera/yaml.h>

namespace hiera {

Value parseFacts(std::string_view text, const std::string& fileName)
{
    // JSON is YAML, but YAML 1.1 typing would misread some JSON scalars (1e3); use JSON typing when
    // the document starts like JSON.
    std::size_t i = 0;
    if (text.substr(0, 3) == "\xEF\xBB\xBF")
        i = 3;
    while (i < text.size() && (text[i] == ' ' || text[i] == '\n' || text[i] == '\r' || text[i] == '\t'))
        ++i;
    const bool json = i < text.size() && text[i] == '{';
    Value v;
    try {
        v = parseData(text, fileName, json ? DataFormat::Json : DataFormat::Yaml);
    } catch (const Error& e) {
        if (!json)
            throw;
        v = parseData(text, fileName, DataFormat::Yaml); // JSON-ish YAML (flow mapping) still works
    }
    if (v.isNull())
        return Value(Hash());
    if (!v.isHash())
        throw Error(ErrorCode::FactsSyntax,
                    "a facts file must contain a mapping of fact names to values, got " + std::string(v.typeName()),
                    SourceFiles::locate(v.mark()).isValid() ? SourceFiles::locate(v.mark())
                                                            : SourceLocation{fileName, 1, 1});
    // `puppet facts` prints {"name": certname, "values": {...}} (plus timestamp/expiration).
    const Hash& h = v.asHash();
    if (const Value* values = h.find("values"); values && values->isHash() && h.find("name"))
        return *values;
    return v;
}

Value loadFactsFile(const std::string& path)
{
    return parseFacts(readFile(path), path);
}

} // namespace hiera
