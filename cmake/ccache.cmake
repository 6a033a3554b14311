# A compiler cache for every build of the project (scripts/dev.sh, the presets, fuzz/smoke.sh, CI),
# when Debian's ccache is installed and the user has not chosen a launcher. Off with -DHIERA_CCACHE=OFF.
#
# Two settings make a fresh clone in another folder hit what the working tree's builds filled
# (docs/ci.md): base_dir = this source tree, so absolute paths under it are hashed as relative ones,
# and hash_dir off, so the build directory's absolute path is not hashed either (with debug info on,
# ccache hashes it by default: 0 % hits between two clones). The price is that a cached object's debug
# info names the compile directory of the build that filled it; debuggers still find the sources
# through the relative paths. The cache itself stays where ccache keeps it by default, the user's
# cache directory (~/.cache/ccache), so a CI run after a day's work starts warm.
option(HIERA_CCACHE "Use ccache as the compiler launcher when it is installed" ON)
if(HIERA_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(HIERA_CCACHE_PROGRAM ccache)
  if(HIERA_CCACHE_PROGRAM)
    # ccache 4.7 (Debian 12) takes its settings from the environment only; cmake -E env sets them
    # for the one compile.
    set(CMAKE_CXX_COMPILER_LAUNCHER
        "${CMAKE_COMMAND}" -E env "CCACHE_BASEDIR=${CMAKE_SOURCE_DIR}" CCACHE_NOHASHDIR=1 "${HIERA_CCACHE_PROGRAM}")
    message(STATUS "Compiler cache: ${HIERA_CCACHE_PROGRAM} (base_dir ${CMAKE_SOURCE_DIR})")
  endif()
endif()
