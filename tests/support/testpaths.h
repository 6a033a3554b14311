#pragma once

// Where a test finds the demo, its fixtures, its output folder and the built programs.
//
// Why not compile definitions: a folder baked into a test's source makes every test file a new compile
// in each clone (ccache sees a different command line), so a fresh-clone CI run recompiled the whole
// suite twice (docs/ci.md). The folders are written instead by tests/CMakeLists.txt into
// `test-paths.txt` beside the test binaries, one NAME=value a line, and read here at run time. An
// environment variable of the same name wins (HIERA_CONFORMANCE_CASES, HIERA_REALWORLD_DIR: data kept
// outside the checkout).

#include <QString>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

namespace testpaths {

namespace detail {

inline std::map<std::string, std::string> readFile()
{
    std::map<std::string, std::string> values;
    std::error_code ec;
    const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec)
        return values;
    std::ifstream in(exe.parent_path() / "test-paths.txt");
    std::string line;
    while (std::getline(in, line)) {
        const std::size_t eq = line.find('=');
        if (eq != std::string::npos)
            values.emplace(line.substr(0, eq), line.substr(eq + 1));
    }
    return values;
}

// NAME from the environment, else from test-paths.txt. `required`: a missing one ends the test run
// with one line saying what is missing (a build that did not write the file is broken, not skipped).
inline QString value(const char* name, bool required = true)
{
    if (const char* env = std::getenv(name); env && *env)
        return QString::fromLocal8Bit(env);
    static const std::map<std::string, std::string> file = readFile();
    if (const auto it = file.find(name); it != file.end() && !it->second.empty())
        return QString::fromStdString(it->second);
    if (required) {
        std::fprintf(stderr, "test paths: %s is neither in the environment nor in test-paths.txt beside the test\n",
                     name);
        std::exit(2);
    }
    return {};
}

} // namespace detail

// The bundled demo (resources/demo).
inline QString demoDir()
{
    return detail::value("HIERA_DEMO_DIR");
}
// tests/fixtures.
inline QString fixtures()
{
    return detail::value("HIERA_TEST_FIXTURES");
}
// A folder of the build tree where tests may write what a person should look at afterwards.
inline QString output()
{
    return detail::value("HIERA_TEST_OUTPUT");
}
// The checkout's root.
inline QString sourceDir()
{
    return detail::value("HIERA_SOURCE_DIR");
}
// The built programs; empty when the build has none (then the tests that run them skip).
inline QString lookupBin()
{
    return detail::value("HIERA_LOOKUP_BIN", false);
}
inline QString explorerBin()
{
    return detail::value("HIERA_EXPLORER_BIN", false);
}
// The explorer with its test hooks (tests/ui/explorer_with_test_hooks.cpp).
inline QString explorerWithTestHooksBin()
{
    return detail::value("HIERA_EXPLORER_TESTHOOKS_BIN", false);
}
// Public conformance cases and real control repositories, kept beside the checkout (../shared).
inline QString conformanceCases()
{
    return detail::value("HIERA_CONFORMANCE_CASES");
}
inline QString realworldDir()
{
    return detail::value("HIERA_REALWORLD_DIR");
}
// The project's own conformance cases.
inline QString projectCases()
{
    return sourceDir() + QStringLiteral("/tests/conformance/cases");
}

} // namespace testpaths
