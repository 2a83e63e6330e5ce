import Foundation

/// Gramophone's vinyl structure as a property list, for teams whose fixtures are plists.
///
/// ```
/// { gramophone = 1; name = "users";
///   tracks = ( { request = { method; url; headers = ( {name; value} … ); body = <data> };
///                response = { status; url; httpVersion; headers; body = <data> };
///                error = { domain; code; description }; recordedAt = "ISO 8601"; duration } ) }
/// ```
/// A track holds `response` or `error`, or both when the transfer failed after its response.
/// Bodies are always `<data>`, so every byte comes back as written; headers are a list of
/// name/value pairs so order and repeats survive. Reading also takes headers as a
/// dictionary (string or list values) and text bodies as strings. XML and binary plists
/// are read; XML is written, as it diffs in review.
enum PropertyListFormat {
    static func looksLikePropertyList(_ data: Data) -> Bool {
        if data.starts(with: Array("bplist".utf8)) { return true }
        var prefix = data.prefix(256)
        if prefix.starts(with: [0xEF, 0xBB, 0xBF]) { prefix = prefix.dropFirst(3) }
        let text = String(decoding: prefix, as: UTF8.self).drop(while: { $0.isWhitespace })
        return text.hasPrefix("<?xml") || text.hasPrefix("<!DOCTYPE plist") || text.hasPrefix("<plist")
    }

    // MARK: Reading

    static func decode(_ data: Data, name: String) throws -> Vinyl {
        let root = DecodingPath()
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw StructureError(path: root, problem: "not a valid property list (\((error as NSError).localizedDescription))", fix: "Fix the XML, or convert the file again with `gramophone convert`")
        }
        let top = try dictionary(object, at: root)
        if let version = top["gramophone"] {
            try RecordedValue.version(int(version, at: root.key("gramophone")), at: root.key("gramophone"))
        }
        guard let tracksValue = top["tracks"] else {
            throw StructureError(path: root, problem: "missing \"tracks\"", fix: "A plist vinyl is a dictionary with \"name\" and a \"tracks\" array")
        }
        guard let items = tracksValue as? [Any] else {
            throw StructureError(path: root.key("tracks"), problem: "expected an array", fix: "List the tracks in an array")
        }
        let tracks = try items.indices.map { try decodeTrack(items[$0], path: root.key("tracks").index($0)) }
        let vinylName = try top["name"].map { try string($0, at: root.key("name")) } ?? name
        return Vinyl(name: vinylName, tracks: tracks)
    }

    private static func decodeTrack(_ value: Any, path: DecodingPath) throws -> Track {
        let track = try dictionary(value, at: path)
        guard let requestValue = track["request"] else {
            throw StructureError(path: path, problem: "missing \"request\"", fix: "Every track needs the request it answers")
        }
        let requestPath = path.key("request")
        let requestFields = try dictionary(requestValue, at: requestPath)
        guard let urlValue = requestFields["url"] else {
            throw StructureError(path: requestPath, problem: "missing \"url\"", fix: "Every request needs its absolute URL")
        }
        let request = Track.Request(
            method: try RecordedValue.method(requestFields["method"].map { try string($0, at: requestPath.key("method")) } ?? "GET", at: requestPath.key("method")),
            url: try url(urlValue, at: requestPath.key("url")),
            headers: try headers(requestFields["headers"], at: requestPath.key("headers")),
            body: try body(requestFields["body"], at: requestPath.key("body")))
        let outcome: Track.Outcome
        if let responseValue = track["response"] {
            let responsePath = path.key("response")
            let fields = try dictionary(responseValue, at: responsePath)
            guard let statusValue = fields["status"] else {
                throw StructureError(path: responsePath, problem: "missing \"status\"", fix: "Every response needs its HTTP status code")
            }
            let status = try RecordedValue.status(int(statusValue, at: responsePath.key("status")), at: responsePath.key("status"))
            var response = Track.Response(
                status: status,
                headers: try headers(fields["headers"], at: responsePath.key("headers")),
                body: try body(fields["body"], at: responsePath.key("body")),
                url: try fields["url"].map { try url($0, at: responsePath.key("url")) },
                httpVersion: try fields["httpVersion"].map { try string($0, at: responsePath.key("httpVersion")) })
            // An error beside the response: the transfer failed after the response arrived.
            if let errorValue = track["error"] { response.failure = try failure(errorValue, at: path.key("error")) }
            outcome = .response(response)
        } else if let errorValue = track["error"] {
            outcome = .failure(try failure(errorValue, at: path.key("error")))
        } else {
            throw StructureError(path: path, problem: "missing \"response\"", fix: "Every track needs a \"response\" or an \"error\"")
        }
        var recordedAt: Date?
        if let value = track["recordedAt"] {
            if let date = value as? Date {
                recordedAt = date
            } else {
                let text = try string(value, at: path.key("recordedAt"))
                guard let date = ISO8601.parse(text) else {
                    throw StructureError(path: path.key("recordedAt"), problem: "not a date", fix: "Use an ISO 8601 date such as 2026-11-23T09:00:00Z")
                }
                recordedAt = date
            }
        }
        var duration: TimeInterval?
        if let value = track["duration"] {
            guard let seconds = (value as? NSNumber)?.doubleValue else {
                throw StructureError(path: path.key("duration"), problem: "expected a number", fix: "Write the duration in seconds as <real>")
            }
            // The range the JSON formats accept: a NaN, negative or endless duration would
            // become a replay delay.
            duration = try RecordedValue.duration(seconds, at: path.key("duration"))
        }
        return Track(request: request, outcome: outcome, recordedAt: recordedAt, duration: duration)
    }

    private static func dictionary(_ value: Any, at path: DecodingPath) throws -> [String: Any] {
        guard let dictionary = value as? [String: Any] else {
            throw StructureError(path: path, problem: "expected a dictionary", fix: "See the article \"Formats and the CLI\" in Gramophone's documentation for the shape of a plist vinyl")
        }
        return dictionary
    }

    private static func string(_ value: Any, at path: DecodingPath) throws -> String {
        guard let text = value as? String else {
            throw StructureError(path: path, problem: "expected a string", fix: "Use a <string>")
        }
        return text
    }

    private static func int(_ value: Any, at path: DecodingPath) throws -> Int {
        if let number = value as? Int { return number }
        if let number = value as? NSNumber, number.doubleValue == number.doubleValue.rounded() { return number.intValue }
        if let text = value as? String, let number = Int(text) { return number }
        throw StructureError(path: path, problem: "expected a whole number", fix: "Use an <integer>")
    }

    private static func url(_ value: Any, at path: DecodingPath) throws -> URL {
        let text = try string(value, at: path)
        guard let url = URL(string: text), url.scheme != nil else {
            throw StructureError(path: path, problem: "\"\(text.prefix(200))\" is not an absolute URL", fix: "Write the full URL with its scheme")
        }
        return url
    }

    private static func body(_ value: Any?, at path: DecodingPath) throws -> Data {
        guard let value else { return Data() }
        if let data = value as? Data { return data }
        if let text = value as? String { return Data(text.utf8) }
        throw StructureError(path: path, problem: "expected <data> or <string>", fix: "Store the body as <data> (base64 inside the tag)")
    }

    private static func headers(_ value: Any?, at path: DecodingPath) throws -> Headers {
        guard let value else { return Headers() }
        var headers = Headers()
        func add(_ name: String, _ value: String) throws {
            try HeaderLineBreaks.check(name: name, value: value, at: path)
            headers.add(name: name, value: value)
        }
        if let list = value as? [Any] {
            for (index, item) in list.enumerated() {
                let field = try dictionary(item, at: path.index(index))
                guard let nameValue = field["name"], let fieldValue = field["value"] else {
                    throw StructureError(path: path.index(index), problem: "a header needs \"name\" and \"value\"", fix: "Write each header as {name; value}")
                }
                try add(string(nameValue, at: path.index(index).key("name")), string(fieldValue, at: path.index(index).key("value")))
            }
            return headers
        }
        let fields = try dictionary(value, at: path)
        for name in fields.keys.sorted() {
            if let values = fields[name] as? [Any] {
                for (index, item) in values.enumerated() {
                    try add(name, string(item, at: path.key(name).index(index)))
                }
            } else {
                try add(name, string(fields[name] as Any, at: path.key(name)))
            }
        }
        return headers
    }

    // MARK: Writing

    static func encode(_ vinyl: Vinyl) -> Data {
        PropertyListWriter.document(
            .dictionary([
                "gramophone": .integer(GramophoneFormat.version),
                "name": .string(vinyl.name),
                "tracks": .array(vinyl.tracks.map(encodeTrack)),
            ]))
    }

    /// The error stored at `errorPath`: `{domain; code; description}`.
    private static func failure(_ errorValue: Any, at errorPath: DecodingPath) throws -> Track.Failure {
        let fields = try dictionary(errorValue, at: errorPath)
        guard let code = fields["code"] else {
            throw StructureError(path: errorPath, problem: "missing \"code\"", fix: "An error needs its domain and code")
        }
        return Track.Failure(
            domain: try fields["domain"].map { try string($0, at: errorPath.key("domain")) } ?? NSURLErrorDomain,
            code: try int(code, at: errorPath.key("code")),
            description: try fields["description"].map { try string($0, at: errorPath.key("description")) } ?? "")
    }

    private static func encodeTrack(_ track: Track) -> PropertyListWriter.Value {
        var fields: [String: PropertyListWriter.Value] = [:]
        var request: [String: PropertyListWriter.Value] = [
            "method": .string(track.request.method),
            "url": .string(track.request.url.absoluteString),
            "headers": encodeHeaders(track.request.headers),
        ]
        if !track.request.body.isEmpty { request["body"] = .data(track.request.body) }
        fields["request"] = .dictionary(request)
        if let response = track.response {
            var values: [String: PropertyListWriter.Value] = ["status": .integer(response.status), "headers": encodeHeaders(response.headers)]
            if !response.body.isEmpty { values["body"] = .data(response.body) }
            if let url = response.url { values["url"] = .string(url.absoluteString) }
            if let version = response.httpVersion { values["httpVersion"] = .string(version) }
            fields["response"] = .dictionary(values)
        }
        // In place of the response, or beside it when the transfer failed after the response.
        if let failure = track.failure ?? track.response?.failure {
            fields["error"] = .dictionary(["domain": .string(failure.domain), "code": .integer(failure.code), "description": .string(failure.description)])
        }
        // A plist <date> keeps whole seconds only; the ISO text keeps milliseconds.
        if let recordedAt = track.recordedAt { fields["recordedAt"] = .string(ISO8601.format(recordedAt)) }
        if let duration = track.duration { fields["duration"] = .real(duration) }
        return .dictionary(fields)
    }

    private static func encodeHeaders(_ headers: Headers) -> PropertyListWriter.Value {
        .array(headers.fields.map { .dictionary(["name": .string($0.name), "value": .string($0.value)]) })
    }
}
