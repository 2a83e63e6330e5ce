import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

/// A recording is often the only copy of what an API once said. A test process killed while
/// writing one (a crash, a CI timeout, Ctrl-C) must leave the complete old file or the complete
/// new one: never a mix, an empty file or a stub.
///
/// A child process (`GramophoneWriterProbe`, built with the tests) writes two vinyls of about
/// 1.3 and 2 MB in turn over one file with `Vinyl.write(to:)` and is killed with SIGKILL; after
/// each kill the file must be byte-for-byte one of the two complete vinyls. Half the kills come
/// at a random moment within a write; the other half as soon as the write's temporary file
/// appears, so some certainly land between the first byte written and the rename.
@Suite("Killed writers")
struct KilledWriterTests {
    static let kills = 60
    static let tracks = 1024

    /// The probe the build made (see `BuiltProducts`).
    static var probe: URL {
        get throws { try BuiltProducts.executable("GramophoneWriterProbe") }
    }

    static func temporaryFiles(in folder: URL) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tmp") })
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Starts the probe writing `target` and kills it: at a random moment in a write
    /// (`randomMoment`), or as soon as a new temporary file exists beside `before`'s.
    static func runAndKill(_ probe: URL, writing target: URL, in vinyls: URL, randomMoment: Bool, before: Set<String>) throws -> (
        wrote: String?, bySignal: Bool, status: Int32
    ) {
        var generator = SystemRandomNumberGenerator()
        let process = Process()
        process.executableURL = probe
        process.arguments = [target.path, String(Self.tracks)]
        let output = Pipe()
        process.standardOutput = output
        let started = ContinuousClock.now
        try process.run()
        var wrote: String?
        if randomMoment {
            // A random moment in the second write (or late in the first).
            wrote = String(decoding: output.fileHandleForReading.readData(ofLength: 6), as: UTF8.self)
            let oneWrite = Self.seconds(ContinuousClock.now - started)
            usleep(UInt32(Double.random(in: 0...oneWrite, using: &generator) * 1_000_000))
        } else {
            // As soon as a new temporary file exists: the write has begun and not yet been renamed.
            let deadline = ContinuousClock.now + .seconds(60)
            while try Self.temporaryFiles(in: vinyls).subtracting(before).isEmpty, ContinuousClock.now < deadline {
                usleep(100)
            }
            usleep(UInt32.random(in: 0...2_000, using: &generator))
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return (wrote, process.terminationReason == .uncaughtSignal, process.terminationStatus)
    }

    @Test func aWriterKilledAtAnyMomentLeavesTheOldOrTheNewVinyl() async throws {
        let probe = try Self.probe
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }

        // The two complete vinyls, written by the probe itself without interruption.
        let referenceStatus = try await offThePool { () throws -> Int32 in
            let reference = Process()
            reference.executableURL = probe
            reference.arguments = ["--reference", folder.path, String(Self.tracks)]
            try reference.run()
            reference.waitUntilExit()
            return reference.terminationStatus
        }
        try #require(referenceStatus == 0)
        let aBytes = try Data(contentsOf: folder.appendingPathComponent("a.json"))
        let bBytes = try Data(contentsOf: folder.appendingPathComponent("b.json"))
        #expect(try Vinyl(data: aBytes, name: "a").tracks.count == Self.tracks)
        #expect(aBytes.count > 1_000_000 && bBytes.count > aBytes.count)

        let vinyls = folder.appendingPathComponent("Vinyls", isDirectory: true)
        let target = vinyls.appendingPathComponent("killed.json")
        try FileManager.default.createDirectory(at: vinyls, withIntermediateDirectories: true)
        try aBytes.write(to: target)

        var seen = (a: 0, b: 0)
        var midWriteKills = 0
        for round in 0..<Self.kills {
            let before = try Self.temporaryFiles(in: vinyls)
            // Launching, timing the kill and waiting for the probe block: a thread of their own,
            // not one of the concurrency pool's (two on a two-core machine) for 60 rounds.
            let killed = try await offThePool { try Self.runAndKill(probe, writing: target, in: vinyls, randomMoment: round.isMultiple(of: 2), before: before) }
            if let wrote = killed.wrote { #expect(wrote == "wrote\n", "round \(round): the probe did not write") }
            #expect(killed.bySignal, "round \(round): the probe ended by itself (status \(killed.status))")
            if try Self.temporaryFiles(in: vinyls).count > before.count { midWriteKills += 1 }

            let bytes = try Data(contentsOf: target)
            if bytes == aBytes {
                seen.a += 1
            } else if bytes == bBytes {
                seen.b += 1
            } else {
                Issue.record("round \(round): after SIGKILL the vinyl is neither complete version (\(bytes.count) bytes; versions have \(aBytes.count) and \(bBytes.count))")
                return
            }
        }
        print("killed writers: \(Self.kills) kills, \(midWriteKills) between the first byte and the rename; file was version a \(seen.a)×, b \(seen.b)×")
        // Both versions were left behind, and some kills hit a write in progress: the test saw real interruptions.
        #expect(seen.a > 0 && seen.b > 0, "a \(seen.a), b \(seen.b): the kills did not interleave with writes")
        #expect(midWriteKills > 0, "no kill landed while a temporary file was being written")

        // What is left reads as a vinyl through the normal path, and the leftovers of killed
        // writes are hidden `.tmp` files that no vinyl lookup can pick up.
        let read = try Turntable(vinylNamed: "killed", from: .folder(vinyls)).vinyl
        #expect(read.tracks.count == Self.tracks || read.tracks.count == Self.tracks + Self.tracks / 2)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: vinyls.path).filter { $0 != "killed.json" }
        for name in leftovers {
            #expect(name.hasPrefix(".killed.json.") && name.hasSuffix(".tmp"), "unexpected file \(name)")
            #expect(!VinylLocation.knownExtensions.contains((name as NSString).pathExtension))
        }

        // The next write of the vinyl, once the leftovers are old enough, clears them away.
        #expect(!leftovers.isEmpty, "the mid-write kills left no temporary file")
        for name in leftovers {
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSinceNow: -2 * AtomicFile.staleAge)],
                ofItemAtPath: vinyls.appendingPathComponent(name).path)
        }
        try read.write(to: vinyls.appendingPathComponent("killed.json"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: vinyls.path) == ["killed.json"])
    }

    /// Only leftovers of this file, from a writer that is gone, untouched for a while, are removed:
    /// a write in progress, here or in a container sharing the folder, keeps its file.
    @Test func onlyStaleLeftoversOfDeadWritersAreRemoved() throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let finished = Process()
        finished.executableURL = URL(fileURLWithPath: "/bin/sh")
        finished.arguments = ["-c", "exit 0"]
        try finished.run()
        finished.waitUntilExit()
        let dead = finished.processIdentifier
        let alive = ProcessInfo.processInfo.processIdentifier
        let old = Date(timeIntervalSinceNow: -2 * AtomicFile.staleAge)
        let files: [(name: String, modified: Date, removed: Bool)] = [
            (".users.json.\(dead).\(UUID().uuidString).tmp", old, true),
            (".users.json.\(dead).\(UUID().uuidString).tmp", Date(), false),  // perhaps another container, still writing
            (".users.json.\(alive).\(UUID().uuidString).tmp", old, false),
            (".orders.json.\(dead).\(UUID().uuidString).tmp", old, false),  // another vinyl's
            (".users.json.notes.tmp", old, false),  // not a name Gramophone writes
        ]
        for file in files {
            let path = folder.appendingPathComponent(file.name).path
            #expect(FileManager.default.createFile(atPath: path, contents: Data("partial".utf8)))
            try FileManager.default.setAttributes([.modificationDate: file.modified], ofItemAtPath: path)
        }
        try Vinyl(name: "users", tracks: [Track("GET https://api.example.com/users", .json("[]"))]).write(to: folder.appendingPathComponent("users.json"))
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
        for file in files {
            #expect(left.contains(file.name) == !file.removed, "\(file.name)")
        }
        #expect(left.contains("users.json"))
    }
}
