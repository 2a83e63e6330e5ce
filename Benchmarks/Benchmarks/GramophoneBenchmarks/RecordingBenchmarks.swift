import BenchFixtures
import Benchmark
import Foundation
import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Benchmarks 11 to 14 (issue 46): recording without a network (answers from a replaying
// Turntable at memory speed), so the figure is Gramophone's own work; each beside what it is
// judged against. The timed code is `RecordingFixture`'s, which scripts/bench-compare runs too.

/// Whole recordings: one a sample, a few samples.
var recordings: Benchmark.Configuration {
    Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], timeUnits: .milliseconds,
        warmupIterations: 1, maxDuration: .seconds(5), maxIterations: 20)
}

func recordingBenchmarks() {
    let json = RecordingFixture.source(RecordingFixture.jsonBodies, contentType: "application/json")
    let binary = RecordingFixture.source(RecordingFixture.binaryBodies, contentType: "application/octet-stream")
    let small = RecordingFixture.source((0..<100).map { Data(#"{"id":\#($0),"name":"Ada"}"#.utf8) }, contentType: "application/json")

    // 11 and 12: large bodies recorded and ejected (default redaction), beside writing the same bytes.
    Benchmark("11 record 5 × 1 MB JSON bodies and eject", configuration: recordings) { _ in
        blackHole(try await RecordingFixture.record(json.requests, from: json.session))
    }
    Benchmark("11 baseline: raw write of the same 5 MB", configuration: recordings) { _ in
        blackHole(try RecordingFixture.rawWrite(RecordingFixture.jsonBodies))
    }
    Benchmark("11 baseline: raw write of the same 5 MB, synchronised to the disk", configuration: recordings) { _ in
        blackHole(try RecordingFixture.rawWrite(RecordingFixture.jsonBodies, durable: true))
    }
    Benchmark("12 record 2 × 8 MB binary bodies and eject", configuration: recordings) { _ in
        blackHole(try await RecordingFixture.record(binary.requests, from: binary.session))
    }
    Benchmark("12 baseline: raw write of the same 16 MB", configuration: recordings) { _ in
        blackHole(try RecordingFixture.rawWrite(RecordingFixture.binaryBodies))
    }

    Benchmark("12 baseline: raw write of the same 16 MB, synchronised to the disk", configuration: recordings) { _ in
        blackHole(try RecordingFixture.rawWrite(RecordingFixture.binaryBodies, durable: true))
    }

    // 13: 10 tracks recorded into a file that already holds 100 or 10,000; the file is put back
    // and loaded outside the measurement.
    for count in [100, 10_000] {
        let file = try! RecordingFixture.ManyTracks(count: count)
        Benchmark("13 record 10 tracks into a \(count == 100 ? "100" : "10,000")-track file and eject", configuration: recordings) { benchmark in
            let turntable = try file.prepare()
            benchmark.startMeasurement()
            try await file.recordAndEject(turntable)
            benchmark.stopMeasurement()
        }
    }

    // 14: the URLProtocol path of a recording Turntable (100 small requests through its
    // makeURLSession(), then eject), beside the same through data(for:).
    Benchmark("14 record 100 requests through a recording Turntable's URLSession and eject", configuration: recordings) { _ in
        blackHole(try await RecordingFixture.record(small.requests, from: small.session, throughURLSession: true))
    }
    Benchmark("14 baseline: the same through data(for:)", configuration: recordings) { _ in
        blackHole(try await RecordingFixture.record(small.requests, from: small.session))
    }
}
