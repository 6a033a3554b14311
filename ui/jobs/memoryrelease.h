#pragma once

namespace hiera::ui {

// MemoryRelease — hands the heap memory the explorer has freed back to the operating system.
//
// A load or scope that fails after reading a lot (a datadir whose files are each read up to the size
// limit before being refused) frees what it read, but the allocator keeps the pages: the explorer went
// on holding 4.2 GB. glibc's malloc keeps freed chunks in its arenas (one per worker thread) until
// malloc_trim; tcmalloc, which the explorer links when it is installed (HIERA_TCMALLOC), keeps them in
// its page heap until MallocExtension::ReleaseFreeMemory. LookupRunner calls release() on a worker
// after a failed load, after a job that met files it could not use, and when an engine is finally
// freed (a hierarchy replaced or reloaded).

namespace MemoryRelease {

// Returns free heap pages to the system: tcmalloc's when it is the allocator, else glibc's. Takes a few
// milliseconds on a large heap: call it off the GUI thread.
void release();
// How many times release() ran (tests).
int releaseCount();

} // namespace MemoryRelease

} // namespace hiera::ui
