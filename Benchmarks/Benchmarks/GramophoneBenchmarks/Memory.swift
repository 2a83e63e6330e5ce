import HeapStats

/// Bytes the heap holds now: what a loaded vinyl keeps alive is the difference before and after.
enum HeapUsage {
    static func inUse() -> Int { Int(heap_stats_in_use()) }
}
