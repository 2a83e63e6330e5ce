import Foundation

/// How bodies are stored in JSON vinyl files, readable where that loses nothing.
///
/// Reading follows the conventions of the files' writers: JSON values are JSON bodies;
/// strings are text under `text/*` and `application/json…` and base64 under any other
/// content type (vendor `+json` included, as the fixtures show); with no
/// content type at all the Vinyl library wrote text and DVR wrote base64. An explicit
/// `bodyEncoding` (`json`, `text`, `base64`) overrides the guess; the writer adds it exactly
/// where the guess would not give back the same bytes.
enum BodyCoding {
    enum Convention { case vinyl, dvr }

    static let encodingKey = "bodyEncoding"
    /// How a JSON body stored as JSON was laid out (`indent 2, final newline`): see `JSONLayout`.
    static let layoutKey = "bodyLayout"

    /// The body stored in `object` (a request or a response): `body`, read as `bodyEncoding` and `bodyLayout` say.
    static func decode(in object: JSONValue, headers: Headers, convention: Convention, path: DecodingPath) throws -> Data {
        guard let value = object["body"] else { return Data() }
        let (explicit, layout) = (object[encodingKey], object[layoutKey])
        if let layout, layout != .null {
            guard case .string(let spelling) = layout, let parsed = JSONLayout(spelling: spelling) else {
                throw StructureError(path: path.key(layoutKey), problem: "not a JSON layout", fix: "Use words from: \(JSONLayout.vocabulary); or remove \"bodyLayout\" for compact JSON")
            }
            switch value {
            case .object, .array: return Data(parsed.write(value))
            default:
                throw StructureError(path: path.key("body"), problem: "bodyLayout is set but the body is \(value.kindName)", fix: "Store the body as a JSON object or array, or remove \"bodyLayout\"")
            }
        }
        if value == .null {
            // A JSON body that is `null` is stored as null marked "json"; a bare null is no body.
            return explicit == .string("json") ? Data("null".utf8) : Data()
        }
        if let explicit {
            guard case .string(let encoding) = explicit else {
                throw StructureError(path: path.key(encodingKey), problem: "expected a string, found \(explicit.kindName)", fix: "Use \"json\", \"text\" or \"base64\"")
            }
            switch encoding {
            case "json": return Data(JSONWriter.compact(value))
            case "text", "utf8", "base64":
                let isBase64 = encoding == "base64"
                guard case .string(let text) = value else {
                    throw StructureError(
                        path: path.key("body"), problem: "bodyEncoding is \"\(isBase64 ? "base64" : "text")\" but the body is \(value.kindName)",
                        fix: "Store the body as a \(isBase64 ? "base64 " : "")string")
                }
                return isBase64 ? try base64(text, at: path.key("body")) : Data(text.utf8)
            default:
                throw StructureError(path: path.key(encodingKey), problem: "unknown body encoding \"\(encoding)\"", fix: "Use \"json\", \"text\" or \"base64\"")
            }
        }
        guard case .string(let text) = value else {
            return Data(JSONWriter.compact(value))
        }
        // DVR looked up the exact key "Content-Type" and compared its value as written: a
        // `content-type` was no type to it, `Text/plain` no text.
        guard let mediaType = convention == .dvr ? headers.value(exactlyNamed: "Content-Type") : headers.mediaType else {
            return convention == .vinyl ? Data(text.utf8) : try base64(text, at: path.key("body"))
        }
        // Vinyl and DVR decide by the exact type: only `text/*` and `application/json…` hold
        // strings; a vendor `+json` string is base64 (DVR's 401 fixture is one).
        if mediaType.hasPrefix("text/") || mediaType.hasPrefix("application/json") {
            return Data(text.utf8)
        }
        return try base64(text, at: path.key("body"))
    }

    /// The bytes `text` holds in base64, nil when it is not base64. Writers wrap long base64
    /// lines; line breaks are not corruption.
    static func base64(_ text: String) -> Data? {
        // Read as UTF-8 bytes: walking megabytes of base64 by Character cost more than decoding it.
        let utf8 = text.utf8
        let isWrapped = utf8.withContiguousStorageIfAvailable { $0.contains { $0 == 0x0A || $0 == 0x0D } } ?? utf8.contains { $0 == 0x0A || $0 == 0x0D }
        return isWrapped ? Data(base64Encoded: Data(utf8.filter { $0 != 0x0A && $0 != 0x0D })) : Data(base64Encoded: text)
    }

    /// The bytes base64 `text` holds, else a `StructureError` at `path` saying `problem` and `fix` (a body's unless told).
    static func base64(
        _ text: String, at path: DecodingPath, problem: String = "the body is not valid base64",
        fix: String = "Store binary bodies as base64, or set \"bodyEncoding\": \"text\" for plain text"
    ) throws -> Data {
        guard let data = base64(text) else { throw StructureError(path: path, problem: problem, fix: fix) }
        return data
    }

    /// The stored form of `body`: the value and, when the reader could not infer it, the encoding.
    /// `parsed` is what `members` already parsed: the body's JSON value, and whether the body is
    /// that value written compactly (each parse and write of a megabyte counts).
    private static func encode(_ body: Data, headers: Headers, parsed: (value: JSONValue, isCompact: Bool)?) -> (value: JSONValue, encoding: String?)? {
        guard !body.isEmpty else { return nil }
        let mediaType = headers.mediaType
        // Text said to be `textEncoding` where it is UTF-8, else base64 said so.
        func textOrBase64(_ textEncoding: String? = nil) -> (value: JSONValue, encoding: String?) {
            let stored = Self.textOrBase64(body)
            return (.string(stored.string), stored.isText ? textEncoding : "base64")
        }
        if let mediaType, isJSON(mediaType) {
            let compact = parsed ?? (try? JSONParser.parse(body)).map { ($0, Data(JSONWriter.compact($0)) == body) }
            if let value = compact.flatMap({ $0.isCompact ? $0.value : nil }) {
                // A string or null stored bare would read back as text or as no body.
                return (value, value.stringValue != nil || value == .null ? "json" : nil)
            }
            // Not canonical JSON: keep the exact text. Only `application/json…` strings read
            // back as text without being told.
            return textOrBase64(mediaType.hasPrefix("application/json") ? nil : "text")
        }
        guard let mediaType, !mediaType.hasPrefix("text/") else { return textOrBase64() }
        if isReadableText(mediaType), case let stored = textOrBase64("text"), stored.encoding == "text" {
            return stored
        }
        // A type such as `application/json-seq` is no JSON type for the writer, but the reader
        // takes any `application/json…` string as text: say base64 there.
        return (.string(body.base64EncodedString()), mediaType.hasPrefix("application/json") ? "base64" : nil)
    }

    /// The members that store `body` in Gramophone's own format: as `encode`, but a JSON object or
    /// array laid out otherwise than compactly (pretty-printed, a final newline) is stored as JSON
    /// too, with the layout that gives its bytes back, so it reads the same whether or not a
    /// redaction rewrote it.
    static func members(_ body: Data, headers: Headers) -> [(key: String, value: JSONValue)] {
        if let mediaType = headers.mediaType, isJSON(mediaType), let first = body.first(where: { $0 > 0x20 }),
            first == UInt8(ascii: "{") || first == UInt8(ascii: "["), let value = try? JSONParser.parse(body)
        {
            let bytes = [UInt8](body)
            let isCompact = JSONWriter.compact(value) == bytes
            if !isCompact, let layout = JSONLayout.of(bytes, value: value) {
                return members((value, nil), layout: layout.spelling)
            }
            // Parsed and written once: `encode` need not do it again.
            return members(encode(body, headers: headers, parsed: (value, isCompact)))
        }
        return members(encode(body, headers: headers, parsed: nil))
    }

    /// `body`, then `bodyEncoding` and `bodyLayout` where the body needs them, in key order.
    static func members(_ stored: (value: JSONValue, encoding: String?)?, layout: String? = nil) -> [(key: String, value: JSONValue)] {
        guard let stored else { return [] }
        var members: [(key: String, value: JSONValue)] = [("body", stored.value)]
        if let encoding = stored.encoding { members.append((encodingKey, .string(encoding))) }
        if let layout { members.append((layoutKey, .string(layout))) }
        return members
    }

    /// `bytes` as the formats store them in a string: the text where it is UTF-8, else base64.
    static func textOrBase64(_ bytes: Data) -> (string: String, isText: Bool) {
        UTF8Validation.isValid(bytes) ? (String(decoding: bytes, as: UTF8.self), true) : (bytes.base64EncodedString(), false)
    }

    static func isJSON(_ mediaType: String) -> Bool {
        mediaType == "application/json" || mediaType.hasSuffix("+json") || mediaType == "text/json"
    }

    /// Types that are text in practice though not `text/*`: worth keeping readable in review.
    static func isReadableText(_ mediaType: String) -> Bool {
        mediaType.hasSuffix("+xml") || mediaType.hasSuffix("/xml") || mediaType == "application/javascript"
            || mediaType == "application/x-www-form-urlencoded" || mediaType == "application/graphql"
            || mediaType == "application/x-ndjson" || mediaType == "application/problem+json"
    }
}
