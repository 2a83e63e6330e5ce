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
            let value = try seconds.double(at: path.key("duration"))
            // A replay may wait this long: no negative, infinite or centuries-long waits.
            guard value >= 0, value <= maximumDuration else {
                throw StructureError(path: path.key("duration"), problem: "\(value) is not a duration in seconds", fix: "Use a number of seconds from 0 to \(Int(maximumDuration)), or leave \"duration\" out")
            }
            duration = value
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

    /// Seconds since 1970 of 0001-01-01 and 9999-12-31T23:59:59Z.
    static let dateRange: ClosedRange<Double> = -62_135_596_800 ... 253_402_300_799
    /// A day: longer than any recorded exchange, short enough that a replay delay stays sane.
    static let maximumDuration: Double = 86_400

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
        let rounded = (seconds * 1_000_000).rounded() / 1_000_000
        // Huge values overflow the rounding; `String(Double)` never writes "inf" for finite ones.
        return String(rounded.isFinite ? rounded : seconds)
    }
}

/// ISO 8601 dates, read and written by hand.
///
/// Not `DateFormatter`: on Linux its ICU parser dies with a floating-point exception on a
/// fraction of many digits (`09:00:00.1232222…Z`, found by fuzzing), leaks on some malformed
/// strings, and costs a formatter per call. Reads `yyyy-MM-ddTHH:mm:ss[.fraction](Z|±HH:MM)`
/// in the proleptic Gregorian calendar; writes `yyyy-MM-ddTHH:mm:ss.SSSZ`.
enum ISO8601 {
    static func format(_ date: Date) -> String {
        // Years outside 1-9999 have no ISO form a reader accepts: clamp to the readable range.
        let raw = date.timeIntervalSince1970
        let seconds = raw.isFinite ? min(max(raw, GramophoneFormat.dateRange.lowerBound), GramophoneFormat.dateRange.upperBound) : 0
        let milliseconds = Int((seconds * 1000).rounded(.down))
        let whole = floorDivide(milliseconds, 1000)
        let days = floorDivide(whole, 86_400)
        let time = whole - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(time / 3600, 2)):\(pad(time / 60 % 60, 2)):\(pad(time % 60, 2)).\(pad(milliseconds - whole * 1000, 3))Z"
    }

    static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20 else { return nil }
        func number(_ start: Int, _ count: Int) -> Int? {
            var value = 0
            for index in start..<(start + count) {
                let byte = bytes[index]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0, 4), bytes[4] == UInt8(ascii: "-"), let month = number(5, 2), bytes[7] == UInt8(ascii: "-"),
              let day = number(8, 2), bytes[10] == UInt8(ascii: "T"), let hour = number(11, 2), bytes[13] == UInt8(ascii: ":"),
              let minute = number(14, 2), bytes[16] == UInt8(ascii: ":"), let second = number(17, 2) else { return nil }
        var index = 19
        var nanoseconds = 0
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            var scale = 100_000_000
            while index < bytes.count, let digit = number(index, 1) {
                nanoseconds += digit * scale // digits past nanoseconds add nothing
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        guard index < bytes.count else { return nil }
        var offset = 0
        switch bytes[index] {
        case UInt8(ascii: "Z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard index + 6 == bytes.count, let hours = number(index + 1, 2), bytes[index + 3] == UInt8(ascii: ":"),
                  let minutes = number(index + 4, 2), hours <= 23, minutes <= 59 else { return nil }
            offset = (hours * 3600 + minutes * 60) * (bytes[index] == UInt8(ascii: "-") ? -1 : 1)
            index += 6
        default:
            return nil
        }
        guard index == bytes.count, year >= 1, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour <= 23, minute <= 59, second <= 59 else { return nil }
        let seconds = days(fromYear: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1e9)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 (H. Hinnant's `days_from_civil`).
    private static func days(fromYear year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day count since 1970-01-01 (`civil_from_days`).
    private static func civil(fromDays count: Int) -> (year: Int, month: Int, day: Int) {
        let z = count + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func floorDivide(_ a: Int, _ b: Int) -> Int {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
