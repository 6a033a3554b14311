#include "cliargs.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

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

[[noreturn]] void usageError(const std::string& message)
{
    throw std::invalid_argument(message);
}

} // namespace

CliArgs parseCliArgs(const std::vector<std::string>& args)
{
    CliArgs a;
    std::optional<std::string> mergeName;
    std::optional<std::string> knockout;
    bool sort = false, hashArrays = false;
    bool endOfOptions = false;
    std::optional<std::string> formatName;
    bool prefixGiven = false;
    bool allKeys = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string arg = args[i];
        std::optional<std::string> inlineValue;
        if (!endOfOptions && arg.rfind("--", 0) == 0 && arg.size() > 2) {
            if (auto eq = arg.find('='); eq != std::string::npos) {
                inlineValue = arg.substr(eq + 1);
                arg = arg.substr(0, eq);
            }
        }
        auto value = [&]() -> std::string {
            if (inlineValue)
                return *inlineValue;
            if (i + 1 >= args.size())
                usageError(arg + " needs a value");
            return args[++i]; // taken as is, even when it starts with "--" (--knockout-prefix --)
        };
        if (endOfOptions || arg.empty() || arg[0] != '-' || arg == "-") {
            if (!a.key.empty())
                usageError("only one KEY may be given (got '" + a.key + "' and '" + arg + "')");
            a.key = arg;
        } else if (arg == "--") {
            endOfOptions = true;
        } else if (arg == "--help" || arg == "-h") {
            a.help = true;
        } else if (arg == "--version") {
            a.version = true;
        } else if (arg == "--config" || arg == "-c") {
            a.config = value();
        } else if (arg == "--hiera_config" || arg == "--hiera-config") {
            a.globalConfig = value();
        } else if (arg == "--environment") {
            a.environment = value();
            if (a.environment.empty())
                usageError("--environment needs a name");
        } else if (arg == "--environmentpath") {
            const std::string v = value();
            for (std::size_t pos = 0; pos <= v.size();) {
                std::size_t colon = v.find(':', pos);
                if (colon == std::string::npos)
                    colon = v.size();
                if (colon > pos)
                    a.environmentPath.push_back(v.substr(pos, colon - pos));
                pos = colon + 1;
            }
            if (a.environmentPath.empty())
                usageError("--environmentpath needs a directory");
        } else if (arg == "--codedir") {
            a.codedir = value();
            if (a.codedir.empty())
                usageError("--codedir needs a directory");
        } else if (arg == "--revision") {
            a.revision = value();
            if (a.revision.empty())
                usageError("--revision needs a revision (a commit id, a branch, a tag)");
        } else if (arg == "--modulepath") {
            std::vector<std::string> dirs;
            const std::string v = value();
            std::size_t pos = 0;
            while (pos <= v.size()) {
                std::size_t colon = v.find(':', pos);
                if (colon == std::string::npos)
                    colon = v.size();
                if (colon > pos)
                    dirs.push_back(v.substr(pos, colon - pos));
                pos = colon + 1;
            }
            a.modulepath = std::move(dirs);
        } else if (arg == "--eyaml-private-key") {
            a.eyamlPrivateKey = value();
        } else if (arg == "--skip-unsupported") {
            a.skipUnsupported = true;
        } else if (arg == "--show-secrets") {
            a.showSecrets = true;
        } else if (arg == "--facts") {
            a.factsFile = value();
        } else if (arg == "--scope") {
            a.scopeFile = value();
        } else if (arg == "--node") {
            a.node = value();
        } else if (arg == "--merge") {
            mergeName = value();
        } else if (arg == "--knockout-prefix" || arg == "--knock-out-prefix") {
            knockout = value();
        } else if (arg == "--sort-merged-arrays") {
            sort = true;
        } else if (arg == "--merge-hash-arrays") {
            hashArrays = true;
        } else if (arg == "--no-cache") {
            a.noCache = true;
        } else if (arg == "--explain") {
            a.explain = true;
        } else if (arg == "--format" || arg == "--render-as") {
            formatName = value();
        } else if (arg == "--nodes") {
            a.nodesPath = value();
            if (a.nodesPath.empty())
                usageError("--nodes needs a directory or a file");
        } else if (arg == "--all-keys") {
            allKeys = true;
        } else if (arg == "--diff-facts") {
            if (!a.diffFacts.empty())
                usageError("--diff-facts may be given once");
            a.mode = CliArgs::Mode::DiffFacts;
            // Two values: FILE_A FILE_B (or --diff-facts=FILE_A FILE_B).
            const std::size_t have = (inlineValue ? 1 : 0) + (args.size() - i - 1);
            if (have < 2)
                usageError("--diff-facts needs two facts files");
            a.diffFacts.push_back(value());
            a.diffFacts.push_back(args[++i]);
        } else if (arg == "--diff") {
            if (!a.diffNodes.empty())
                usageError("--diff may be given once");
            a.mode = CliArgs::Mode::DiffNodes;
            const std::size_t have = (inlineValue ? 1 : 0) + (args.size() - i - 1);
            if (have < 2)
                usageError("--diff needs two node names");
            a.diffNodes.push_back(value());
            a.diffNodes.push_back(args[++i]);
        } else if (arg == "--revision-diff") {
            a.revisionDiffFrom = value();
            if (a.revisionDiffFrom.empty())
                usageError("--revision-diff needs a revision (a commit id, a branch, a tag)");
            a.mode = CliArgs::Mode::RevisionDiff;
        } else if (arg == "--to") {
            a.revisionDiffTo = value();
            if (a.revisionDiffTo.empty())
                usageError("--to needs a revision (a commit id, a branch, a tag)");
        } else if (arg == "--impact") {
            a.impactFile = value();
            if (a.impactFile.empty())
                usageError("--impact needs a data file");
            a.mode = CliArgs::Mode::Impact;
        } else if (arg == "--fail-on-change") {
            a.failOnChange = true;
        } else if (arg == "--prefix") {
            a.prefix = value();
            prefixGiven = true;
        } else {
            usageError("unknown option " + arg);
        }
    }
    if (a.help || a.version)
        return a;
    if (a.config.empty() && a.globalConfig.empty())
        usageError("--config PATH is required");
    // Checked on what was given, not on the mode the last of them set.
    if (!a.diffFacts.empty() && !a.diffNodes.empty())
        usageError("--diff-facts and --diff cannot be used together");
    if (allKeys && (a.mode == CliArgs::Mode::DiffFacts || a.mode == CliArgs::Mode::DiffNodes))
        usageError(std::string("--all-keys and ") + (a.mode == CliArgs::Mode::DiffFacts ? "--diff-facts" : "--diff")
                   + " cannot be used together");
    if (!a.revisionDiffFrom.empty()) {
        // A mode of its own: the library's nodes on two revisions, every key.
        if (allKeys || !a.diffFacts.empty() || !a.diffNodes.empty())
            usageError(std::string("--revision-diff cannot be used with ")
                       + (allKeys                    ? "--all-keys"
                              : !a.diffFacts.empty() ? "--diff-facts"
                                                     : "--diff"));
        if (!a.revision.empty())
            usageError("--revision-diff names its revisions: use --revision-diff OLD --to NEW, not --revision");
        if (a.config.empty())
            usageError("--revision-diff reads the repository holding --config PATH: give it");
        if (a.nodesPath.empty())
            usageError("--revision-diff compares the nodes of a library: give it with --nodes DIR|FILE");
        if (!a.factsFile.empty() || !a.scopeFile.empty() || !a.node.empty())
            usageError("--revision-diff compares every node of --nodes: it cannot be used with --facts, --scope or "
                       "--node");
    } else if (!a.revisionDiffTo.empty() || a.failOnChange) {
        usageError(std::string(!a.revisionDiffTo.empty() ? "--to" : "--fail-on-change") + " needs --revision-diff OLD");
    }
    if (!a.impactFile.empty()) {
        // A mode of its own: one data file against every node of the library.
        if (allKeys || !a.diffFacts.empty() || !a.diffNodes.empty() || !a.revisionDiffFrom.empty())
            usageError(std::string("--impact cannot be used with ")
                       + (allKeys                    ? "--all-keys"
                              : !a.diffFacts.empty() ? "--diff-facts"
                              : !a.diffNodes.empty() ? "--diff"
                                                     : "--revision-diff"));
        if (a.nodesPath.empty())
            usageError("--impact reads a data file against the nodes of a library: give it with --nodes DIR|FILE");
        if (!a.factsFile.empty() || !a.scopeFile.empty() || !a.node.empty())
            usageError("--impact reads the file for every node of --nodes: it cannot be used with --facts, --scope or "
                       "--node");
        a.mode = CliArgs::Mode::Impact;
    }
    if (allKeys)
        a.mode = CliArgs::Mode::AllKeys;
    if (!a.revision.empty()) {
        if (a.config.empty())
            usageError("--revision reads the repository holding --config PATH: give it");
        if (a.mode == CliArgs::Mode::DiffFacts || a.mode == CliArgs::Mode::DiffNodes)
            usageError(std::string("--revision cannot be used with ")
                       + (a.mode == CliArgs::Mode::DiffFacts ? "--diff-facts" : "--diff"));
        if (!a.nodesPath.empty() && a.node.empty() && a.mode == CliArgs::Mode::Lookup)
            usageError("--revision cannot be used with --nodes alone (give --node NAME)");
    }
    if (a.mode == CliArgs::Mode::DiffNodes && a.nodesPath.empty())
        usageError("--diff compares two nodes of a library: give it with --nodes DIR|FILE (or use --diff-facts FILE_A "
                   "FILE_B)");
    if (!a.nodesPath.empty()) {
        if (a.mode == CliArgs::Mode::DiffFacts)
            usageError("--nodes cannot be used with --diff-facts (--diff compares two nodes of the library)");
        if (!a.factsFile.empty() || !a.scopeFile.empty())
            usageError("--nodes gives the facts: it cannot be used with --facts or --scope");
        if (a.mode == CliArgs::Mode::DiffNodes && !a.node.empty())
            usageError("--diff names its two nodes: it cannot be used with --node");
        if (a.mode == CliArgs::Mode::AllKeys && a.node.empty())
            usageError("--nodes with --all-keys needs --node NAME: the node of the library to resolve");
        if (a.mode == CliArgs::Mode::Lookup && a.node.empty() && a.revisionDiffFrom.empty()) {
            if (a.explain)
                usageError("--explain explains one node: give --node NAME with --nodes");
            a.mode = CliArgs::Mode::Fleet;
        }
    }
    const char* modeFlag = a.mode == CliArgs::Mode::AllKeys ? "--all-keys"
        : a.mode == CliArgs::Mode::Fleet                    ? "--nodes"
        : a.mode == CliArgs::Mode::DiffNodes                ? "--diff"
        : a.mode == CliArgs::Mode::RevisionDiff             ? "--revision-diff"
        : a.mode == CliArgs::Mode::Impact                   ? "--impact"
                                                            : "--diff-facts";
    if (a.mode == CliArgs::Mode::AllKeys || a.mode == CliArgs::Mode::DiffFacts || a.mode == CliArgs::Mode::DiffNodes
        || a.mode == CliArgs::Mode::RevisionDiff || a.mode == CliArgs::Mode::Impact) {
        if (!a.key.empty())
            usageError(std::string(modeFlag) + " takes no KEY (got '" + a.key + "')");
        if (a.explain)
            usageError(std::string(modeFlag) + " cannot be used with --explain");
        if (mergeName)
            usageError(std::string(modeFlag) + " cannot be used with --merge: each key has its own lookup_options");
    } else if (a.key.empty()) {
        usageError("a KEY to look up is required");
    }
    if (a.mode == CliArgs::Mode::DiffFacts && (!a.factsFile.empty() || !a.node.empty() || !a.scopeFile.empty()))
        usageError("--diff-facts cannot be used with --facts, --node or --scope: each facts file is one node");
    if (prefixGiven && a.mode != CliArgs::Mode::DiffFacts && a.mode != CliArgs::Mode::DiffNodes
        && a.mode != CliArgs::Mode::RevisionDiff)
        usageError("--prefix needs --diff-facts, --diff or --revision-diff");
    // The formats each mode prints: a lookup a value, --all-keys the node's data, --diff-facts a report,
    // --nodes the nodes grouped by value. The first is the default.
    using F = CliArgs::Format;
    const std::vector<std::pair<std::string, F>> formats = a.mode == CliArgs::Mode::Lookup
        ? std::vector<std::pair<std::string, F>>{{"yaml", F::Yaml},         {"s", F::Yaml},      {"json", F::Json},
                                                 {"markdown", F::Markdown}, {"md", F::Markdown}, {"html", F::Html}}
        : a.mode == CliArgs::Mode::AllKeys
        ? std::vector<std::pair<std::string, F>>{{"yaml", F::Yaml}, {"json", F::Json}, {"csv", F::Csv}}
        : a.mode == CliArgs::Mode::Fleet
        ? std::vector<std::pair<std::string, F>>{{"table", F::Table},       {"csv", F::Csv},     {"json", F::Json},
                                                 {"markdown", F::Markdown}, {"md", F::Markdown}, {"yaml", F::Yaml}}
        : a.mode == CliArgs::Mode::Impact ? std::vector<std::pair<std::string, F>>{{"yaml", F::Yaml},
                                                                                   {"json", F::Json},
                                                                                   {"markdown", F::Markdown},
                                                                                   {"md", F::Markdown}}
        : a.mode == CliArgs::Mode::RevisionDiff
        ? std::vector<std::pair<std::string, F>>{{"yaml", F::Yaml},
                                                 {"json", F::Json},
                                                 {"markdown", F::Markdown},
                                                 {"md", F::Markdown},
                                                 {"html", F::Html}}
        : std::vector<std::pair<std::string, F>>{
            {"table", F::Table}, {"markdown", F::Markdown}, {"json", F::Json}, {"csv", F::Csv}};
    a.format = formats.front().second;
    if (formatName) {
        auto it = std::find_if(formats.begin(), formats.end(), [&](const auto& f) { return f.first == *formatName; });
        if (it == formats.end()) {
            std::string names;
            for (const auto& f : formats)
                if (f.first != "s" && f.first != "md")
                    names += (names.empty() ? "" : ", ") + f.first;
            if (a.mode == CliArgs::Mode::Lookup)
                usageError("--format must be json or yaml (with --explain also markdown or html), not '" + *formatName
                           + "'");
            usageError("--format must be one of " + names + " with " + modeFlag + ", not '" + *formatName + "'");
        }
        a.format = it->second;
        // The explanation report: a value alone has no Markdown or HTML form.
        if (a.mode == CliArgs::Mode::Lookup && (a.format == F::Markdown || a.format == F::Html) && !a.explain)
            usageError("--format " + *formatName + " writes the explanation report: it needs --explain");
    }
    if (mergeName) {
        const auto strategy = hiera::mergeStrategyFromName(*mergeName);
        if (!strategy)
            usageError("--merge must be first, unique, hash or deep, not '" + *mergeName + "'");
        hiera::MergeSpec spec;
        spec.strategy = *strategy;
        a.merge = spec;
    }
    if (knockout || sort || hashArrays) {
        if (!a.merge || a.merge->strategy != hiera::MergeStrategy::Deep)
            usageError("--knockout-prefix, --sort-merged-arrays and --merge-hash-arrays need --merge deep");
        if (knockout && knockout->empty())
            usageError("--knockout-prefix cannot be empty");
        a.merge->knockoutPrefix = knockout;
        a.merge->sortMergedArrays = sort;
        a.merge->mergeHashArrays = hashArrays;
    }
    return a;
}
