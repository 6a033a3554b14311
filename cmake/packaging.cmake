# Debian packages with CPack (cpack -G DEB in the build folder):
#   hiera-explorer       the Runtime component: both programs, their man pages, the desktop entry, icon
#                        and AppStream metadata, the demo hierarchy
#   libhiera-engine-dev  the Development component: the engine's headers, libhiera-engine.a,
#                        find_package(HieraEngine) and hiera-engine.pc
# The runtime package's Depends is computed by dpkg-shlibdeps from the libraries the programs link
# (apt-get install dpkg-dev), not listed by hand.
set(CPACK_PACKAGE_NAME hiera-explorer)
set(CPACK_PACKAGE_VENDOR "Hiera Explorer")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
# Each package's description starts with its own synopsis line (CPACK_DEBIAN_<COMPONENT>_DESCRIPTION
# below); an empty common summary keeps CPack from putting the project's in front of both.
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "")
set(CPACK_PACKAGE_CONTACT "Hiera Explorer maintainers <maintainers@users.noreply.a-seed-bb6fa2cf.example>")
set(CPACK_STRIP_FILES ON) # the programs; a static library keeps its symbols
set(CPACK_COMPONENTS_ALL Runtime Development)

set(CPACK_GENERATOR DEB)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME hiera-explorer)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION
  "Hiera 5 lookups without Puppet: command line and desktop explorer
hiera-lookup answers `puppet lookup` questions from a hiera.yaml and a facts file.
Hiera Explorer shows which files were consulted for a key, which of them had it,
how they merged, and the file and line every leaf of the value comes from, live as
facts are edited. A demo hierarchy is included.")

set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_NAME libhiera-engine-dev)
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_SECTION libdevel)
# A static library: its users compile against yaml-cpp's CMake package and link libyaml-cpp, so the
# -dev package is what it needs (dpkg-shlibdeps sees no shared object here to compute from).
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_DEPENDS "libyaml-cpp-dev, libonig-dev, libssl-dev, libgit2-dev, pkg-config")
set(CPACK_DEBIAN_DEVELOPMENT_DESCRIPTION
  "Hiera 5 lookup engine: C++20 static library, headers, CMake and pkg-config files
The engine behind hiera-lookup and Hiera Explorer: load a hiera.yaml, look keys up
for a node through any hiera::Scope, with Puppet's merge strategies and --explain
trace. find_package(HieraEngine) gives the target hiera::engine; pkg-config
--static hiera-engine gives the flags.")

include(CPack)
