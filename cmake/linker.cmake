# Links with GNU gold when the toolchain has it (Debian's binutils does): linking a GUI test against the
# explorer's libraries with debug info takes 1.2 s with gold against 2.2 s with GNU ld (docs/ci.md),
# and a build has some fifty such links. Not LLVM's lld, though faster still (0.5 s): g++ 12 objects
# linked by lld 14 here could not unwind an exception thrown through std::sort's comparator (tst_merge
# aborted in std::terminate). Off with -DHIERA_GOLD=OFF; without gold the default linker is used.
option(HIERA_GOLD "Link with GNU gold when it is available" ON)
if(HIERA_GOLD)
  include(CheckLinkerFlag)
  check_linker_flag(CXX "-fuse-ld=gold" HIERA_HAVE_GOLD)
  if(HIERA_HAVE_GOLD)
    add_link_options(-fuse-ld=gold)
    message(STATUS "Linker: gold")
  endif()
endif()
