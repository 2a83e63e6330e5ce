import Foundation

// Writing HAR that devtools and HAR viewers open: every field the 1.2 spec requires is there
// (`startedDateTime`, `time`, `cookies`, `queryString`, `headersSize`, `bodySize`, `cache`,
// `timings`), unknown sizes are -1 as the spec asks. Bodies are `text` when they are UTF-8
// and base64 with `"encoding": "base64"` otherwise, so bytes come back exactly; what HAR has
// no field for (a response URL after redirects, a transport error, also one after the response,
// how a WebSocket conversation ended) goes in `_`-prefixed custom fields, which the spec reserves for that. Conversations are
// written as Chrome writes them (HARFormat+WebSocket.swift).
extension HARFormat {
    static func encode(_ vinyl: Vinyl) -> JSONValue {
        .object([
            (
                "log",
                .object([
                    ("version", .string("1.2")),
                    ("creator", .object([("name", .string("Gramophone")), ("version", .string(String(GramophoneFormat.version)))])),
                    ("comment", .string(vinyl.name)),
                    ("entries", .array(vinyl.tracks.map(encodeEntry))),
                ])
            )
        ])
    }

    static func encodeEntry(_ track: Track) -> JSONValue {
        let milliseconds = max(0, (track.duration ?? 0) * 1000)
        let time = JSONValue.number(GramophoneFormat.formatSeconds(milliseconds))
        // Devtools reject entries without a date; the epoch marks "unknown".
        let started = ISO8601.format(track.recordedAt ?? Date(timeIntervalSince1970: 0))
        // A request that got no response is Chrome's status 0, with its error.
        let response = track.response ?? Track.Response(status: 0, httpVersion: "")
        var members: [(key: String, value: JSONValue)] = [
            ("startedDateTime", .string(started)),
            ("time", time),
            ("request", encodeRequest(track.request)),
            ("response", encodeResponse(response, request: track.request, failure: track.failure ?? response.failure)),
            ("cache", .object([])),
            ("timings", .object([("send", .number("0")), ("wait", time), ("receive", .number("0"))])),
        ]
        if let conversation = track.response?.conversation { members += encodeConversation(conversation, startedDateTime: started) }
        return .object(members)
    }

    static func encodeRequest(_ request: Track.Request) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("method", .string(request.method)),
            ("url", .string(request.url.absoluteString)),
            ("httpVersion", .string("HTTP/1.1")),
            ("cookies", .array(requestCookies(request.headers))),
            ("headers", headerList(request.headers)),
            ("queryString", .array(queryString(request.url))),
        ]
        if !request.body.isEmpty {
            members.append(("postData", .object([("mimeType", .string(request.headers["Content-Type"] ?? ""))] + textMembers(request.body))))
        }
        members.append(("headersSize", .number("-1")))
        members.append(("bodySize", .number(String(request.body.count))))
        return .object(members)
    }

    /// `failure` is the transport error: a status 0's (no response, so its type and size are
    /// unknown), or one after the response, which Chrome writes as `_error` beside the status.
    static func encodeResponse(_ response: Track.Response, request: Track.Request, failure: Track.Failure?) -> JSONValue {
        let content: [(key: String, value: JSONValue)] = [
            ("size", .number(String(response.body.count))),
            ("mimeType", .string(response.headers["Content-Type"] ?? (response.status == 0 ? "x-unknown" : ""))),
        ]
        var members: [(key: String, value: JSONValue)] = [
            ("status", .number(String(response.status))),
            ("statusText", .string(statusText(response.status))),
            ("httpVersion", .string(response.httpVersion ?? "HTTP/1.1")),
            ("cookies", .array(responseCookies(response.headers))),
            ("headers", headerList(response.headers)),
            ("content", .object(content + (response.body.isEmpty ? [] : textMembers(response.body)))),
            ("redirectURL", .string(response.headers["Location"] ?? "")),
            ("headersSize", .number("-1")),
            ("bodySize", .number(response.status == 0 ? "-1" : String(response.body.count))),
        ]
        if let url = response.url, url != request.url {
            members.append(("_url", .string(url.absoluteString)))
        }
        if let failure { members += errorFields(failure) }
        return .object(members)
    }

    /// A body as `text` where it is UTF-8, else as base64 `text` with `"encoding": "base64"`.
    private static func textMembers(_ body: Data) -> [(key: String, value: JSONValue)] {
        let stored = BodyCoding.textOrBase64(body)
        return [("text", .string(stored.string))] + (stored.isText ? [] : [("encoding", .string("base64"))])
    }

    /// A response's error: Chrome's `_error` text, and Gramophone's `_gramophoneError`, which
    /// keeps its domain and code.
    static func errorFields(_ failure: Track.Failure) -> [(key: String, value: JSONValue)] {
        [
            ("_error", .string(failure.description)),
            (
                "_gramophoneError",
                .object([
                    ("domain", .string(failure.domain)),
                    ("code", .number(String(failure.code))),
                    ("description", .string(failure.description)),
                ])
            ),
        ]
    }

    static func headerList(_ headers: Headers) -> JSONValue {
        .array(headers.fields.map { .object([("name", .string($0.name)), ("value", .string($0.value))]) })
    }

    static func queryString(_ url: URL) -> [JSONValue] {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        return items.map { .object([("name", .string($0.name)), ("value", .string($0.value ?? ""))]) }
    }

    /// `Cookie: a=1; b=2` as HAR cookie objects (empty pieces and nameless ones skipped).
    static func requestCookies(_ headers: Headers) -> [JSONValue] {
        headers.values(for: "Cookie").flatMap { line in
            HeaderPieces.pairs(line).compactMap { pair -> JSONValue? in
                guard !pair.name.isEmpty else { return nil }
                return .object([("name", .string(pair.name)), ("value", .string(pair.value ?? ""))])
            }
        }
    }

    /// Each `Set-Cookie` as a HAR cookie with the attributes HAR names. The header itself is
    /// written unchanged in `headers`; this is devtools' parsed view of it.
    static func responseCookies(_ headers: Headers) -> [JSONValue] {
        headers.values(for: "Set-Cookie").compactMap { line -> JSONValue? in
            guard let cookie = HeaderPieces.setCookie(line) else { return nil }
            var members: [(key: String, value: JSONValue)] = [("name", .string(cookie.name)), ("value", .string(cookie.value))]
            for attribute in cookie.attributes {
                switch (attribute.name.lowercased(), attribute.value) {
                case (let name, let value?) where ["path", "domain", "expires"].contains(name): members.append((name, .string(value)))
                case ("httponly", _): members.append(("httpOnly", .bool(true)))
                case ("secure", _): members.append(("secure", .bool(true)))
                default: break
                }
            }
            return .object(members)
        }
    }

    /// The reason phrase devtools show beside the status.
    static func statusText(_ status: Int) -> String { reasonPhrases[status] ?? "" }

    private static let reasonPhrases: [Int: String] = [
        101: "Switching Protocols",
        200: "OK",
        201: "Created",
        202: "Accepted",
        204: "No Content",
        206: "Partial Content",
        301: "Moved Permanently",
        302: "Found",
        303: "See Other",
        304: "Not Modified",
        307: "Temporary Redirect",
        308: "Permanent Redirect",
        400: "Bad Request",
        401: "Unauthorized",
        403: "Forbidden",
        404: "Not Found",
        405: "Method Not Allowed",
        409: "Conflict",
        410: "Gone",
        415: "Unsupported Media Type",
        422: "Unprocessable Content",
        429: "Too Many Requests",
        500: "Internal Server Error",
        501: "Not Implemented",
        502: "Bad Gateway",
        503: "Service Unavailable",
        504: "Gateway Timeout",
    ]
}
