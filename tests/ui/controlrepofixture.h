#pragma once

// A small control repository written into a QTemporaryDir for the explorer's tests of control repositories:
// an environment hiera.yaml whose levels read $environment, an eyaml level (tests/fixtures/eyaml's
// values and TEST key, the level's own pkcs7_private_key pointing where no key is), a hiera_vault
// level this engine cannot run, and on the modulepath a module with data and a default_hierarchy, a
// module whose hiera.yaml is broken, and a Hiera 3 one that discovery leaves out with a warning.

#include "support/testpaths.h"
#include "uitestutils.h"

#include <QFile>
#include <QTemporaryDir>

using namespace hiera::ui;

namespace UiTest {

// The fixture key (tests/fixtures/eyaml/keys: a published TEST key) and what its values decrypt to.
inline QString eyamlTestKey()
{
    return testpaths::fixtures() + QStringLiteral("/eyaml/keys/private_key.pkcs7.pem");
}
inline const char* eyamlPlaintext()
{
    return "p4ss w0rd";
} // string_form
inline const char* eyamlEmbeddedPlaintext()
{
    return "s3cret";
} // inside `embedded`

inline bool writeControlRepository(const QTemporaryDir& dir, bool withVault = true)
{
    const QByteArray hierarchy = QByteArray("version: 5\n"
                                            "defaults:\n"
                                            "  datadir: data\n"
                                            "  data_hash: yaml_data\n"
                                            "hierarchy:\n"
                                            "  - name: Per-environment\n"
                                            "    path: \"env/%{environment}.yaml\"\n"
                                            "  - name: Secrets\n"
                                            "    lookup_key: eyaml_lookup_key\n"
                                            "    path: secrets.eyaml\n"
                                            "    options:\n"
                                            "      pkcs7_private_key: /nonexistent/private_key.pkcs7.pem\n"
                                            "      pkcs7_public_key: /nonexistent/public_key.pkcs7.pem\n")
        // A path, and a file there: the engine refuses a level without one (Puppet does not), and a
        // level none of whose files exist is never consulted.
        + (withVault ? QByteArray("  - name: Vault\n"
                                  "    lookup_key: hiera_vault\n"
                                  "    path: vault.yaml\n"
                                  "    options:\n"
                                  "      address: https://vault.example.com\n")
                     : QByteArray())
        + QByteArray("  - name: Common\n"
                     "    path: common.yaml\n");
    return writeFile(dir.filePath(QStringLiteral("hiera.yaml")), hierarchy)
        && writeFiles(dir,
                      {
                          {"data/env/production.yaml", "env_name: production data\n"},
                          {"data/env/staging.yaml", "env_name: staging data\n"},
                          {"data/env/dev.yaml", "env_name: dev data\n"},
                          {"data/common.yaml", "greeting: hello\n"},
                          {"data/vault.yaml", "vault_only: true\n"},
                          {"site/ntp/hiera.yaml",
                           "version: 5\n"
                           "hierarchy:\n"
                           "  - name: ntp common\n"
                           "    path: common.yaml\n"
                           "default_hierarchy:\n"
                           "  - name: ntp defaults\n"
                           "    path: defaults.yaml\n"},
                          {"site/ntp/data/common.yaml", "ntp::servers: [a.example.com, b.example.com]\n"},
                          {"site/ntp/data/defaults.yaml", "ntp::fallback: pool.ntp.org\n"},
                          {"site/broken/hiera.yaml", "version: 5\nhierarchy: [ {name: x, path: \n"},
                          {"modules/old/hiera.yaml", "---\n:backends: yaml\n"},
                      })
        && QFile::copy(testpaths::fixtures() + QStringLiteral("/eyaml/secrets.eyaml"),
                       dir.filePath(QStringLiteral("data/secrets.eyaml")));
}

} // namespace UiTest
