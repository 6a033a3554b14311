#pragma once

// Where the bundled demo hierarchy lives: installed (<prefix>/share/hiera-explorer/demo, found next
// to the executable or through XDG data dirs), or the source tree the build came from.

#include <QString>

namespace hiera::ui {

namespace Demo {

// The demo's hiera.yaml, or an empty string if no demo is found.
QString hieraYaml();
// The facts file the demo opens with (web01's, the most telling node), or empty.
QString defaultFactsFile(const QString& hieraYaml);
// The demo's node library (its facts folder: four nodes), or empty.
QString nodeLibrary(const QString& hieraYaml);
// The key the demo looks up first: a deep merge with a knockout, so every panel has something to show.
QString defaultKey();
// True for a file of the bundled demo (which the explorer reads but never writes).
bool isDemoFile(const QString& path);

} // namespace Demo

} // namespace hiera::ui
