import Foundation

/// VCR.py and Ruby VCR cassettes saved as JSON (read only).
///
/// VCR.py: `{"interactions": [{"request": {"uri", "method", "headers", "body"},
/// "response": {"status": {"code", "message"}, "headers", "body": {"string"}}}], "version": 1}`.
/// Ruby VCR: the same under `http_interactions`, bodies as `{"encoding", "string"}` or
/// `{"base64_string"}`, `recorded_at` as an HTTP date. Headers map names to lists of values
/// (plain strings are accepted too); methods may be lower case; a body may be a bare string
/// or null.
enum VCRFormat {
    static func decode(_ document: JSONValue, name: String) throws -> Vinyl {
        let root = DecodingPath()
        let key = document["http_interactions"] != nil ? "http_interactions" : "interactions"
        let items = try document.array(key, at: root, of: "interactions", fix: "A VCR cassette is {\"interactions\": [ … ]}")
        return Vinyl(name: name, tracks: try items.indices.map { try decodeInteraction(items[$0], path: root.key(key).index($0)) })
    }

    static func decodeInteraction(_ value: JSONValue, path: DecodingPath) throws -> Track {
        let requestValue = try value.required("request", at: path, fix: "Every interaction needs the request it answers")
        let requestPath = path.key("request")
        let (url, method, requestHeaders) = try requestValue.requestHead(at: requestPath, urlKey: requestValue["uri"] != nil ? "uri" : "url")
        let request = Track.Request(
            method: method, url: url, headers: requestHeaders,
            body: try decodeBody(requestValue["body"], path: requestPath.key("body")))

        let responseValue = try value.required("response", at: path, fix: "Every interaction needs a \"response\" with a \"status\"")
        let responsePath = path.key("response")
        let status = try decodeStatus(responseValue, path: responsePath)
        let version = responseValue["http_version"]?.stringValue ?? ""
        let response = Track.Response(
            status: status,
            headers: try (responseValue["headers"] ?? .null).headers(at: responsePath.key("headers")),
            body: try decodeBody(responseValue["body"], path: responsePath.key("body")),
            // Absolute or an error, as in Gramophone's JSON, which would not read a relative one back.
            url: responseValue["url"]?.stringValue == nil ? nil : try responseValue.url("url", at: responsePath, required: false),
            httpVersion: version.isEmpty ? nil : version.hasPrefix("HTTP/") ? version : "HTTP/" + version)
        let recordedAt = value["recorded_at"]?.stringValue.flatMap { ISO8601.parse($0) ?? HTTPDate.parse($0) }
        return Track(request: request, response: response, recordedAt: recordedAt)
    }

    /// The response's `status`: `{"code": 200, "message": "OK"}` or the bare code.
    private static func decodeStatus(_ response: JSONValue, path: DecodingPath) throws -> Int {
        let fix = "Write the status as {\"code\": 200, \"message\": \"OK\"}"
        let status = try response.required("status", at: path, fix: fix)
        guard case .object = status else { return try RecordedValue.status(status.int(at: path.key("status")), at: path.key("status")) }
        let codePath = path.key("status").key("code")
        return try RecordedValue.status(status.required("code", at: path.key("status"), fix: fix).int(at: codePath), at: codePath)
    }

    /// `null`, a bare string, `{"string": …}` or `{"base64_string": …}`.
    static func decodeBody(_ value: JSONValue?, path: DecodingPath) throws -> Data {
        guard let value, value != .null else { return Data() }
        switch value {
        case .string(let text): return Data(text.utf8)
        case .object:
            if let encoded = try value.optionalString("base64_string", at: path) {
                return try BodyCoding.base64(encoded, at: path.key("base64_string"), problem: "not valid base64", fix: "Store the bytes as base64")
            }
            return Data((try value.optionalString("string", at: path) ?? "").utf8)
        default:
            throw StructureError(path: path, problem: "expected a string or {\"string\": …}, found \(value.kindName)", fix: "Store the body as {\"string\": \"…\"}")
        }
    }
}
