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

    /// Reads the plist with the JSON format's decoder, as the structure is the same: `<data>`
    /// bodies become base64 and `<string>` bodies text, marked so, and a `<date>` ISO 8601 text.
    static func decode(_ data: Data, name: String) throws -> Vinyl {
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw StructureError(
                path: DecodingPath(), problem: "not a valid property list (\((error as NSError).localizedDescription))", fix: "Fix the XML, or convert the file again with `gramophone convert`")
        }
        return try GramophoneFormat.decode(json(object), name: name)
    }

    /// A plist value as JSON; `key` is the key it is stored under (a header may be named "body").
    private static func json(_ value: Any, key: String? = nil) -> JSONValue {
        switch value {
        case let fields as [String: Any]:
            return .object(
                fields.keys.sorted().flatMap { name -> [(key: String, value: JSONValue)] in
                    switch (fields[name]!, name == "body" && key != "headers") {
                    // UTF-8 as text: it costs a copy, where base64 costs an encoding and a decoding.
                    case (let body as Data, true):
                        let stored = BodyCoding.textOrBase64(body)
                        return [(name, .string(stored.string)), (BodyCoding.encodingKey, .string(stored.isText ? "text" : "base64"))]
                    case (let body as String, true): return [(name, .string(body)), (BodyCoding.encodingKey, .string("text"))]
                    case (let field, _): return [(name, json(field, key: name))]
                    }
                })
        case let items as [Any]: return .array(items.map { json($0) })
        case let text as String: return .string(text)
        case let date as Date: return .string(ISO8601.format(date))
        case let number as Int: return .number(String(number))
        case let number as NSNumber: return .number(String(number.doubleValue))
        // `<data>` anywhere but in a body: no value the reader takes there.
        default: return .null
        }
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

    private static func encodeTrack(_ track: Track) -> PropertyListWriter.Value {
        var fields: [String: PropertyListWriter.Value] = [:]
        let request = track.request
        fields["request"] = message(["method": .string(request.method), "url": .string(request.url.absoluteString)], headers: request.headers, body: request.body)
        if let response = track.response {
            var values: [String: PropertyListWriter.Value] = ["status": .integer(response.status)]
            if let url = response.url { values["url"] = .string(url.absoluteString) }
            if let version = response.httpVersion { values["httpVersion"] = .string(version) }
            fields["response"] = message(values, headers: response.headers, body: response.body)
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

    /// A request's or a response's `fields`, with its headers (a list, so order and repeats survive) and its body, if any.
    private static func message(_ fields: [String: PropertyListWriter.Value], headers: Headers, body: Data) -> PropertyListWriter.Value {
        var fields = fields
        fields["headers"] = .array(headers.fields.map { .dictionary(["name": .string($0.name), "value": .string($0.value)]) })
        if !body.isEmpty { fields["body"] = .data(body) }
        return .dictionary(fields)
    }
}
