import BenchFixtures
import Foundation
import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The replay, lookup and load benchmarks of the ordo-one package (same names, same fixtures), in
// the form bench-compare runs. Only API that 745a031's library has.

let smallTurntable = Turntable(vinyl: Vinyl(name: "small", tracks: [Fixtures.smallTrack]))
let smallSession = smallTurntable.makeURLSession()
let stubSession = ConstantStub.session()
let entrySizes = [1, 1_000, 10_000]
let entryTurntables: [Int: Turntable] = Dictionary(uniqueKeysWithValues: entrySizes.map { ($0, Turntable(vinyl: Fixtures.tracks(count: $0))) })
let entrySessions: [Int: URLSession] = entryTurntables.mapValues { $0.makeURLSession() }

let coreWorkloads: [Workload] =
    [
        Workload("1 replay via Turntable.data(for:)", batch: 1_000) { count in
            try await timed(count) { _ = try await smallTurntable.data(for: Fixtures.smallRequest) }
        },
        Workload("1 replay via Turntable.data(for:) from the main actor", batch: 1_000) { count in
            try await timedOnMain(count) { _ = try await smallTurntable.data(for: Fixtures.smallRequest) }
        },
        Workload("2 replay via Turntable-backed URLSession", batch: 20) { count in
            try await timed(count) { _ = try await smallSession.data(for: Fixtures.smallRequest) }
        },
        Workload("3 baseline: bare URLProtocol stub", batch: 20) { count in
            try await timed(count) { _ = try await stubSession.data(for: Fixtures.smallRequest) }
        },
    ]
    + entrySizes.flatMap { size -> [Workload] in
        let last = URLRequest(url: Fixtures.url(size - 1))
        return [
            Workload("8 Turntable.data(for:), \(size) entries", batch: 1_000) { count in
                try await timed(count) { _ = try await entryTurntables[size]!.data(for: last) }
            },
            Workload("8 Turntable.data(for:) from the main actor, \(size) entries", batch: 1_000) { count in
                try await timedOnMain(count) { _ = try await entryTurntables[size]!.data(for: last) }
            },
            Workload("8 Turntable-backed URLSession, \(size) entries", batch: 20) { count in
                try await timed(count) { _ = try await entrySessions[size]!.data(for: last) }
            },
        ]
    }
    + [
        Workload("6 load 10,000-track vinyl") { count in
            let data = try Data(contentsOf: Fixtures.mixedFile())
            return try await timed(count) { _ = try Vinyl(data: data, name: "mixed") }
        },
        Workload("6 baseline: JSONSerialization parse") { count in
            let data = try Data(contentsOf: Fixtures.mixedFile())
            return try await timed(count) { _ = try JSONSerialization.jsonObject(with: data) }
        },
    ]
