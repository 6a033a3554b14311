#pragma once

// RepositoryOptions — how the explorer opens a control repository (hiera::Environment::discover): the
// environment's name ($environment), an optional global hiera.yaml (Puppet's hiera_config), where
// Puppet deploys environments (its environmentpath: absolute datadirs written as the deployed path are
// read from the checkout), the eyaml private key, and whether levels this engine cannot run are skipped.
//
// The first four belong to a repository and are remembered per repository in QSettings; the skip mode
// is one setting for all. Only paths are stored: never a key's content, never a decrypted value.

#include <hiera/environment.h>

#include <QString>

namespace hiera::ui {

struct RepositoryOptions
{
    QString environment = QStringLiteral("production"); // as `puppet lookup --environment` defaults
    QString globalHieraYaml; // empty: no global layer
    QString environmentPath; // ':'-separated directories; empty: Puppet's defaults
    QString eyamlPrivateKey; // a PEM file chosen by the user; empty: none
    bool skipUnsupportedLevels = true; // the explorer's default: show what the rest of the hierarchy says

    bool operator==(const RepositoryOptions&) const = default;

    // The options remembered for the repository at `root` (rootOf()), with the skip mode.
    static RepositoryOptions read(const QString& root);
    // Remembers the per-repository options (an empty or default value removes its entry).
    void write(const QString& root) const;

    static bool skipUnsupportedSetting();
    static void setSkipUnsupportedSetting(bool skip);

    // What the explorer calls a repository by: a directory is its hiera.yaml (which may not exist: a
    // repository may have only module data), a file is itself. Absolute, cleaned.
    static QString hieraYamlFor(const QString& path);
    // The environment's root directory for such a hiera.yaml.
    static QString rootOf(const QString& hieraYaml);

    // How hiera::Environment::discover is asked to open it (its name, global layer, environmentpath).
    hiera::EnvironmentOptions environmentOptions() const;
};

} // namespace hiera::ui
