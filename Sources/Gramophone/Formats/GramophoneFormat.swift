import Foundation

/// Gramophone's own JSON vinyl: a superset of the Vinyl library's format.
///
/// ```json
/// { "gramophone": 1, "name": "users",
///   "tracks": [ { "request": {"method": "GET", "url": "…", "headers": {…}, "body": …},
///                 "response": {"status": 200, "url": "…", "headers": {…}, "body": …},
///                 "recorded": "2026-11-23T09:00:00.000Z/PT0.12S" } ] }
/// ```
/// The Vinyl library's files (a bare array of tracks) read unchanged, and so do Gramophone's
/// first layout (`"recordedAt"` and `"duration"` apart, a stream's body beside its chunks). A
/// track holds `"error": {"domain", "code", "description"}` instead of `response` for a
/// transport error. Keys are sorted, the output indented, JSON bodies stored as JSON with their
/// `bodyLayout`, and a recorder writes concurrent tracks in a stable order (`TrackOrder`), so a
/// vinyl recorded again from unchanged answers differs only in its `recorded` lines.
enum GramophoneFormat {
    static let version = 1

    static func decode(_ document: JSONValue, name: String) throws -> Vinyl {
        switch document {
        case .array(let items):
            return Vinyl(name: name, tracks: try decodeTracks(items, path: DecodingPath(), convention: .vinyl))
        case .object:
            let root = DecodingPath()
            if let version = document["gramophone"] {
                try RecordedValue.version(version.int(at: root.key("gramophone")), at: root.key("gramophone"))
            }
            let items = try document.array("tracks", at: root, of: "tracks", fix: "A vinyl is {\"name\": …, \"tracks\": [ … ]} or a bare array of tracks")
            let vinylName = try document.optionalString("name", at: root) ?? name
            return Vinyl(name: vinylName, tracks: try decodeTracks(items, path: root.key("tracks"), convention: .vinyl))
        default:
            throw StructureError(
                path: DecodingPath(), problem: "expected an object or an array of tracks, found \(document.kindName)", fix: "A vinyl is {\"name\": …, \"tracks\": [ … ]} or a bare array of tracks")
        }
    }

    static func decodeTracks(_ items: [JSONValue], path: DecodingPath, convention: BodyCoding.Convention) throws -> [Track] {
        try items.indices.map { try decodeTrack(items[$0], path: path.index($0), convention: convention) }
    }

    static func decodeTrack(_ value: JSONValue, path: DecodingPath, convention: BodyCoding.Convention) throws -> Track {
        let requestValue = try value.required("request", at: path, fix: "Every track needs the request it answers")
        let request = try decodeRequest(requestValue, path: path.key("request"), convention: convention)
        let outcome: Track.Outcome
        let failure = try value["error"].flatMap { $0 == .null ? nil : try decodeFailure($0, path: path.key("error")) }
        if let responseValue = value["response"], responseValue != .null {
            var response = try decodeResponse(responseValue, path: path.key("response"), convention: convention)
            // An `error` beside the response is a transfer that failed after it, as a DVR cassette
            // keeps one (DVRFormat); Gramophone writes it as the stream's end, and the two must agree.
            if let failure {
                if let ended = response.failure, ended != failure {
                    throw StructureError(
                        path: path.key("error"), problem: "the error beside the response is not the one its stream ended with",
                        fix: "Keep one: the stream's \"end\": {\"error\": …}, or the \"error\" beside the response")
                }
                response.failure = failure
            }
            outcome = .response(response)
        } else if let failure {
            outcome = .failure(failure)
        } else {
            throw StructureError(path: path, problem: "missing \"response\"", fix: "Every track needs a \"response\" or an \"error\"")
        }
        var recordedAt: Date?
        var duration: TimeInterval?
        if let recorded = value[recordedKey], recorded != .null {
            (recordedAt, duration) = try decodeRecorded(recorded, path: path.key(recordedKey))
        } else {
            // The first layout kept the date and the duration apart.
            if let date = value["recordedAt"] ?? value["recorded_at"], date != .null {
                recordedAt = try decodeDate(date, path: path.key("recordedAt"))
            }
            if let seconds = value["duration"], seconds != .null {
                duration = try RecordedValue.duration(seconds.double(at: path.key("duration")), at: path.key("duration"))
            }
        }
        return Track(request: request, outcome: outcome, recordedAt: recordedAt, duration: duration)
    }

    /// When a track was recorded and how long it took, in one place: the line a new recording
    /// of the same answers changes, `"recorded": "2026-11-23T09:00:00.120Z/PT0.084S"` (an ISO 8601
    /// interval, start and duration), or the date alone.
    static let recordedKey = "recorded"

    static func decodeRecorded(_ value: JSONValue, path: DecodingPath) throws -> (Date?, TimeInterval?) {
        guard case .string(let text) = value else { return (try decodeDate(value, path: path), nil) }
        let pieces = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        let date = try decodeDate(.string(String(pieces[0])), path: path)
        guard pieces.count == 2 else { return (date, nil) }
        let span = pieces[1]
        guard span.hasPrefix("PT"), span.hasSuffix("S"), let seconds = Double(span.dropFirst(2).dropLast()) else {
            throw StructureError(
                path: path, problem: "\"\(span)\" is not a duration", fix: "Write the date, then / and the duration in seconds: 2026-11-23T09:00:00Z/PT0.12S")
        }
        return (date, try RecordedValue.duration(seconds, at: path))
    }

    static func decodeRequest(_ value: JSONValue, path: DecodingPath, convention: BodyCoding.Convention) throws -> Track.Request {
        let (url, method, headers) = try value.requestHead(at: path)
        let body = try BodyCoding.decode(in: value, headers: headers, convention: convention, path: path)
        return Track.Request(method: method, url: url, headers: headers, body: body)
    }

    static func decodeResponse(_ value: JSONValue, path: DecodingPath, convention: BodyCoding.Convention) throws -> Track.Response {
        let status = try value.status(at: path)
        let headers = try (value["headers"] ?? .null).headers(at: path.key("headers"))
        let body = try BodyCoding.decode(in: value, headers: headers, convention: convention, path: path)
        var response = Track.Response(
            status: status, headers: headers, body: body,
            url: try value.url("url", at: path, required: false),
            httpVersion: try value.optionalString("httpVersion", at: path))
        if let streamValue = value[StreamCoding.key], streamValue != .null {
            let (stream, joined) = try StreamCoding.decode(streamValue, path: path.key(StreamCoding.key))
            if value["body"] == nil {
                response.body = joined
            } else if joined != body {
                throw StructureError(
                    path: path.key(StreamCoding.key), problem: "the chunks (\(joined.count) bytes) are not the body (\(body.count) bytes)",
                    fix: "Edit the chunks and the body alike, or leave \"body\" out and the chunks make it")
            }
            response.stream = stream
        }
        if let conversation = value[WebSocketCoding.key], conversation != .null {
            response.conversation = try WebSocketCoding.decode(conversation, path: path.key(WebSocketCoding.key))
        }
        return response
    }

    /// An error as the format stores it: `{"domain", "code", "description"}` (a track's, a stream's end).
    /// HAR's `_gramophoneError` reads a missing code as `defaultCode`.
    static func decodeFailure(_ value: JSONValue, path: DecodingPath, defaultCode: Int? = nil) throws -> Track.Failure {
        _ = try value.members(at: path)
        guard let code = value["code"] ?? defaultCode.map({ .number(String($0)) }) else {
            throw StructureError(path: path, problem: "missing \"code\"", fix: "An error needs its domain and code, e.g. {\"domain\": \"NSURLErrorDomain\", \"code\": -1009}")
        }
        return Track.Failure(
            domain: try value.optionalString("domain", at: path) ?? NSURLErrorDomain,
            code: try code.int(at: path.key("code")),
            description: try value.optionalString("description", at: path) ?? "")
    }

    static func encodeFailure(_ failure: Track.Failure) -> JSONValue {
        .object([
            ("code", .number(String(failure.code))),
            ("description", .string(failure.description)),
            ("domain", .string(failure.domain)),
        ])
    }

    /// Seconds since 1970 of 0001-01-01 and 9999-12-31T23:59:59Z.
    static let dateRange: ClosedRange<Double> = -62_135_596_800...253_402_300_799
    /// A day: longer than any recorded exchange, short enough that a replay delay stays sane.
    static let maximumDuration: Double = 86_400

    /// The milliseconds at `path` as seconds: the time of a `item` since `start`, not before the one
    /// before it (`previous`) and within a day.
    static func offset(_ value: JSONValue, path: DecodingPath, notBefore previous: TimeInterval, of item: String, since start: String) throws -> TimeInterval {
        let milliseconds = try value.double(at: path)
        let seconds = milliseconds / 1000
        guard seconds >= previous, seconds <= maximumDuration else {
            throw StructureError(
                path: path, problem: "\(milliseconds) ms is not after the \(item) before (\(previous * 1000) ms)", fix: "Give each \(item) the milliseconds since \(start), in order")
        }
        return seconds
    }

    /// Seconds as the milliseconds a stream's chunk or a WebSocket message is stored with, to a tenth.
    static func milliseconds(_ seconds: TimeInterval) -> JSONValue {
        .number(formatSeconds(((seconds * 1000) * 10).rounded() / 10))
    }

    static func decodeDate(_ value: JSONValue, path: DecodingPath) throws -> Date {
        switch value {
        case .number(let text):
            // Only dates the ISO 8601 form can write back (years 1 to 9999).
            guard let seconds = Double(text), dateRange.contains(seconds) else { break }
            return Date(timeIntervalSince1970: seconds)
        case .string(let text):
            if let date = ISO8601.parse(text) { return date }
        default: break
        }
        throw StructureError(path: path, problem: "not a date", fix: "Use an ISO 8601 date such as 2026-11-23T09:00:00Z, or seconds since 1970")
    }

    // MARK: Writing

    static func encode(_ vinyl: Vinyl) -> JSONValue {
        .object([
            ("gramophone", .number(String(version))),
            ("name", .string(vinyl.name)),
            ("tracks", .array(vinyl.tracks.map(encodeTrack))),
        ])
    }

    static func encodeTrack(_ track: Track) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        // Without a date, the duration keeps the key it always had.
        if track.recordedAt == nil, let duration = track.duration { members.append(("duration", .number(formatSeconds(duration)))) }
        if case .failure(let failure) = track.outcome { members.append(("error", encodeFailure(failure))) }
        if let recordedAt = track.recordedAt {
            let span = track.duration.map { "/PT" + decimalSeconds($0) + "S" } ?? ""
            members.append((recordedKey, .string(ISO8601.format(recordedAt) + span)))
        }
        members.append(("request", encodeRequest(track.request)))
        if case .response(let response) = track.outcome { members.append(("response", encodeResponse(response))) }
        return .object(members)
    }

    /// `body` is how the request's body is stored, when a format stores it its own way (DVR).
    static func encodeRequest(_ request: Track.Request, body: [(key: String, value: JSONValue)]? = nil) -> JSONValue {
        var members = body ?? BodyCoding.members(request.body, headers: request.headers)
        if !request.headers.isEmpty { members.append(("headers", request.headers.jsonValue)) }
        members.append(("method", .string(request.method)))
        members.append(("url", .string(request.url.absoluteString)))
        return .object(members)
    }

    static func encodeResponse(_ response: Track.Response) -> JSONValue {
        // A stream's chunks make its body: stored once, as the chunks.
        var members = response.stream == nil ? BodyCoding.members(response.body, headers: response.headers) : []
        members.append(("headers", response.headers.jsonValue))
        if let version = response.httpVersion { members.append(("httpVersion", .string(version))) }
        members.append(("status", .number(String(response.status))))
        if let stream = response.stream { members.append((StreamCoding.key, StreamCoding.encode(stream, body: response.body))) }
        if let url = response.url { members.append(("url", .string(url.absoluteString))) }
        if let conversation = response.conversation { members.append((WebSocketCoding.key, WebSocketCoding.encode(conversation))) }
        return .object(members)
    }

    /// Seconds as a decimal to the microsecond, never in exponent form (`0.000012`, `3`).
    static func decimalSeconds(_ seconds: Double) -> String {
        let micros = Int((max(0, min(seconds, maximumDuration)) * 1_000_000).rounded())
        // The fraction's digits without trailing zeros, by arithmetic: every recorded track
        // writes one, and reversing strings was a twentieth of saving small tracks.
        var fraction = micros % 1_000_000
        guard fraction > 0 else { return String(micros / 1_000_000) }
        var places = 6
        while fraction % 10 == 0 {
            fraction /= 10
            places -= 1
        }
        let digits = String(fraction)
        return String(micros / 1_000_000) + "." + String(repeating: "0", count: places - digits.count) + digits
    }

    static func formatSeconds(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "0" }
        let rounded = (seconds * 1_000_000).rounded() / 1_000_000
        // Huge values overflow the rounding; `String(Double)` never writes "inf" for finite ones.
        return String(rounded.isFinite ? rounded : seconds)
    }
}
