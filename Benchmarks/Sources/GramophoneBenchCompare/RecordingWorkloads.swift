import BenchFixtures
import Foundation
import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Benchmarks 11 to 14 (issue 46): recording without a network, beside the raw write of the same
// bytes; saving into a file that already holds many tracks; the URLProtocol path of a recording
// Turntable. The fixtures and the timed code are `RecordingFixture`'s, shared with the ordo-one
// package.

let jsonSource = RecordingFixture.source(RecordingFixture.jsonBodies, contentType: "application/json")
let binarySource = RecordingFixture.source(RecordingFixture.binaryBodies, contentType: "application/octet-stream")
let smallBodiesSource = RecordingFixture.source((0..<100).map { Data(#"{"id":\#($0),"name":"Ada"}"#.utf8) }, contentType: "application/json")
let manyTracks: [Int: RecordingFixture.ManyTracks] = Dictionary(uniqueKeysWithValues: [100, 10_000].map { ($0, try! RecordingFixture.ManyTracks(count: $0)) })

/// `count` operations of `operation`, each timing itself.
func summed(_ count: Int, _ operation: () async throws -> Double) async rethrows -> Double {
    var seconds = 0.0
    for _ in 0..<count { seconds += try await operation() }
    return seconds
}

let recordingWorkloads: [Workload] = [
    Workload("11 record 5 × 1 MB JSON bodies and eject") { count in
        try await summed(count) { try await RecordingFixture.record(jsonSource.requests, from: jsonSource.session) }
    },
    Workload("11 baseline: raw write of the same 5 MB") { count in
        try await summed(count) { try RecordingFixture.rawWrite(RecordingFixture.jsonBodies) }
    },
    Workload("11 baseline: raw write of the same 5 MB, synchronised to the disk") { count in
        try await summed(count) { try RecordingFixture.rawWrite(RecordingFixture.jsonBodies, durable: true) }
    },
    Workload("12 record 2 × 8 MB binary bodies and eject") { count in
        try await summed(count) { try await RecordingFixture.record(binarySource.requests, from: binarySource.session) }
    },
    Workload("12 baseline: raw write of the same 16 MB") { count in
        try await summed(count) { try RecordingFixture.rawWrite(RecordingFixture.binaryBodies) }
    },
    Workload("12 baseline: raw write of the same 16 MB, synchronised to the disk") { count in
        try await summed(count) { try RecordingFixture.rawWrite(RecordingFixture.binaryBodies, durable: true) }
    },
    Workload("13 record 10 tracks into a 100-track file and eject") { count in
        try await summed(count) { try await manyTracks[100]!.timedRecording() }
    },
    Workload("13 record 10 tracks into a 10,000-track file and eject") { count in
        try await summed(count) { try await manyTracks[10_000]!.timedRecording() }
    },
    Workload("14 record 100 requests through a recording Turntable's URLSession and eject") { count in
        try await summed(count) { try await RecordingFixture.record(smallBodiesSource.requests, from: smallBodiesSource.session, throughURLSession: true) }
    },
    Workload("14 baseline: the same through data(for:)") { count in
        try await summed(count) { try await RecordingFixture.record(smallBodiesSource.requests, from: smallBodiesSource.session) }
    },
]
