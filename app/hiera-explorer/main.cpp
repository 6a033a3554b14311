// hiera-explorer [PATH] [--facts FILE] [--key KEY]
// PATH is a control repository's root directory or a hiera.yaml. Without it the bundled demo opens.
// The autosave directory can be set with HIERA_EXPLORER_AUTOSAVE_DIR.
//
// The start itself is ExplorerStartup::run (startup.cpp), which the tests' hiera-explorer-testhooks
// (tests/ui/explorer_with_test_hooks.cpp) shares: this program has no test hooks.

#include "startup.h"

int main(int argc, char* argv[])
{
    return ExplorerStartup::run(argc, argv);
}
