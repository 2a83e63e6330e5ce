#include <stddef.h>

/// Bytes the C heap holds in use now (glibc's mallinfo2: small blocks plus mmapped blocks);
/// 0 where the platform has no such count.
size_t heap_stats_in_use(void);
