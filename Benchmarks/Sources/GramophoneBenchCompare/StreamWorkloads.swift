import BenchFixtures
import Foundation
import Gramophone

// Benchmark 9 (issue 16): a 1,000-event stream read as lines, beside the same bytes split from a Data.

let streamTurntable: Turntable = try! StreamFixture.turntable()

let streamWorkloads: [Workload] = [
    Workload("9 stream replay: 1,000 events through bytes(for:), read as lines") { count in
        try await timed(count) {
            let (bytes, _) = try await streamTurntable.bytes(for: StreamFixture.request)
            var lines = 0
            for try await _ in bytes.lines { lines += 1 }
            if lines != StreamFixture.eventCount { throw BenchFailure(description: "replay read \(lines) lines") }
        }
    },
    Workload("9 stream baseline: the same bytes from one Data, split into lines") { count in
        await timed(count) { _ = StreamFixture.baselineLines(StreamFixture.body) }
    },
]
