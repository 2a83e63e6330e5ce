import Foundation

/// A value a replayed response takes from the live request, instead of the one recorded: the
/// request's `id` a JSON-RPC client waits for, a nonce or a correlation token the server echoes.
///
/// Declared with the matching strategy, applied to every replayed answer (never to what is
/// recorded, which keeps the server's answer as it was):
///
/// ```swift
/// let strategy = MatchingStrategy.attributes([.method, .url, .body(ignoring: ["nonce"])])
///     .echoing(.jsonValue(at: "result.nonce", from: "nonce"))
/// ```
///
/// For JSON-RPC 2.0 use ``MatchingStrategy/jsonRPC``, which matches bodies ignoring `id` and
/// echoes the ids (``jsonRPCID``). A rewritten JSON body is written compactly (`{"a":1}`), and
/// `Content-Length` follows it; `Playback.echoedCount` counts the answers rewritten.
public struct Echo: Sendable, CustomStringConvertible {
    enum Kind: Sendable {
        case jsonValue(response: [JSONComparison.Step], request: [JSONComparison.Step])
        case jsonRPCID
    }

    let kind: Kind
    public let description: String

    /// The value at `requestPath` in the live request's JSON body replaces the value at
    /// `responsePath` in the response's JSON (each event's `data` in an event stream).
    ///
    /// Paths are written as for `Matcher.body(ignoring:)`: `a.b` names a member, `items[]` each
    /// element of an array. Where both paths name several places, the n-th response place takes
    /// the n-th request value; where the request path names one, every response place takes it.
    /// A response place that is not there is left out; a request without the value changes nothing.
    public static func jsonValue(at responsePath: String, from requestPath: String) -> Echo {
        Echo(
            kind: .jsonValue(response: JSONComparison.steps(responsePath), request: JSONComparison.steps(requestPath)),
            description: "response \(responsePath) ← request \(requestPath)")
    }

    /// JSON-RPC 2.0: each answer (a message with `result` or `error`) whose `id` was a recorded
    /// request's gets the live request's `id` in its place, in a batch too (the n-th request of
    /// the recorded batch stands for the n-th of the live one), and in an event stream's events.
    /// Notifications and the server's own requests pass through unchanged.
    public static let jsonRPCID = Echo(kind: .jsonRPCID, description: "JSON-RPC response id ← request id")

    /// `response`, recorded for `recorded`, with the values `live` gives it (its chunks and
    /// `Content-Length` following the new body); nil when nothing changes.
    func apply(to response: Track.Response, live: Track.Request, recorded: Track.Request) -> Track.Response? {
        guard let rewrite = rewriter(live: live, recorded: recorded) else { return nil }
        var echoed = response
        if response.headers.mediaType == "text/event-stream" {
            guard let rewritten = EventStreamRewrite(response.body, rewriting: rewrite) else { return nil }
            echoed.body = rewritten.body
            echoed.stream = response.stream.map(rewritten.chunks(of:))
        } else {
            guard let value = try? JSONParser.parse(response.body) else { return nil }
            let next = rewrite(value)
            guard next != value else { return nil }
            echoed.body = Data(JSONWriter.compact(next))
            echoed.stream = response.stream.map { $0.fitted(to: echoed.body.count) }
        }
        if echoed.headers.contains("Content-Length") { echoed.headers["Content-Length"] = String(echoed.body.count) }
        return echoed
    }

    /// How a response JSON value changes for this pair of requests; nil when nothing will.
    private func rewriter(live: Track.Request, recorded: Track.Request) -> ((JSONValue) -> JSONValue)? {
        guard let liveValue = try? JSONParser.parse(live.body) else { return nil }
        switch kind {
        case .jsonValue(let responsePath, let requestPath):
            // The request's values, in document order.
            var values: [JSONValue] = []
            _ = JSONComparison.rewriting(requestPath[...], in: liveValue) {
                values.append($0)
                return $0
            }
            guard !values.isEmpty else { return nil }
            return { [values] response in
                var next = 0
                return JSONComparison.rewriting(responsePath[...], in: response) { recorded in
                    defer { next += 1 }
                    return values.count == 1 ? values[0] : (next < values.count ? values[next] : recorded)
                } ?? response
            }
        case .jsonRPCID:
            guard let recordedValue = try? JSONParser.parse(recorded.body) else { return nil }
            let liveMessages = liveValue.arrayValue ?? [liveValue]
            let recordedMessages = recordedValue.arrayValue ?? [recordedValue]
            var ids: [String: JSONValue] = [:]
            for (recordedMessage, liveMessage) in zip(recordedMessages, liveMessages) {
                guard let recordedID = recordedMessage["id"], let liveID = liveMessage["id"] else { continue }
                ids[Self.key(recordedID)] = liveID
            }
            guard ids.contains(where: { Self.key($0.value) != $0.key }) else { return nil }
            return { response in
                func answer(_ message: JSONValue) -> JSONValue {
                    guard case .object(let members) = message, message["result"] != nil || message["error"] != nil,
                        let id = message["id"], let liveID = ids[Self.key(id)]
                    else { return message }
                    return .object(members.map { $0.key == "id" ? (key: "id", value: liveID) : $0 })
                }
                if case .array(let items) = response { return .array(items.map(answer)) }
                return answer(response)
            }
        }
    }

    private static func key(_ value: JSONValue) -> String { String(decoding: JSONWriter.compact(value), as: UTF8.self) }
}

/// An event stream with each event's JSON `data` rewritten, and where each old event boundary
/// now falls, so a recorded stream's chunks can follow.
struct EventStreamRewrite {
    var body: Data
    /// (end in the old body, end in the new body) of each event, in order.
    var boundaries: [(old: Int, new: Int)]

    /// Nil when no event changes.
    init?(_ old: Data, rewriting rewrite: (JSONValue) -> JSONValue) {
        let bytes = [UInt8](old)
        var output: [UInt8] = []
        var changed = false
        var boundaries: [(old: Int, new: Int)] = []
        var eventStart = 0
        // Events end at an empty line; the rest after the last one is kept as it is.
        while let end = Self.eventEnd(in: bytes, from: eventStart) {
            let event = Array(bytes[eventStart..<end])
            let rewritten = Self.rewritten(event, with: rewrite)
            changed = changed || rewritten != nil
            output += rewritten ?? event
            boundaries.append((end, output.count))
            eventStart = end
        }
        output += bytes[eventStart...]
        guard changed else { return nil }
        body = Data(output)
        self.boundaries = boundaries
    }

    /// The end (after the empty line) of the event starting at `start`, or nil when it is not complete.
    private static func eventEnd(in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        var lineStart = start
        while index < bytes.count {
            if bytes[index] == 0x0A {
                let line = bytes[lineStart..<index]
                if line.isEmpty || line == [0x0D] { return index + 1 }
                lineStart = index + 1
            }
            index += 1
        }
        return nil
    }

    /// The event with its `data` lines (read as JSON) rewritten into one; nil when unchanged.
    private static func rewritten(_ event: [UInt8], with rewrite: (JSONValue) -> JSONValue) -> [UInt8]? {
        let text = String(decoding: event, as: UTF8.self)
        let lines = text.components(separatedBy: "\n")
        let dataLines = lines.filter { $0.hasPrefix("data:") }
        guard !dataLines.isEmpty else { return nil }
        let payload = dataLines.map { line -> String in
            var value = line.dropFirst(5)
            if value.first == " " { value = value.dropFirst() }
            if value.last == "\r" { value = value.dropLast() }
            return String(value)
        }.joined(separator: "\n")
        guard let value = try? JSONParser.parse(Data(payload.utf8)) else { return nil }
        let next = rewrite(value)
        guard next != value else { return nil }
        let newline = text.contains("\r\n") ? "\r\n" : "\n"
        var result: [String] = []
        var wrote = false
        for line in lines.dropLast() where !line.isEmpty && line != "\r" {
            if line.hasPrefix("data:") {
                if !wrote { result.append("data: " + String(decoding: JSONWriter.compact(next), as: UTF8.self)) }
                wrote = true
            } else {
                result.append(line.hasSuffix("\r") ? String(line.dropLast()) : line)
            }
        }
        return Array((result.joined(separator: newline) + newline + newline).utf8)
    }

    /// `stream`'s chunks moved to the new body: each chunk ends where its old end now falls
    /// (inside a rewritten event, as far into it as before, at most its new end).
    func chunks(of stream: TrackStream) -> TrackStream {
        var moved = stream
        var previousNew = 0
        var chunks: [TrackStream.Chunk] = []
        for (chunk, range) in zip(stream.chunks, stream.ranges) {
            let newEnd = newPosition(of: range.upperBound)
            if newEnd > previousNew { chunks.append(TrackStream.Chunk(offset: chunk.offset, length: newEnd - previousNew)) }
            previousNew = max(previousNew, newEnd)
        }
        if previousNew < body.count, let last = chunks.popLast() {
            chunks.append(TrackStream.Chunk(offset: last.offset, length: last.length + body.count - previousNew))
        }
        moved.chunks = chunks
        return moved
    }

    private func newPosition(of old: Int) -> Int {
        var previous = (old: 0, new: 0)
        for boundary in boundaries {
            if old <= boundary.old {
                // Inside this event: as far in as before, at most its new end.
                return min(previous.new + (old - previous.old), boundary.new)
            }
            previous = boundary
        }
        return previous.new + (old - previous.old)
    }
}
