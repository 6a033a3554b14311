#include "cliargs.h"

#include <algorithm>
#include <array>
#include <iterator>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <variant>

const char* const kUsage =
    "Usage: hiera-lookup --config PATH [--facts FILE] [--scope FILE] [--node NAME]\n"
    "                    [--environment NAME] [--modulepath DIRS] [--hiera_config FILE]\n"
    "                    [--environmentpath DIRS] [--codedir DIR] [--revision REV]\n"
    "                    [--merge first|unique|hash|deep] [--knockout-prefix P]\n"
    "                    [--sort-merged-arrays] [--merge-hash-arrays]\n"
    "                    [--eyaml-private-key FILE] [--skip-unsupported]\n"
    "                    [--explain [--show-secrets]] [--format json|yaml|markdown|html] KEY\n"
    "       hiera-lookup --config PATH --nodes DIR|FILE [--format table|csv|json|markdown|yaml]\n"
    "                    [--merge ...] KEY\n"
    "       hiera-lookup --config PATH --nodes DIR|FILE --node NAME [--explain] KEY | --all-keys\n"
    "       hiera-lookup --config PATH --nodes DIR|FILE --diff NODE_A NODE_B [--prefix PREFIX]\n"
    "                    [--format table|markdown|json|csv] [--show-secrets]\n"
    "       hiera-lookup --config PATH [--facts FILE] [--node NAME] [--revision REV] --all-keys\n"
    "                    [--format yaml|json|csv] [--show-secrets]\n"
    "       hiera-lookup --config PATH --diff-facts FILE_A FILE_B [--prefix PREFIX]\n"
    "                    [--format table|markdown|json|csv] [--show-secrets]\n"
    "       hiera-lookup --config PATH --nodes DIR|FILE --revision-diff OLD [--to NEW]\n"
    "                    [--prefix PREFIX] [--format yaml|json|markdown|html] [--fail-on-change]\n"
    "                    [--show-secrets]\n"
    "       hiera-lookup --config PATH --nodes DIR|FILE --impact FILE [--format yaml|json|markdown]\n"
    "\n"
    "Looks up KEY (dotted keys dig into the value: profile::ntp.servers.0) the way `puppet lookup`\n"
    "does, in Puppet's three layers: the global hiera.yaml (--hiera_config), the environment at PATH\n"
    "and the modules on its modulepath that have a hiera.yaml.\n"
    "\n"
    "  --config PATH          the environment: a control repository's directory or its hiera.yaml\n"
    "                         (version 5); its modules are found through environment.conf's\n"
    "                         modulepath (default site:site-modules:modules)\n"
    "  --hiera_config FILE    the global layer's hiera.yaml (optional; alone, the only layer)\n"
    "  --environment NAME     $environment (default production, as puppet lookup)\n"
    "  --modulepath DIRS      ':'-separated module directories, relative to PATH (replaces\n"
    "                         environment.conf's)\n"
    "  --environmentpath DIRS where Puppet deploys environments (':'-separated): PATH is read as\n"
    "                         <DIR>/NAME, so that a datadir written as the deployed path (r10k's\n"
    "                         /etc/puppetlabs/code/environments/%{environment}/hieradata) is read\n"
    "                         from PATH. Default: /etc/puppetlabs/code/environments and Debian's\n"
    "                         /etc/puppet/code/environments\n"
    "  --codedir DIR          Puppet's codedir (default /etc/puppetlabs/code, /etc/puppet/code):\n"
    "                         paths in it outside the environment are reported as outside PATH\n"
    "  --revision REV         read the hierarchy and its data from commit REV (a commit id, branch,\n"
    "                         tag, HEAD~2...) of the git repository holding PATH, straight from the\n"
    "                         repository (no checkout); facts are still read from disk. For a lookup,\n"
    "                         --explain and --all-keys\n"
    "  --eyaml-private-key FILE  the PEM key for eyaml levels whose pkcs7_private_key cannot be\n"
    "                         read; without any key, ENC[...] values stay encrypted (a warning)\n"
    "  --skip-unsupported     skip levels whose function this engine cannot run (hiera_vault, a\n"
    "                         custom data_hash...) with a warning, instead of failing when consulted\n"
    "  --facts FILE           facts, YAML or JSON (facter -y/-j, or `puppet facts` output);\n"
    "                         each fact is visible as facts.NAME and as top-scope NAME\n"
    "  --scope FILE           a YAML or JSON hash used as the raw scope tree (wins over --facts)\n"
    "  --node NAME            sets trusted.certname\n"
    "  --nodes DIR|FILE       look KEY up on every node of a library: a directory of facts files\n"
    "                         (one node each) or a PuppetDB factsets export; prints the nodes\n"
    "                         grouped by value (--format table, the default, csv, json, markdown\n"
    "                         or yaml); bad facts files are named on stderr and skipped.\n"
    "                         With --node NAME, the library gives that node's facts to a lookup\n"
    "                         or to --all-keys\n"
    "  --diff A B             with --nodes, compare nodes A and B of the library as --diff-facts\n"
    "                         does\n"
    "  --merge STRATEGY       first, unique, hash or deep; overrides lookup_options\n"
    "  --knockout-prefix P    deep merge: values starting with P knock out lower values\n"
    "  --sort-merged-arrays   deep merge: sort merged arrays\n"
    "  --merge-hash-arrays    deep merge: merge arrays of hashes element by element\n"
    "  --explain              print how the value was found (Puppet's --explain, plus file:line)\n"
    "  --show-secrets         with --explain, show decrypted eyaml values (default: <sensitive>)\n"
    "  --format json|yaml     output format (default yaml); with --explain, json prints the trace,\n"
    "                         markdown and html the explanation report the explorer exports (the\n"
    "                         facts used, every level and file consulted, each leaf's file:line and\n"
    "                         what it overrode)\n"
    "  --all-keys             print every key the node's data files define, each resolved as\n"
    "                         `hiera-lookup KEY` would (with its lookup_options merge): yaml and json\n"
    "                         a hash key -> value, csv a table with each key's level, file and merge\n"
    "  --diff-facts A B       compare the nodes of two facts files: every key either defines,\n"
    "                         resolved on both; print the keys whose answers differ (format table,\n"
    "                         markdown, json or csv) with the files each side's value comes from\n"
    "  --revision-diff OLD    with --nodes, every key whose answer changes on some node of the\n"
    "                         library between commit OLD and NEW (--to NEW; default: the working\n"
    "                         tree, uncommitted edits included), grouped by change: before, after,\n"
    "                         the nodes, the file:line behind each side. Only what the change can\n"
    "                         reach is recomputed, and the result says how much and why\n"
    "  --to NEW               with --revision-diff, the newer revision (a commit, branch, tag)\n"
    "  --fail-on-change       with --revision-diff, exit 3 when any answer changed\n"
    "  --impact FILE          with --nodes, the nodes of the library that read the data file FILE,\n"
    "                         and each key it defines that takes its value from it on some node: as\n"
    "                         the winner, or as a contributor to a merge\n"
    "  --prefix PREFIX        with --diff-facts, --diff or --revision-diff, only keys starting with\n"
    "                         PREFIX (e.g. profile::)\n"
    "  --no-cache             do not use the cache of parsed data files\n"
    "                         (~/.cache/hiera-explorer/parsed, or $HIERA_CACHE_DIR; empty disables)\n"
    "  --help, --version\n"
    "\n"
    "Exit status: 0 found (value on stdout), 1 not found (nothing on stdout), 2 error (message on stderr).\n"
    "--nodes: 0 when at least one node found KEY, 1 when none did, 2 when nothing could be run.\n"
    "--all-keys: 0, or 2 when some keys failed (the others printed, each failure on stderr).\n"
    "--diff-facts, --diff: as diff(1): 0 no differences, 1 differences, 2 error (also when keys fail on\n"
    "both nodes).\n"
    "--revision-diff: 0, or 3 with --fail-on-change when any answer changed; 2 error.\n"
    "--impact: 0 (also when no node reads the file); 2 error (no such file, or it does not parse).\n";

namespace {

using Mode = CliArgs::Mode;
using Format = CliArgs::Format;

[[noreturn]] void usageError(const std::string& message)
{
    throw std::invalid_argument(message);
}

// The command line as read, before its mode is checked: CliArgs, and what only counts once every
// option is read (the merge, the format, --prefix, the modes asked for).
// Until the mode is checked, `mode` is the one the last of --diff-facts, --diff, --revision-diff and
// --impact chose.
struct Given : CliArgs
{
    std::optional<std::string> mergeName;
    std::optional<std::string> knockout;
    bool sort = false, hashArrays = false;
    std::optional<std::string> formatName;
    bool prefixGiven = false;
    std::array<bool, 7> modes{}; // by Mode: which options choosing a mode were given

    bool asked(Mode m) const { return modes[static_cast<std::size_t>(m)]; }
    void choose(Mode m)
    {
        modes[static_cast<std::size_t>(m)] = true;
        // --all-keys is a switch: it does not count as the last mode chosen, which decides the first
        // conflict reported (chooseMode).
        if (m != Mode::AllKeys)
            mode = m;
    }
};

// ':'-separated directories (--modulepath, --environmentpath); empty entries are dropped.
std::vector<std::string> splitColons(const std::string& v)
{
    std::vector<std::string> dirs;
    for (std::size_t pos = 0; pos <= v.size();) {
        std::size_t colon = v.find(':', pos);
        if (colon == std::string::npos)
            colon = v.size();
        if (colon > pos)
            dirs.push_back(v.substr(pos, colon - pos));
        pos = colon + 1;
    }
    return dirs;
}

using Values = std::vector<std::string>;

// What an option does with its values where a plain switch or value is not enough.
struct Custom
{
    int values; // 1, or 2 (such an option may be given once)
    void (*set)(Given&, const Values&);
    const char* tooFew = nullptr; // with two values: the message when fewer follow
};

// One option of the command line (kUsage describes them). Its value is the next argument, or follows
// '=' (--format=json), taken as is even when it starts with "--" (--knockout-prefix --). Of two values,
// the second is the next argument (--diff-facts=A B). A switch ignores a value after '='.
struct Option
{
    std::string_view name;
    std::string_view alias; // another spelling, or empty
    // What it sets: a switch (bool), the value (string), or what a Custom does; --all-keys only chooses.
    std::variant<std::monostate, bool Given::*, std::string Given::*, std::optional<std::string> Given::*, Custom> sets;
    const char* ifEmpty = nullptr; // the value may not be empty: the message
    std::optional<Mode> chooses = {}; // the mode it asks for (checked in chooseMode)

    int values() const
    {
        if (const auto* custom = std::get_if<Custom>(&sets))
            return custom->values;
        return std::holds_alternative<std::string Given::*>(sets)
                || std::holds_alternative<std::optional<std::string> Given::*>(sets)
            ? 1
            : 0;
    }
};

// The options whose values need more than a plain assignment.
void addEnvironmentPath(Given& g, const Values& v)
{
    for (auto& dir : splitColons(v[0]))
        g.environmentPath.push_back(std::move(dir));
    if (g.environmentPath.empty()) // counting the directories of an earlier --environmentpath
        usageError("--environmentpath needs a directory");
}
void setModulepath(Given& g, const Values& v)
{
    g.modulepath = splitColons(v[0]); // replaces environment.conf's, and an earlier --modulepath
}
void setPrefix(Given& g, const Values& v)
{
    g.prefix = v[0];
    g.prefixGiven = true;
}
void setDiffFacts(Given& g, const Values& v)
{
    g.diffFacts = v;
}
void setDiffNodes(Given& g, const Values& v)
{
    g.diffNodes = v;
}

// clang-format off
const Option kOptions[] = {
    // name               alias                 sets                      if the value is empty; the mode it chooses
    {"--help",            "-h",                 &Given::help},
    {"--version",         "",                   &Given::version},
    {"--config",          "-c",                 &Given::config},
    {"--hiera_config",    "--hiera-config",     &Given::globalConfig},
    {"--environment",     "",                   &Given::environment,      "--environment needs a name"},
    {"--environmentpath", "",                   Custom{1, addEnvironmentPath}},
    {"--codedir",         "",                   &Given::codedir,          "--codedir needs a directory"},
    {"--revision",        "",                   &Given::revision,
                               "--revision needs a revision (a commit id, a branch, a tag)"},
    {"--modulepath",      "",                   Custom{1, setModulepath}},
    {"--eyaml-private-key", "",                 &Given::eyamlPrivateKey},
    {"--skip-unsupported", "",                  &Given::skipUnsupported},
    {"--show-secrets",    "",                   &Given::showSecrets},
    {"--facts",           "",                   &Given::factsFile},
    {"--scope",           "",                   &Given::scopeFile},
    {"--node",            "",                   &Given::node},
    {"--merge",           "",                   &Given::mergeName},
    {"--knockout-prefix", "--knock-out-prefix", &Given::knockout},
    {"--sort-merged-arrays", "",                &Given::sort},
    {"--merge-hash-arrays", "",                 &Given::hashArrays},
    {"--no-cache",        "",                   &Given::noCache},
    {"--explain",         "",                   &Given::explain},
    {"--format",          "--render-as",        &Given::formatName},
    {"--nodes",           "",                   &Given::nodesPath,        "--nodes needs a directory or a file"},
    {"--all-keys",        "",                   std::monostate(),         nullptr, Mode::AllKeys},
    {"--diff-facts",      "",                   Custom{2, setDiffFacts, "--diff-facts needs two facts files"},
                                                                          nullptr, Mode::DiffFacts},
    {"--diff",            "",                   Custom{2, setDiffNodes, "--diff needs two node names"},
                                                                          nullptr, Mode::DiffNodes},
    {"--revision-diff",   "",                   &Given::revisionDiffFrom,
                               "--revision-diff needs a revision (a commit id, a branch, a tag)", Mode::RevisionDiff},
    {"--to",              "",                   &Given::revisionDiffTo,
                               "--to needs a revision (a commit id, a branch, a tag)"},
    {"--impact",          "",                   &Given::impactFile,       "--impact needs a data file", Mode::Impact},
    {"--fail-on-change",  "",                   &Given::failOnChange},
    {"--prefix",          "",                   Custom{1, setPrefix}},
};
// clang-format on

void apply(Given& g, const Option& option, const Values& values)
{
    if (auto* flag = std::get_if<bool Given::*>(&option.sets))
        g.*(*flag) = true;
    else if (auto* text = std::get_if<std::string Given::*>(&option.sets))
        g.*(*text) = values[0];
    else if (auto* optional = std::get_if<std::optional<std::string> Given::*>(&option.sets))
        g.*(*optional) = values[0];
    else if (auto* custom = std::get_if<Custom>(&option.sets))
        custom->set(g, values);
    if (option.ifEmpty && values[0].empty())
        usageError(option.ifEmpty);
    if (option.chooses)
        g.choose(*option.chooses);
}

// Reads the arguments in order through kOptions; a value's own check (--environment needs a name)
// fails at once, before the arguments after it are read.
Given readArguments(const std::vector<std::string>& args)
{
    Given g;
    std::array<bool, std::size(kOptions)> seen{};
    bool endOfOptions = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string arg = args[i];
        std::optional<std::string> inlineValue;
        if (!endOfOptions && arg.rfind("--", 0) == 0 && arg.size() > 2) {
            if (auto eq = arg.find('='); eq != std::string::npos) {
                inlineValue = arg.substr(eq + 1);
                arg = arg.substr(0, eq);
            }
        }
        if (endOfOptions || arg.empty() || arg[0] != '-' || arg == "-") {
            if (!g.key.empty())
                usageError("only one KEY may be given (got '" + g.key + "' and '" + arg + "')");
            g.key = arg;
            continue;
        }
        if (arg == "--") {
            endOfOptions = true;
            continue;
        }
        const auto* option = std::find_if(std::begin(kOptions), std::end(kOptions), [&](const Option& o) {
            return arg == o.name || (!o.alias.empty() && arg == o.alias);
        });
        if (option == std::end(kOptions))
            usageError("unknown option " + arg);
        const int count = option->values();
        bool& given = seen[static_cast<std::size_t>(option - std::begin(kOptions))];
        if (count == 2 && given)
            usageError(arg + " may be given once");
        given = true;
        if (count == 2 && (inlineValue ? 1 : 0) + (args.size() - i - 1) < 2)
            usageError(std::get<Custom>(option->sets).tooFew);
        Values values;
        for (int n = 0; n < count; ++n) {
            if (n == 0 && inlineValue)
                values.push_back(*inlineValue);
            else if (i + 1 < args.size())
                values.push_back(args[++i]);
            else
                usageError(arg + " needs a value");
        }
        apply(g, *option, values);
    }
    return g;
}

// The mode the options ask for, after the conflicts between the options that choose one. Checked on
// what was given, except that --all-keys against --diff-facts or --diff is reported when one of those
// was the last mode chosen (otherwise --revision-diff or --impact reports it).
Mode chooseMode(const Given& g)
{
    const bool allKeys = g.asked(Mode::AllKeys), diffFacts = g.asked(Mode::DiffFacts),
               diffNodes = g.asked(Mode::DiffNodes);
    if (diffFacts && diffNodes)
        usageError("--diff-facts and --diff cannot be used together");
    if (allKeys && (g.mode == Mode::DiffFacts || g.mode == Mode::DiffNodes))
        usageError(std::string("--all-keys and ") + (g.mode == Mode::DiffFacts ? "--diff-facts" : "--diff")
                   + " cannot be used together");
    if (g.asked(Mode::RevisionDiff)) {
        // A mode of its own: the library's nodes on two revisions, every key. --impact with it is
        // reported after its own checks (checkRevisionDiff).
        if (allKeys || diffFacts || diffNodes)
            usageError(std::string("--revision-diff cannot be used with ")
                       + (allKeys         ? "--all-keys"
                              : diffFacts ? "--diff-facts"
                                          : "--diff"));
        return Mode::RevisionDiff;
    }
    if (!g.revisionDiffTo.empty() || g.failOnChange)
        usageError(std::string(!g.revisionDiffTo.empty() ? "--to" : "--fail-on-change") + " needs --revision-diff OLD");
    if (g.asked(Mode::Impact)) {
        // A mode of its own: one data file against every node of the library.
        if (allKeys || diffFacts || diffNodes)
            usageError(std::string("--impact cannot be used with ")
                       + (allKeys         ? "--all-keys"
                              : diffFacts ? "--diff-facts"
                                          : "--diff"));
        return Mode::Impact;
    }
    if (allKeys)
        return Mode::AllKeys;
    if (diffFacts)
        return Mode::DiffFacts;
    if (diffNodes)
        return Mode::DiffNodes;
    // --nodes alone looks KEY up on every node of the library; with --node NAME, on that node only.
    return !g.nodesPath.empty() && g.node.empty() ? Mode::Fleet : Mode::Lookup;
}

// The checks each mode makes on the other options, in the order they are reported.

// --revision REV reads the repository holding --config; `conflict` is the mode's option, or null when
// the mode can read a revision.
void checkRevision(const Given& g, const char* conflict = nullptr)
{
    if (g.revision.empty())
        return;
    if (g.config.empty())
        usageError("--revision reads the repository holding --config PATH: give it");
    if (conflict)
        usageError(std::string("--revision cannot be used with ") + conflict);
}

void checkLibraryGivesFacts(const Given& g)
{
    if (!g.factsFile.empty() || !g.scopeFile.empty())
        usageError("--nodes gives the facts: it cannot be used with --facts or --scope");
}

// The modes that resolve every key themselves take no KEY, no --explain and no --merge.
void checkEveryKey(const Given& g, const std::string& flag)
{
    if (!g.key.empty())
        usageError(flag + " takes no KEY (got '" + g.key + "')");
    if (g.explain)
        usageError(flag + " cannot be used with --explain");
    if (g.mergeName)
        usageError(flag + " cannot be used with --merge: each key has its own lookup_options");
}

void checkKeyGiven(const Given& g)
{
    if (g.key.empty())
        usageError("a KEY to look up is required");
}

void checkNoPrefix(const Given& g)
{
    if (g.prefixGiven)
        usageError("--prefix needs --diff-facts, --diff or --revision-diff");
}

void checkLookup(const Given& g)
{
    checkRevision(g);
    if (!g.nodesPath.empty())
        checkLibraryGivesFacts(g); // with --node NAME: that node's facts
    checkKeyGiven(g);
    checkNoPrefix(g);
}

void checkAllKeys(const Given& g)
{
    checkRevision(g);
    if (!g.nodesPath.empty()) {
        checkLibraryGivesFacts(g);
        if (g.node.empty())
            usageError("--nodes with --all-keys needs --node NAME: the node of the library to resolve");
    }
    checkEveryKey(g, "--all-keys");
    checkNoPrefix(g);
}

void checkDiffFacts(const Given& g)
{
    checkRevision(g, "--diff-facts");
    if (!g.nodesPath.empty())
        usageError("--nodes cannot be used with --diff-facts (--diff compares two nodes of the library)");
    checkEveryKey(g, "--diff-facts");
    if (!g.factsFile.empty() || !g.node.empty() || !g.scopeFile.empty())
        usageError("--diff-facts cannot be used with --facts, --node or --scope: each facts file is one node");
}

void checkFleet(const Given& g)
{
    if (!g.revision.empty()) {
        checkRevision(g);
        usageError("--revision cannot be used with --nodes alone (give --node NAME)");
    }
    checkLibraryGivesFacts(g);
    if (g.explain)
        usageError("--explain explains one node: give --node NAME with --nodes");
    checkKeyGiven(g);
    checkNoPrefix(g);
}

void checkDiffNodes(const Given& g)
{
    checkRevision(g, "--diff");
    if (g.nodesPath.empty())
        usageError("--diff compares two nodes of a library: give it with --nodes DIR|FILE (or use --diff-facts FILE_A "
                   "FILE_B)");
    checkLibraryGivesFacts(g);
    if (!g.node.empty())
        usageError("--diff names its two nodes: it cannot be used with --node");
    checkEveryKey(g, "--diff");
}

void checkRevisionDiff(const Given& g)
{
    if (!g.revision.empty())
        usageError("--revision-diff names its revisions: use --revision-diff OLD --to NEW, not --revision");
    if (g.config.empty())
        usageError("--revision-diff reads the repository holding --config PATH: give it");
    if (g.nodesPath.empty())
        usageError("--revision-diff compares the nodes of a library: give it with --nodes DIR|FILE");
    if (!g.factsFile.empty() || !g.scopeFile.empty() || !g.node.empty())
        usageError("--revision-diff compares every node of --nodes: it cannot be used with --facts, --scope or "
                   "--node");
    if (g.asked(Mode::Impact))
        usageError("--impact cannot be used with --revision-diff");
    checkEveryKey(g, "--revision-diff");
}

void checkImpact(const Given& g)
{
    if (g.nodesPath.empty())
        usageError("--impact reads a data file against the nodes of a library: give it with --nodes DIR|FILE");
    if (!g.factsFile.empty() || !g.scopeFile.empty() || !g.node.empty())
        usageError("--impact reads the file for every node of --nodes: it cannot be used with --facts, --scope or "
                   "--node");
    checkRevision(g);
    checkEveryKey(g, "--impact");
    checkNoPrefix(g);
}

// Each mode: its checks and the formats it prints, the first being the default. "s" (puppet lookup's
// name for yaml) and "md" are accepted but not listed in messages.
struct ModeRules
{
    Mode mode;
    const char* flag; // the option that chooses it, as messages name it
    void (*check)(const Given&);
    std::vector<std::pair<std::string, Format>> formats;
};

const ModeRules& rulesOf(Mode mode)
{
    using F = Format;
    static const ModeRules rules[] = {
        {Mode::Lookup,
         nullptr,
         checkLookup,
         {{"yaml", F::Yaml},
          {"s", F::Yaml},
          {"json", F::Json},
          {"markdown", F::Markdown},
          {"md", F::Markdown},
          {"html", F::Html}}},
        {Mode::AllKeys, "--all-keys", checkAllKeys, {{"yaml", F::Yaml}, {"json", F::Json}, {"csv", F::Csv}}},
        {Mode::DiffFacts,
         "--diff-facts",
         checkDiffFacts,
         {{"table", F::Table}, {"markdown", F::Markdown}, {"json", F::Json}, {"csv", F::Csv}}},
        {Mode::Fleet,
         "--nodes",
         checkFleet,
         {{"table", F::Table},
          {"csv", F::Csv},
          {"json", F::Json},
          {"markdown", F::Markdown},
          {"md", F::Markdown},
          {"yaml", F::Yaml}}},
        {Mode::DiffNodes,
         "--diff",
         checkDiffNodes,
         {{"table", F::Table}, {"markdown", F::Markdown}, {"json", F::Json}, {"csv", F::Csv}}},
        {Mode::RevisionDiff,
         "--revision-diff",
         checkRevisionDiff,
         {{"yaml", F::Yaml}, {"json", F::Json}, {"markdown", F::Markdown}, {"md", F::Markdown}, {"html", F::Html}}},
        {Mode::Impact,
         "--impact",
         checkImpact,
         {{"yaml", F::Yaml}, {"json", F::Json}, {"markdown", F::Markdown}, {"md", F::Markdown}}},
    };
    return *std::find_if(std::begin(rules), std::end(rules), [&](const ModeRules& r) { return r.mode == mode; });
}

// The formats each mode prints: a lookup a value, --all-keys the node's data, --diff-facts a report,
// --nodes the nodes grouped by value.
Format chooseFormat(const Given& g, const ModeRules& rules)
{
    if (!g.formatName)
        return rules.formats.front().second;
    const std::string& name = *g.formatName;
    const auto it =
        std::find_if(rules.formats.begin(), rules.formats.end(), [&](const auto& f) { return f.first == name; });
    if (it == rules.formats.end()) {
        if (rules.mode == Mode::Lookup)
            usageError("--format must be json or yaml (with --explain also markdown or html), not '" + name + "'");
        std::string names;
        for (const auto& f : rules.formats)
            if (f.first != "s" && f.first != "md")
                names += (names.empty() ? "" : ", ") + f.first;
        usageError("--format must be one of " + names + " with " + rules.flag + ", not '" + name + "'");
    }
    // The explanation report: a value alone has no Markdown or HTML form.
    if (rules.mode == Mode::Lookup && (it->second == Format::Markdown || it->second == Format::Html) && !g.explain)
        usageError("--format " + name + " writes the explanation report: it needs --explain");
    return it->second;
}

// --merge and the deep merge's options.
std::optional<hiera::MergeSpec> chooseMerge(const Given& g)
{
    std::optional<hiera::MergeSpec> merge;
    if (g.mergeName) {
        const auto strategy = hiera::mergeStrategyFromName(*g.mergeName);
        if (!strategy)
            usageError("--merge must be first, unique, hash or deep, not '" + *g.mergeName + "'");
        merge.emplace().strategy = *strategy;
    }
    if (g.knockout || g.sort || g.hashArrays) {
        if (!merge || merge->strategy != hiera::MergeStrategy::Deep)
            usageError("--knockout-prefix, --sort-merged-arrays and --merge-hash-arrays need --merge deep");
        if (g.knockout && g.knockout->empty())
            usageError("--knockout-prefix cannot be empty");
        merge->knockoutPrefix = g.knockout;
        merge->sortMergedArrays = g.sort;
        merge->mergeHashArrays = g.hashArrays;
    }
    return merge;
}

} // namespace

CliArgs parseCliArgs(const std::vector<std::string>& args)
{
    Given g = readArguments(args);
    if (g.help || g.version)
        return g;
    if (g.config.empty() && g.globalConfig.empty())
        usageError("--config PATH is required");
    const ModeRules& rules = rulesOf(chooseMode(g));
    rules.check(g);
    g.mode = rules.mode;
    g.format = chooseFormat(g, rules);
    g.merge = chooseMerge(g);
    return g;
}
