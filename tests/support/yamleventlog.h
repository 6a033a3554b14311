#pragma once

// Records a YAML event stream as text, one event a line with its mark, so that two parsers can be
// compared event by event (tests/engine/tst_blockyaml.cpp, fuzz/fuzz_blockyaml.cpp). Document
// start and end are left out: the engine's builder ignores them.

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <sstream>
#include <string>
#include <string_view>

namespace hiera::testing {

class YamlEventLog : public YAML::EventHandler
{
public:
    std::string text;

    void OnDocumentStart(const YAML::Mark&) override { }
    void OnDocumentEnd() override { }
    void OnNull(const YAML::Mark& m, YAML::anchor_t a) override { add("null", m, a); }
    void OnAlias(const YAML::Mark& m, YAML::anchor_t a) override { add("alias", m, a); }
    void OnScalar(const YAML::Mark& m, const std::string& tag, YAML::anchor_t a, const std::string& value) override
    {
        add("scalar " + tag, m, a);
        text += " [" + value + "]";
    }
    void OnSequenceStart(const YAML::Mark& m, const std::string& tag, YAML::anchor_t a,
                         YAML::EmitterStyle::value) override
    {
        add("seq " + tag, m, a);
    }
    void OnSequenceEnd() override { text += "\nend seq"; }
    void OnMapStart(const YAML::Mark& m, const std::string& tag, YAML::anchor_t a, YAML::EmitterStyle::value) override
    {
        add("map " + tag, m, a);
    }
    void OnMapEnd() override { text += "\nend map"; }

private:
    void add(const std::string& what, const YAML::Mark& m, YAML::anchor_t a)
    {
        text += "\n" + what + " " + std::to_string(m.line) + ":" + std::to_string(m.column) + "@"
            + std::to_string(m.pos) + (a ? " &" + std::to_string(a) : "");
    }
};

// yaml-cpp's events for the first document of `yaml`; `ok` is false when yaml-cpp refuses it.
inline std::string yamlCppEvents(std::string_view yaml, bool& ok)
{
    YamlEventLog log;
    std::istringstream in{std::string(yaml)};
    try {
        YAML::Parser parser(in);
        parser.HandleNextDocument(log);
        ok = true;
    } catch (const YAML::Exception& e) {
        ok = false;
        log.text += "\nerror: " + e.msg;
    }
    return log.text;
}

} // namespace hiera::testing
