#ifndef BROLLY_HEAP_H
#define BROLLY_HEAP_H

#include <stddef.h>

/// Resident private memory not held by allocations: the process's resident pages that are not
/// backed by a file (`/proc/self/statm`) less the bytes the C allocator has handed out and not had
/// back (glibc's `mallinfo2`, arenas and mapped blocks). What freeing left resident, plus thread
/// stacks and the like; 0 where it cannot be read (not glibc, not Linux).
size_t brolly_heap_idle_resident_bytes(void);

/// Returns the allocator's free pages to the system (glibc's `malloc_trim(0)`); 1 when some were.
int brolly_heap_trim(void);

#endif
