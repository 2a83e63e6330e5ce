import Foundation

/// Gramophone's own JSON vinyl: a superset of the Vinyl library's format.
///
/// ```json
/// { "gramophone": 1, "name": "users",
///   "tracks": [ { "request": {"method": "GET", "url": "…", "headers": {…}, "body": …},
///                 "response": {"status": 200, "url": "…", "headers": {…}, "body": …},
///                 "recordedAt": "2026-11-23T09:00:00Z", "duration": 0.12 } ] }
/// ```
/// The Vinyl library's files (a bare array of tracks) read unchanged. A track holds
/// `"error": {"domain", "code", "description"}` instead of `response` for a transport error.
/// Keys are sorted and the output indented, so vinyls diff cleanly in review.
enum GramophoneFormat {
    static let version = 1

    static func decode(_ document: JSONValue, name: String) throws -> Vinyl {
        switch document {
        case .array(let items):
            return Vinyl(name: name, tracks: try decodeTracks(items, path: DecodingPath(), convention: .vinyl))
        case .object:
            let root = DecodingPath()
            if let version = document["gramophone"] {
                let number = try version.int(at: root.key("gramophone"))
                guard number <= Self.version else {
                    throw StructureError(path: root.key("gramophone"), problem: "format version \(number) is newer than this Gramophone reads (\(Self.version))", fix: "Update Gramophone")
                }
            }
            guard let tracks = document["tracks"] else {
                throw StructureError(path: root, problem: "missing \"tracks\"", fix: "A vinyl is {\"name\": …, \"tracks\": [ … ]} or a bare array of tracks")
            }
            guard case .array(let items) = tracks else {
                throw StructureError(path: root.key("tracks"), problem: "expected an array, found \(tracks.kindName)", fix: "List the tracks in an array")
            }
            let vinylName = try document.optionalString("name", at: root) ?? name
            return Vinyl(name: vinylName, tracks: try decodeTracks(items, path: root.key("tracks"), convention: .vinyl))
        default:
            throw StructureError(path: DecodingPath(), problem: "expected an object or an array of tracks, found \(document.kindName)", fix: "A vinyl is {\"name\": …, \"tracks\": [ … ]} or a bare array of tracks")
        }
    }

    static func decodeTracks(_ items: [JSONValue], path: DecodingPath, convention: BodyCoding.Convention) throws -> [Track] {
        var tracks: [Track] = []
        tracks.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            tracks.append(try decodeTrack(item, path: path.index(index), convention: convention))
        }
        return tracks
    }

    static func decodeTrack(_ value: JSONValue, path: DecodingPath, convention: BodyCoding.Convention) throws -> Track {
        _ = try value.members(at: path)
        guard let requestValue = value["request"] else {
            throw StructureError(path: path, problem: "missing \"request\"", fix: "Every track needs the request it answers")
        }
        let request = try decodeRequest(requestValue, path: path.key("request"), convention: convention)
        let outcome: Track.Outcome
        if let responseValue = value["response"], responseValue != .null {
            outcome = .response(try decodeResponse(responseValue, path: path.key("response"), convention: convention))
        } else if let errorValue = value["error"], errorValue != .null {
            let errorPath = path.key("error")
            _ = try errorValue.members(at: errorPath)
            guard let code = errorValue["code"] else {
                throw StructureError(path: errorPath, problem: "missing \"code\"", fix: "An error needs its domain and code, e.g. {\"domain\": \"NSURLErrorDomain\", \"code\": -1009}")
            }
            outcome = .failure(Track.Failure(
                domain: try errorValue.optionalString("domain", at: errorPath) ?? "NSURLErrorDomain",
                code: try code.int(at: errorPath.key("code")),
                description: try errorValue.optionalString("description", at: errorPath) ?? ""))
        } else {
            throw StructureError(path: path, problem: "missing \"response\"", fix: "Every track needs a \"response\" or an \"error\"")
        }
        var recordedAt: Date?
        if let date = value["recordedAt"] ?? value["recorded_at"], date != .null {
            recordedAt = try decodeDate(date, path: path.key("recordedAt"))
        }
        var duration: TimeInterval?
        if let seconds = value["duration"], seconds != .null {
            duration = try seconds.double(at: path.key("duration"))
        }
        return Track(request: request, outcome: outcome, recordedAt: recordedAt, duration: duration)
    }

    static func decodeRequest(_ value: JSONValue, path: DecodingPath, convention: BodyCoding.Convention) throws -> Track.Request {
        _ = try value.members(at: path)
        let url = try value.url("url", at: path, required: true)!
        let method = try value.optionalString("method", at: path) ?? "GET"
        guard !method.isEmpty, method.allSatisfy({ $0.isLetter || $0 == "-" || $0 == "_" }) else {
            throw StructureError(path: path.key("method"), problem: "\"\(method)\" is not an HTTP method", fix: "Use GET, POST, PUT, PATCH, DELETE, HEAD or OPTIONS")
        }
        let headers = try (value["headers"] ?? .null).headers(at: path.key("headers"))
        let body = try BodyCoding.decode(value["body"], explicit: value[BodyCoding.encodingKey], headers: headers, convention: convention, path: path)
        return Track.Request(method: method, url: url, headers: headers, body: body)
    }

    static func decodeResponse(_ value: JSONValue, path: DecodingPath, convention: BodyCoding.Convention) throws -> Track.Response {
        _ = try value.members(at: path)
        guard let statusValue = value["status"] else {
            throw StructureError(path: path, problem: "missing \"status\"", fix: "Every response needs its HTTP status code, e.g. \"status\": 200")
        }
        let status = try statusValue.int(at: path.key("status"))
        guard (100...999).contains(status) else {
            throw StructureError(path: path.key("status"), problem: "\(status) is not an HTTP status code", fix: "Use a three-digit status such as 200 or 404")
        }
        let headers = try (value["headers"] ?? .null).headers(at: path.key("headers"))
        let body = try BodyCoding.decode(value["body"], explicit: value[BodyCoding.encodingKey], headers: headers, convention: convention, path: path)
        return Track.Response(
            status: status, headers: headers, body: body,
            url: try value.url("url", at: path, required: false),
            httpVersion: try value.optionalString("httpVersion", at: path))
    }

    static func decodeDate(_ value: JSONValue, path: DecodingPath) throws -> Date {
        switch value {
        case .number(let text):
            guard let seconds = Double(text) else { break }
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
        if let duration = track.duration { members.append(("duration", .number(formatSeconds(duration)))) }
        if case .failure(let failure) = track.outcome {
            members.append(("error", .object([
                ("code", .number(String(failure.code))),
                ("description", .string(failure.description)),
                ("domain", .string(failure.domain)),
            ])))
        }
        if let recordedAt = track.recordedAt { members.append(("recordedAt", .string(ISO8601.format(recordedAt)))) }
        members.append(("request", encodeRequest(track.request)))
        if case .response(let response) = track.outcome { members.append(("response", encodeResponse(response))) }
        return .object(members)
    }

    static func encodeRequest(_ request: Track.Request) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if let (value, encoding) = BodyCoding.encode(request.body, headers: request.headers) {
            members.append(("body", value))
            if let encoding { members.append((BodyCoding.encodingKey, .string(encoding))) }
        }
        if !request.headers.isEmpty { members.append(("headers", request.headers.jsonValue)) }
        members.append(("method", .string(request.method)))
        members.append(("url", .string(request.url.absoluteString)))
        return .object(members)
    }

    static func encodeResponse(_ response: Track.Response) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if let (value, encoding) = BodyCoding.encode(response.body, headers: response.headers) {
            members.append(("body", value))
            if let encoding { members.append((BodyCoding.encodingKey, .string(encoding))) }
        }
        members.append(("headers", response.headers.jsonValue))
        if let version = response.httpVersion { members.append(("httpVersion", .string(version))) }
        members.append(("status", .number(String(response.status))))
        if let url = response.url { members.append(("url", .string(url.absoluteString))) }
        return .object(members)
    }

    static func formatSeconds(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "0" }
        return String((seconds * 1_000_000).rounded() / 1_000_000)
    }
}

/// ISO 8601 dates without `ISO8601DateFormatter`, which is neither cheap nor `Sendable`.
enum ISO8601 {
    static func format(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'"
        return formatter.string(from: date)
    }

    static func parse(_ text: String) -> Date? {
        if let date = parseStrict(text) { return date }
        // Anything the strict reader does not take goes to the formatters, as before.
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        for format in ["yyyy-MM-dd'T'HH:mm:ss.SSSXXXXX", "yyyy-MM-dd'T'HH:mm:ssXXXXX", "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'", "yyyy-MM-dd'T'HH:mm:ss'Z'"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }

    /// `yyyy-MM-ddTHH:mm:ss[.SSS](Z|±hh:mm)` with every field in range, read without a
    /// `DateFormatter`: building one per track (ICU locale data) was 70% of loading a vinyl.
    /// Anything else returns nil and takes the formatter path, so what parses is unchanged.
    static func parseStrict(_ text: String) -> Date? {
        text.utf8.withContiguousStorageIfAvailable { bytes -> Date? in
            func number(_ start: Int, _ count: Int) -> Int? {
                guard start + count <= bytes.count else { return nil }
                var value = 0
                for index in start..<(start + count) {
                    let digit = Int(bytes[index]) - 48
                    guard digit >= 0 && digit <= 9 else { return nil }
                    value = value * 10 + digit
                }
                return value
            }
            func byte(_ index: Int) -> UInt8 { index < bytes.count ? bytes[index] : 0 }
            guard let year = number(0, 4), byte(4) == UInt8(ascii: "-"), let month = number(5, 2), byte(7) == UInt8(ascii: "-"),
                  let day = number(8, 2), byte(10) == UInt8(ascii: "T"), let hour = number(11, 2), byte(13) == UInt8(ascii: ":"),
                  let minute = number(14, 2), byte(16) == UInt8(ascii: ":"), let second = number(17, 2) else { return nil }
            guard (1...12).contains(month), day >= 1, day <= daysInMonth(month, year: year), hour < 24, minute < 60, second < 60 else { return nil }
            var position = 19
            var milliseconds = 0
            if byte(position) == UInt8(ascii: ".") {
                guard let fraction = number(position + 1, 3) else { return nil }
                milliseconds = fraction
                position += 4
            }
            var offset = 0
            if byte(position) == UInt8(ascii: "Z") {
                position += 1
            } else if byte(position) == UInt8(ascii: "+") || byte(position) == UInt8(ascii: "-") {
                guard let hours = number(position + 1, 2), byte(position + 3) == UInt8(ascii: ":"), let minutes = number(position + 4, 2),
                      hours < 24, minutes < 60 else { return nil }
                offset = (hours * 60 + minutes) * 60 * (byte(position) == UInt8(ascii: "-") ? -1 : 1)
                position += 6
            } else {
                return nil
            }
            guard position == bytes.count else { return nil }
            let days = daysSince1970(year: year, month: month, day: day)
            let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offset
            // The formatter's arithmetic (milliseconds since 1970, then the reference date), so both paths give equal Dates.
            return Date(timeIntervalSinceReferenceDate: Double(seconds * 1_000 + milliseconds) / 1_000 - Date.timeIntervalBetween1970AndReferenceDate)
        } ?? nil
    }

    private static func daysInMonth(_ month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's days_from_civil).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
