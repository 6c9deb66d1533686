#include "brolly_heap.h"

#include <stdio.h>  // defines __GLIBC__ on glibc

#if defined(__GLIBC__) && defined(__linux__)
#include <malloc.h>
#include <unistd.h>

size_t brolly_heap_idle_resident_bytes(void) {
    FILE *statm = fopen("/proc/self/statm", "r");
    if (statm == NULL) return 0;
    unsigned long size = 0, resident = 0, shared = 0;
    int read = fscanf(statm, "%lu %lu %lu", &size, &resident, &shared);
    fclose(statm);
    if (read != 3 || resident < shared) return 0;
    size_t anonymous = (size_t)(resident - shared) * (size_t)sysconf(_SC_PAGESIZE);
    struct mallinfo2 info = mallinfo2();
    size_t held = info.uordblks + info.hblkhd;
    return anonymous > held ? anonymous - held : 0;
}

int brolly_heap_trim(void) { return malloc_trim(0); }
#else
size_t brolly_heap_idle_resident_bytes(void) { return 0; }

int brolly_heap_trim(void) { return 0; }
#endif
