import Foundation

/// HTTP Archive 1.2 (`{"log": {"entries": [{"request", "response", …}]}}`), read liberally.
///
/// Files come from browsers, proxies (mitmproxy, Charles) and libraries, and each leaves
/// something out, so only `request.url` and `response.status` are required. Bodies are
/// `content.text`, base64-decoded when `content.encoding` is `base64`; request bodies are
/// `postData.text` or, failing that, `postData.params` form-encoded. HAR stores bodies
/// already decoded, so a `Content-Encoding` (gzip, br, deflate…) left in the headers is
/// dropped on reading, with a `Content-Length` that no longer fits, so a client does not
/// try to decompress plain bytes. A status of 0 is a failed request (Chrome's `_error`); a
/// `_error` beside a status is a transfer that failed after its response (`Track.Response.failure`).
/// A WebSocket handshake's messages are Chrome's `_webSocketMessages` (`HARFormat+WebSocket.swift`).
/// Writing lives in `HARFormat+Writing.swift`.
enum HARFormat {
    /// Encodings whose bytes HAR tools store decoded.
    static let compressions: Set<String> = ["gzip", "x-gzip", "br", "deflate", "compress", "x-compress", "zstd"]

    static func decode(_ document: JSONValue, name: String) throws -> Vinyl {
        let root = DecodingPath()
        let log = try document.required("log", at: root, fix: "A HAR file is {\"log\": {\"entries\": [ … ]}}")
        let logPath = root.key("log")
        let items = try log.optionalArray("entries", at: logPath, fix: "List the entries in an array")
        var issues: [VinylIssue] = []
        var vinyl = Vinyl(name: name, tracks: try items.indices.map { try decodeEntry(items[$0], path: logPath.key("entries").index($0), issues: &issues) })
        vinyl.issues = issues
        return vinyl
    }

    static func decodeEntry(_ entry: JSONValue, path: DecodingPath, issues: inout [VinylIssue]) throws -> Track {
        let requestValue = try entry.required("request", at: path, fix: "Every HAR entry needs a \"request\" with at least a \"url\"")
        let request = try decodeRequest(requestValue, path: path.key("request"))
        let responseValue = try entry.required("response", at: path, fix: "Every HAR entry needs a \"response\" with at least a \"status\"")
        let responsePath = path.key("response")
        let status = try responseValue.status(at: responsePath, orZero: true)
        let outcome: Track.Outcome
        if status == 0 {
            outcome = .failure(try decodeFailure(entry: entry, response: responseValue, path: path) ?? Track.Failure(.unknown))
            if case .array(let messages)? = entry[messagesKey], !messages.isEmpty {
                issues.append(
                    VinylIssue(
                        place: path.key(messagesKey).place, problem: "\(messages.count) WebSocket message\(messages.count == 1 ? "" : "s") after a handshake that failed (status 0)",
                        served: "the handshake is replayed as the failure, without them", fix: "Give the handshake's response \"status\": 101 to replay the conversation"))
            }
        } else {
            var response = try decodeResponse(responseValue, status: status, path: responsePath)
            // Chrome's `_error` beside a status: the transfer failed after its response.
            response.failure = try decodeFailure(entry: entry, response: responseValue, path: path)
            if holdsConversation(entry, status: status) {
                response.conversation = try decodeConversation(entry, path: path, issues: &issues)
                if status != 101 {
                    // WebSocket over HTTP/2 (RFC 8441) opens with a 200 to CONNECT, for one.
                    issues.append(
                        VinylIssue(
                            place: responsePath.key("status").place, problem: "a WebSocket handshake answered \(status), not 101 Switching Protocols",
                            served: "served as 101 so its conversation replays", fix: "Give the handshake's response \"status\": 101"))
                    response.status = 101
                }
            }
            outcome = .response(response)
        }
        // The epoch is what the writer puts in this required field when the date is unknown.
        let recordedAt = entry["startedDateTime"]?.stringValue.flatMap(ISO8601.parse).flatMap { $0.timeIntervalSince1970 == 0 ? nil : $0 }
        var duration: TimeInterval?
        if case .number(let text)? = entry["time"], let milliseconds = Double(text), milliseconds >= 0 {
            duration = milliseconds / 1000
        }
        return Track(request: request, outcome: outcome, recordedAt: recordedAt, duration: duration)
    }

    static func decodeRequest(_ value: JSONValue, path: DecodingPath) throws -> Track.Request {
        let (url, method, head) = try value.requestHead(at: path, splittingLines: true)
        var headers = withoutPseudoHeaders(head)
        let body = try decodeBody("postData", of: value, headers: &headers, path: path)
        return Track.Request(method: method, url: url, headers: headers, body: body)
    }

    /// The body in `key` (a request's `postData`, a response's `content`), its `mimeType` added
    /// as the `Content-Type` where the headers leave it out. The body is `text`, base64-decoded
    /// when `encoding` says so (for `postData` not in the HAR spec, but Gramophone writes it for
    /// bytes that are not UTF-8), or else a request's form `params`.
    private static func decodeBody(_ key: String, of value: JSONValue, headers: inout Headers, path: DecodingPath) throws -> Data {
        guard let object = value[key], object != .null else { return Data() }
        let objectPath = path.key(key)
        _ = try object.members(at: objectPath)
        let mimeType = try object.optionalString("mimeType", at: objectPath)
        let body: Data
        if let text = try object.optionalString("text", at: objectPath) {
            body =
                try object.optionalString("encoding", at: objectPath) != "base64"
                ? Data(text.utf8)
                : try BodyCoding.base64(
                    text, at: objectPath.key("text"), problem: "the body is not valid base64 though \"encoding\" says \"base64\"", fix: "Store the bytes as base64, or drop \"encoding\" for plain text"
                )
        } else {
            body = key == "postData" ? try formBody(object, path: objectPath) : Data()
        }
        if let mimeType, !mimeType.isEmpty, !body.isEmpty, !headers.contains("Content-Type") {
            try HeaderLineBreaks.check(name: "Content-Type", value: mimeType, at: objectPath.key("mimeType"))
            headers.add(name: "Content-Type", value: mimeType)
        }
        return body
    }

    /// A request's form `params`, form-encoded.
    private static func formBody(_ postData: JSONValue, path: DecodingPath) throws -> Data {
        let items = try postData.optionalArray("params", at: path, fix: "List form fields as [{\"name\": …, \"value\": …}]")
        var pairs: [String] = []
        for (index, item) in items.enumerated() {
            let itemPath = path.key("params").index(index)
            _ = try item.members(at: itemPath)
            let name = try item.requiredString("name", at: itemPath)
            let value = try item.optionalString("value", at: itemPath) ?? ""
            pairs.append(formEncode(name) + "=" + formEncode(value))
        }
        return Data(pairs.joined(separator: "&").utf8)
    }

    static func decodeResponse(_ value: JSONValue, status: Int, path: DecodingPath) throws -> Track.Response {
        var headers = withoutPseudoHeaders(try (value["headers"] ?? .null).headers(at: path.key("headers"), splittingLines: true))
        let body = try decodeBody("content", of: value, headers: &headers, path: path)
        dropStaleContentEncoding(&headers, body: body)
        let version = try value.optionalString("httpVersion", at: path)
        return Track.Response(
            status: status, headers: headers, body: body,
            url: try value.url("_url", at: path, required: false),
            httpVersion: version?.isEmpty == false ? version : nil)
    }

    /// Chrome lists HTTP/2 pseudo-headers (`:authority`, `:path`…) as headers; they are
    /// not header fields, and Foundation refuses names with a colon.
    static func withoutPseudoHeaders(_ headers: Headers) -> Headers {
        guard headers.contains(where: { $0.name.hasPrefix(":") }) else { return headers }
        return Headers(headers.fields.filter { !$0.name.hasPrefix(":") })
    }

    /// HAR bodies are stored decoded; a leftover `Content-Encoding` would make clients try
    /// to decompress plain bytes. A body that still starts with the gzip magic is kept as is.
    static func dropStaleContentEncoding(_ headers: inout Headers, body: Data) {
        guard let encoding = headers["Content-Encoding"]?.trimmingWhitespace().lowercased(), !encoding.isEmpty else { return }
        // Empty pieces (`gzip, , br`) name no coding.
        let codings = encoding.split(separator: ",").map { String($0).trimmingWhitespace() }.filter { !$0.isEmpty }
        guard codings.allSatisfy({ compressions.contains($0) || $0 == "identity" }) else { return }
        if codings.contains(where: { $0 == "gzip" || $0 == "x-gzip" }), body.starts(with: [0x1F, 0x8B]) { return }
        headers.remove("Content-Encoding")
        if let length = headers["Content-Length"], Int(length.trimmingWhitespace()) != body.count {
            headers.remove("Content-Length")
        }
    }

    /// The error the entry names (`_gramophoneError`, or a `_error` text), nil for none (Chrome
    /// writes `"_error": null` when there was none).
    private static func decodeFailure(entry: JSONValue, response: JSONValue, path: DecodingPath) throws -> Track.Failure? {
        if let saved = response["_gramophoneError"], saved != .null {
            return try GramophoneFormat.decodeFailure(saved, path: path.key("response").key("_gramophoneError"), defaultCode: -1)
        }
        // Chrome writes `_error: "net::ERR_…"` on the entry or the response.
        guard let message = entry["_error"]?.stringValue ?? response["_error"]?.stringValue, !message.isEmpty else { return nil }
        return Track.Failure(chromeErrors.first { $0.names.contains(where: message.contains) }?.code ?? .unknown, description: message)
    }

    /// What Chrome's `net::ERR_…` names mean, first match wins.
    private static let chromeErrors: [(names: [String], code: URLError.Code)] = [
        (["INTERNET_DISCONNECTED"], .notConnectedToInternet),
        (["NAME_NOT_RESOLVED"], .cannotFindHost),
        (["CONNECTION_REFUSED"], .cannotConnectToHost),
        (["TIMED_OUT"], .timedOut),
        (["ABORTED"], .cancelled),
        // A body cut short after its response.
        (["CONNECTION_RESET", "CONNECTION_CLOSED", "INCOMPLETE_CHUNKED_ENCODING", "CONTENT_LENGTH_MISMATCH"], .networkConnectionLost),
    ]

    /// `application/x-www-form-urlencoded` escaping: unreserved characters stay, space is `+`.
    static func formEncode(_ text: String) -> String {
        // ASCII only: `CharacterSet.alphanumerics` would let non-ASCII letters through unescaped.
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._*")
        return (text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text).replacingOccurrences(of: "%20", with: "+")
    }
}
