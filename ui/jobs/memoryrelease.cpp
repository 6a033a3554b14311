#include "jobs/memoryrelease.h"

#include <atomic>

#if defined(__GLIBC__)
#include <malloc.h>

namespace hiera::ui {

#endif

// tcmalloc's C entry point, referenced weakly: it is non-null only when libtcmalloc is linked (the
// explorer, with HIERA_TCMALLOC), so the tests and builds without tcmalloc link the same library.
#if defined(__GNUC__) && defined(__ELF__)
extern "C" void MallocExtension_ReleaseFreeMemory(void) __attribute__((weak));
#define HIERA_HAVE_WEAK_TCMALLOC 1
#endif

namespace {
std::atomic<int> s_releases{0};
}

namespace MemoryRelease {

void release()
{
    ++s_releases;
#ifdef HIERA_HAVE_WEAK_TCMALLOC
    if (MallocExtension_ReleaseFreeMemory) {
        // malloc and free are tcmalloc's: glibc's arenas hold nothing worth trimming.
        MallocExtension_ReleaseFreeMemory();
        return;
    }
#endif
#if defined(__GLIBC__)
    // Trims the top of every arena and, since glibc 2.8, madvises the free pages inside them away too.
    malloc_trim(0);
#endif
}

int releaseCount()
{
    return s_releases.load();
}

} // namespace MemoryRelease

} // namespace hiera::ui
