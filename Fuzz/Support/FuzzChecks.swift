import Foundation

@testable import Gramophone

// Properties every fuzz target checks. A violated property stops the run with a message
// (libFuzzer then saves the input as a crash file), exactly as a real crash would.

/// Stops the fuzzer with `message`; the input that caused it is saved by libFuzzer.
func fuzzFailure(_ message: @autoclosure () -> String) -> Never {
    FileHandle.standardError.write(Data(("fuzz property violated: " + message() + "\n").utf8))
    abort()
}

/// The properties of a reader: bad input is a `VinylError` naming a place; good input is a
/// vinyl that writes and reads back with the same tracks.
enum FuzzReader {
    static func check(_ bytes: Data, format: VinylFormat?) {
        let vinyl: Vinyl
        do {
            vinyl = try Vinyl(data: bytes, name: "fuzz", format: format, file: "fuzz.input")
        } catch let error as VinylError {
            guard error.file == "fuzz.input", error.place != nil, !error.problem.isEmpty else {
                fuzzFailure("a reader error without file or place: \(error)")
            }
            return
        } catch {
            fuzzFailure("a reader threw \(type(of: error)), not a VinylError: \(error)")
        }
        // A vinyl that was read must survive a write and a read in its own format (or ours,
        // for formats Gramophone reads but does not write).
        let writeFormat = format.flatMap { $0.isWritable ? $0 : nil } ?? .gramophone
        let again: Vinyl
        do {
            again = try Vinyl(data: try vinyl.encoded(as: writeFormat), name: "fuzz", format: writeFormat, file: "fuzz.rewritten")
        } catch {
            fuzzFailure("a vinyl that was read does not read back after writing as \(writeFormat): \(error)")
        }
        guard again.tracks.count == vinyl.tracks.count else {
            fuzzFailure("rewriting changed the number of tracks: \(vinyl.tracks.count) -> \(again.tracks.count)")
        }
        for (index, (before, after)) in zip(vinyl.tracks, again.tracks).enumerated() {
            guard before.request.method == after.request.method, before.request.body == after.request.body,
                before.request.headers.jsonValue == after.request.headers.jsonValue, before.outcome.sameBytes(as: after.outcome)
            else {
                fuzzFailure("rewriting changed track \(index):\n\(before)\nbecame\n\(after)")
            }
        }
    }
}

extension Track.Outcome {
    /// What a client would see: status, headers and body bytes, or the error's domain and code.
    func sameBytes(as other: Track.Outcome) -> Bool {
        switch (self, other) {
        // Writers sort header names (stable diffs), so compare headers in their written form.
        case let (.response(a), .response(b)): return a.status == b.status && a.headers.jsonValue == b.headers.jsonValue && a.body == b.body
        case let (.failure(a), .failure(b)): return a.domain == b.domain && a.code == b.code
        default: return false
        }
    }
}

/// Reads fuzz bytes as a stream of small decisions, for targets that build structured input.
struct FuzzBytes {
    private let bytes: [UInt8]
    private var position = 0

    init(_ data: UnsafeRawBufferPointer) { bytes = Array(data) }

    var isExhausted: Bool { position >= bytes.count }

    mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// A number in `0..<bound` (bound ≥ 1).
    mutating func int(_ bound: Int) -> Int { Int(byte()) % max(bound, 1) }

    mutating func pick<T>(_ choices: [T]) -> T { choices[int(choices.count)] }

    /// Up to `limit` raw bytes, length first.
    mutating func data(limit: Int) -> Data {
        let count = int(limit + 1)
        var result = Data()
        for _ in 0..<count where !isExhausted { result.append(byte()) }
        return result
    }

    /// A short string mixing the given pieces with arbitrary bytes (decoded leniently).
    mutating func text(from pieces: [String], limit: Int = 6) -> String {
        var result = ""
        for _ in 0..<int(limit + 1) {
            if byte() & 1 == 0 { result += pick(pieces) } else { result += String(decoding: data(limit: 4), as: UTF8.self) }
        }
        return result
    }
}
