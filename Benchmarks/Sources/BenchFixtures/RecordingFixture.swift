import Foundation
import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Benchmarks 11 to 14 (issue 46): recording without a network. The answers come from a
/// replaying Turntable (memory speed, as `GramophoneBenchDriver record … offline`), so what is
/// timed is the recording Turntable's own work: matching the miss, redaction (the default rules),
/// keeping the track and the eject's merge, encoding and atomic write. Each workload returns the
/// seconds of the part it times, so its setup stays out of the figure.
public enum RecordingFixture {
    /// Five JSON bodies of about 1 MB each: arrays of records with strings, numbers and booleans.
    public static let jsonBodies: [Data] = (0..<5).map { jsonBody(seed: UInt64($0), bytes: 1_000_000) }
    /// Two binary bodies of 8 MB each, random bytes (stored as base64).
    public static let binaryBodies: [Data] = (0..<2).map { index in
        var generator = SplitMix(seed: 100 + UInt64(index))
        var bytes = [UInt8](repeating: 0, count: 8 << 20)
        for offset in stride(from: 0, to: bytes.count, by: 8) {
            withUnsafeBytes(of: generator.next()) { word in
                for byte in 0..<8 { bytes[offset + byte] = word[byte] }
            }
        }
        return Data(bytes)
    }

    /// A JSON body of about `bytes` bytes.
    public static func jsonBody(seed: UInt64, bytes: Int) -> Data {
        var generator = SplitMix(seed: seed)
        let words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima"]
        var text = #"{"page":1,"items":["#
        var index = 0
        while text.utf8.count < bytes - 200 {
            if index > 0 { text += "," }
            let title = (0..<6).map { _ in words[Int(generator.next() % 12)] }.joined(separator: " ")
            text += #"{"id":\#(index),"title":"\#(title)","score":\#(Double(index % 97) / 4),"tags":["\#(words[index % 12])","\#(words[(index + 5) % 12])"],"active":\#(index % 2 == 0)}"#
            index += 1
        }
        return Data((text + #"],"next":null}"#).utf8)
    }

    /// The requests of `bodies` (one GET each) and a Turntable answering each with its body at
    /// memory speed: the "network" of the recording benchmarks.
    public static func source(_ bodies: [Data], contentType: String, host: String = "http://offline.test") -> (session: Turntable, requests: [URLRequest]) {
        let requests = bodies.indices.map { URLRequest(url: URL(string: "\(host)/bodies/\($0)")!) }
        let tracks = zip(requests, bodies).map { request, body in
            Track(request: Track.Request(url: request.url!), outcome: .response(Track.Response(status: 200, headers: ["Content-Type": contentType], body: body)))
        }
        return (Turntable(vinyl: Vinyl(name: "source", tracks: tracks)), requests)
    }

    /// `recording` without its report on stderr (a benchmark prints its own figures).
    static func quiet(_ recording: Recording) -> Recording {
        var quiet = recording
        quiet.isQuiet = true
        return quiet
    }

    /// A fresh temporary folder, removed by the caller.
    public static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gramophone-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Records every request once through a fresh recording Turntable (new episodes, default
    /// redaction) in a fresh folder, then ejects; the seconds from making the Turntable to the end
    /// of the eject. With `throughURLSession`, the requests go through `makeURLSession()`.
    public static func record(_ requests: [URLRequest], from session: Turntable, throughURLSession: Bool = false) async throws -> Double {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let start = ContinuousClock.now
        let turntable = try Turntable(vinylNamed: "recorded", from: .folder(folder), recording: quiet(Recording(mode: .newEpisodes, session: session, environment: [:])))
        if throughURLSession {
            let urlSession = turntable.makeURLSession()
            for request in requests { _ = try await urlSession.data(for: request) }
            urlSession.finishTasksAndInvalidate()
        } else {
            for request in requests { _ = try await turntable.data(for: request) }
        }
        try turntable.eject()
        let seconds = (ContinuousClock.now - start).seconds
        guard turntable.playback.recordedCount == requests.count else {
            throw BenchFailure(description: "recorded \(turntable.playback.recordedCount) of \(requests.count) requests")
        }
        return seconds
    }

    /// Writes the bodies' bytes, one after the other, to a file in a fresh folder with
    /// `Data.write(to:options: .atomic)`: the least writing them down costs. Seconds of the write.
    /// `durable`: written through a `FileHandle` and synchronised to the disk (`fsync`), as a
    /// vinyl's atomic write does twice (the file and its folder).
    public static func rawWrite(_ bodies: [Data], durable: Bool = false) throws -> Double {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var all = Data()
        for body in bodies { all.append(body) }
        let file = folder.appendingPathComponent("raw.bin")
        let start = ContinuousClock.now
        if durable {
            guard FileManager.default.createFile(atPath: file.path, contents: nil) else { throw BenchFailure(description: "could not create \(file.path)") }
            let handle = try FileHandle(forWritingTo: file)
            try handle.write(contentsOf: all)
            try handle.synchronize()
            try handle.close()
        } else {
            try all.write(to: file, options: .atomic)
        }
        return (ContinuousClock.now - start).seconds
    }

    /// Benchmark 13: a vinyl file already holding `count` small tracks, into which a recording
    /// Turntable records `added` new ones and ejects (the save merges with the file under its lock).
    public final class ManyTracks: Sendable {
        public let count: Int
        public let added: Int
        let folder: URL
        let original: Data
        let session: Turntable
        let requests: [URLRequest]

        public init(count: Int, added: Int = 10) throws {
            self.count = count
            self.added = added
            folder = try RecordingFixture.folder()
            original = try Fixtures.tracks(count: count).encoded()
            let bodies = (0..<added).map { Data(#"{"id":\#($0),"name":"new track"}"#.utf8) }
            (session, requests) = RecordingFixture.source(bodies, contentType: "application/json", host: "https://api.example.com")
        }

        deinit { try? FileManager.default.removeItem(at: folder) }

        /// Puts the file back as it was and opens it for recording (new episodes): not part of
        /// the figure (that is loading).
        public func prepare() throws -> Turntable {
            try original.write(to: folder.appendingPathComponent("many.json"), options: .atomic)
            return try Turntable(vinylNamed: "many", from: .folder(folder), recording: quiet(Recording(mode: .newEpisodes, session: session, environment: [:])))
        }

        /// Records the new tracks on a Turntable from `prepare()` and ejects: the timed part.
        public func recordAndEject(_ turntable: Turntable) async throws {
            for request in requests { _ = try await turntable.data(for: request) }
            try turntable.eject()
            guard turntable.playback.recordedCount == requests.count else {
                throw BenchFailure(description: "recorded \(turntable.playback.recordedCount) of \(requests.count) requests")
            }
        }

        /// `prepare()`, then the seconds of `recordAndEject(_:)`.
        public func timedRecording() async throws -> Double {
            let turntable = try prepare()
            let start = ContinuousClock.now
            try await recordAndEject(turntable)
            return (ContinuousClock.now - start).seconds
        }
    }
}

/// A benchmark that found something other than what it measures.
public struct BenchFailure: Error, CustomStringConvertible {
    public var description: String
    public init(description: String) { self.description = description }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    public var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
