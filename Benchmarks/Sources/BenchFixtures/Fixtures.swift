import Foundation
import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The vinyls the benchmarks play, built in code so every run measures the same data.
public enum Fixtures {
    public static let host = "https://api.example.com"

    /// The one small JSON track of benchmarks 1 to 3.
    public static let smallTrack = Track("GET https://api.example.com/users/42", .json(#"{"id":42,"name":"Ada Lovelace","admin":false}"#))
    public static let smallRequest = URLRequest(url: URL(string: "https://api.example.com/users/42")!)
    public static let smallBody = Data(#"{"id":42,"name":"Ada Lovelace","admin":false}"#.utf8)

    /// The URL of track `index` in a vinyl of `tracks(count:)`.
    public static func url(_ index: Int) -> URL {
        URL(string: "\(host)/v1/items/\(index)?expand=owner&page=\(index % 7)")!
    }

    /// `count` small GET tracks with distinct URLs: what a large recorded suite looks like to the index.
    public static func tracks(count: Int) -> Vinyl {
        Vinyl(
            name: "lookup-\(count)",
            tracks: (0..<count).map { index in
                Track(
                    request: Track.Request(method: "GET", url: url(index), headers: ["Accept": "application/json"]),
                    outcome: .response(Track.Response(status: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"id":\#(index)}"#.utf8))))
            })
    }

    /// `count` POSTs to one URL that differ only in their JSON body: what `[.method, .url, .body]`
    /// must tell apart through the index (bodies compared as values, not bytes).
    public static func bodyTracks(count: Int) -> Vinyl {
        Vinyl(
            name: "body-lookup-\(count)",
            tracks: (0..<count).map { index in
                Track(Track.Request(method: "POST", url: URL(string: "\(host)/v1/search")!).json(bodyText(index)), .json(#"{"page":\#(index)}"#))
            })
    }

    public static func bodyText(_ index: Int) -> String { #"{"query":"item \#(index)","limit":20}"# }

    /// A 10,000-track vinyl with JSON, text and binary (base64) bodies, about 20 MB on disk.
    public static func mixedVinyl(count: Int = 10_000) -> Vinyl {
        var generator = SplitMix(seed: 42)
        let words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima"]
        func sentence(_ length: Int) -> String {
            (0..<length).map { _ in words[Int(generator.next() % UInt64(words.count))] }.joined(separator: " ")
        }
        var tracks: [Track] = []
        tracks.reserveCapacity(count)
        for index in 0..<count {
            let request = Track.Request(
                method: index % 5 == 0 ? "POST" : "GET", url: url(index),
                headers: ["Accept": "*/*", "User-Agent": "Bench/1.0", "Authorization": "Bearer <redacted>"],
                body: index % 5 == 0 ? Data(#"{"query":"\#(sentence(8))","limit":20}"#.utf8) : Data())
            let headers: Headers
            let body: Data
            switch index % 3 {
            case 0:
                headers = ["Content-Type": "application/json", "Cache-Control": "no-cache", "X-Request-Id": "req-\(index)", "Date": "Mon, 23 Nov 2026 09:00:00 GMT"]
                let items = (0..<9).map { item in
                    #"{"id":\#(index * 100 + item),"title":"\#(sentence(6))","score":\#(Double(item) / 3),"tags":["\#(words[item % 12])","\#(words[(item + 5) % 12])"],"active":\#(item % 2 == 0)}"#
                }
                body = Data(#"{"page":\#(index % 7),"items":[\#(items.joined(separator: ","))],"next":null}"#.utf8)
            case 1:
                headers = ["Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-cache", "X-Request-Id": "req-\(index)", "Date": "Mon, 23 Nov 2026 09:00:00 GMT"]
                body = Data((0..<7).map { _ in sentence(20) }.joined(separator: "\n").utf8)
            default:
                headers = ["Content-Type": "application/octet-stream", "Cache-Control": "no-cache", "X-Request-Id": "req-\(index)", "Date": "Mon, 23 Nov 2026 09:00:00 GMT"]
                body = Data((0..<1_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
            }
            tracks.append(
                Track(
                    request: request, outcome: .response(Track.Response(status: 200, headers: headers, body: body)),
                    recordedAt: Date(timeIntervalSince1970: 1_795_000_000 + Double(index)), duration: 0.05))
        }
        return Vinyl(name: "mixed-\(count)", tracks: tracks)
    }

    /// The mixed vinyl's file in the temporary folder, written on first use.
    public static func mixedFile() throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gramophone-bench-mixed-10000.json")
        if !FileManager.default.fileExists(atPath: file.path) {
            try mixedVinyl().write(to: file)
        }
        return file
    }
}

/// Benchmark 9: a recorded streamed answer of 1,000 server-sent events, each an LLM-style delta
/// (`data: {"id":"chatcmpl-1","choices":[{"index":0,"delta":{"content":"tok N"}}]}` and the empty
/// line that ends it, 79-81 bytes), one recorded chunk per event, all at offset 0.
public enum StreamFixture {
    public static let eventCount = 1_000
    public static let url = URL(string: "https://api.example.com/v1/chat/completions")!
    public static var request: URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        return request
    }

    /// The text of event `index`, its terminating empty line included.
    public static func event(_ index: Int) -> String {
        #"data: {"id":"chatcmpl-1","choices":[{"index":0,"delta":{"content":"tok \#(index)"}}]}"# + "\n\n"
    }

    /// The whole body in one piece: what the baseline reads.
    public static let body = Data((0..<eventCount).map(event).joined().utf8)

    /// The vinyl file's text: one track, its response streamed (`"stream"`, no `"body"`).
    public static let vinylJSON: Data = {
        func quoted(_ text: String) -> String {
            "\""
                + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                .replacingOccurrences(of: "\n", with: "\\n") + "\""
        }
        let chunks = (0..<eventCount).map { #"{"offsetMs": 0, "text": \#(quoted(event($0)))}"# }.joined(separator: ",\n      ")
        return Data(
            """
            {"tracks": [{"request": {"method": "POST", "url": "\(url.absoluteString)"},
              "response": {"status": 200, "headers": {"Content-Type": "text/event-stream"},
                "stream": {"chunks": [
                  \(chunks)
                ], "end": "finished"}}}]}
            """.utf8)
    }()

    /// A Turntable holding that one track, loaded from the file's text.
    public static func turntable() throws -> Turntable {
        Turntable(vinyl: try Vinyl(data: vinylJSON, name: "stream-1000"))
    }

    /// The baseline: the body's lines as a client without a network reads them from one `Data`,
    /// split on line feeds into Strings, empty lines left out.
    public static func baselineLines(_ data: Data) -> [String] {
        data.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The same lines split in the bytes' buffer rather than through `Data`'s generic indexing:
    /// the least a reader of lines into Strings costs (not what the goal is judged against).
    public static func floorLines(_ data: Data) -> [String] {
        data.withUnsafeBytes { raw in
            raw.bindMemory(to: UInt8.self).split(separator: 0x0A).map { String(decoding: UnsafeBufferPointer(rebasing: $0), as: UTF8.self) }
        }
    }
}

/// A small deterministic generator: the same bodies on every run.
public struct SplitMix {
    var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
