import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a stub answers: a response, an error, a response computed from the request, or the
/// request echoed back; plus how it travels (`NetworkCondition`) and may be cached.
///
/// The factories are those of `Track.Outcome`, with the same parameters and defaults, so a
/// stub is written as a track is. Adjust one with the modifiers:
///
/// ```swift
/// .json(#"{"id":7}"#, status: 201).header("Location", "/users/7").delivered(.throughput(.edge))
/// try .json(encoding: User(id: 7))
/// ```
public struct StubResponse: Sendable, CopyModifiable {
    enum Kind: Sendable {
        case fixed(Track.Outcome)
        case dynamic(@Sendable (StubRequest) async throws -> StubResponse)
        case echo(status: Int)
    }

    var kind: Kind
    /// How the response travels.
    var condition: NetworkCondition = .immediate
    /// What a `URLCache` may do with the response (URLSession paths only; the default is not to store it).
    var cachePolicy: URLCache.StoragePolicy = .notAllowed
    /// The conversation a WebSocket stub plays (Stubbing/WebSocketScript.swift).
    var webSocketScript: WebSocketScript?

    init(kind: Kind) { self.kind = kind }

    init(_ outcome: Track.Outcome) { self.init(kind: .fixed(outcome)) }

    // MARK: Responses (as Track.Outcome)

    /// A JSON response from its text, served byte for byte (`.json(#"{"id":42}"#)`).
    public static func json(_ text: String, status: Int = 200, headers: Headers = [:]) -> StubResponse {
        StubResponse(.json(text, status: status, headers: headers))
    }

    /// A JSON response encoding `value`; by default with sorted keys and unescaped slashes.
    /// - Throws: `EncodingError` when `value` cannot be encoded.
    public static func json(encoding value: some Encodable, status: Int = 200, headers: Headers = [:], encoder: JSONEncoder? = nil) throws -> StubResponse {
        StubResponse(try .json(encoding: value, status: status, headers: headers, encoder: encoder))
    }

    /// A JSON response from a dictionary or an array as `JSONSerialization` takes it (OHHTTPStubs'
    /// `jsonObject:`, Foundation's `withJSONObject:`), written at once with sorted keys, so the
    /// response is `Sendable` whatever `object` holds. `Content-Type: application/json` unless
    /// `headers` say otherwise.
    /// - Throws: `StubError.invalidPattern` when `object` is neither a dictionary nor an array, or
    ///   a value in it is not a string, number, boolean, `NSNull`, array or dictionary.
    public static func json(object: Any, status: Int = 200, headers: Headers = [:]) throws(StubError) -> StubResponse {
        // Checked first: on Apple platforms `data(withJSONObject:)` raises an exception, not an error.
        guard JSONSerialization.isValidJSONObject(object), let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
            let problem =
                object is [String: Any] || object is [Any]
                ? "holds a value that is not a string, number, boolean, NSNull, array or dictionary" : "is neither a dictionary nor an array"
            throw StubError.invalidPattern("\(object)", kind: "JSON object", problem: problem)
        }
        return .json(String(decoding: data, as: UTF8.self), status: status, headers: headers)
    }

    /// A text response, UTF-8 encoded (`text/plain; charset=utf-8` unless `contentType` says otherwise).
    public static func text(_ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8", headers: Headers = [:]) -> StubResponse {
        StubResponse(.text(text, status: status, contentType: contentType, headers: headers))
    }

    /// A response with these bytes as its body (`application/octet-stream` unless
    /// `contentType` says otherwise; nil sends no `Content-Type`).
    public static func data(_ body: Data, status: Int = 200, contentType: String? = "application/octet-stream", headers: Headers = [:]) -> StubResponse {
        StubResponse(.data(body, status: status, contentType: contentType, headers: headers))
    }

    /// A response with no body, e.g. `.status(204)`.
    public static func status(_ status: Int, headers: Headers = [:]) -> StubResponse {
        StubResponse(.status(status, headers: headers))
    }

    /// The request fails with this `URLError` (e.g. `.notConnectedToInternet`, `.timedOut`).
    /// Any other error: throw it from a `.dynamic` response.
    public static func error(_ code: URLError.Code) -> StubResponse {
        StubResponse(.error(code))
    }

    // MARK: Responses only a stub has

    /// A response with a file's content as its body, read now; the content type follows the
    /// file's extension unless given.
    /// - Throws: `StubError.unreadableFile` when the file cannot be read.
    public static func file(_ url: URL, status: Int = 200, contentType: String? = nil) throws(StubError) -> StubResponse {
        do {
            return data(try Data(contentsOf: url), status: status, contentType: contentType ?? Self.contentTypes[url.pathExtension.lowercased()] ?? "application/octet-stream")
        } catch {
            throw StubError.unreadableFile(url.path, problem: (error as NSError).localizedDescription)
        }
    }

    /// A stream of server-sent events (`text/event-stream`), one event per chunk, `interval`
    /// seconds apart: for code that reads `bytes(for:)` as it arrives.
    ///
    /// ```swift
    /// .events([ServerSentEvent(data: #"{"delta":"Hel"}"#), ServerSentEvent(data: "[DONE]")], interval: 0.05)
    /// ```
    public static func events(_ events: [ServerSentEvent], interval: TimeInterval = 0, status: Int = 200, headers: Headers = [:]) -> StubResponse {
        chunks(
            events.map { Data($0.text.utf8) }, interval: interval, status: status,
            contentType: "text/event-stream", headers: headers.setting("Cache-Control", headers["Cache-Control"] ?? "no-cache"))
    }

    /// A body that arrives in these chunks, `interval` seconds apart (the first at once), as a
    /// network delivers a streamed or chunked response.
    public static func chunks(
        _ chunks: [Data], interval: TimeInterval = 0, status: Int = 200, contentType: String? = "application/octet-stream",
        headers: Headers = [:]
    ) -> StubResponse {
        var response = Track.Response(
            status: status, headers: contentType.map { headers.setting("Content-Type", $0) } ?? headers,
            body: chunks.reduce(into: Data()) { $0.append($1) })
        response.stream = TrackStream(pieces: chunks.map(\.count), interval: interval.isFinite ? interval : 0)
        return StubResponse(.response(response))
    }

    /// A response computed for each request, from the request and the variables the stub's
    /// matchers captured. An error thrown by `provider` fails the request with that error.
    public static func dynamic(_ provider: @escaping @Sendable (StubRequest) async throws -> StubResponse) -> StubResponse {
        StubResponse(kind: .dynamic(provider))
    }

    /// The request sent back as JSON: `{"method", "url", "headers", "body"}` (`bodyBase64`
    /// instead of `body` when the body is not UTF-8). Handy to check what a client sends.
    public static func echo(status: Int = 200) -> StubResponse { StubResponse(kind: .echo(status: status)) }

    // MARK: Modifiers

    /// The same response with the header `name` set to `value` (an echo's headers are the
    /// request's, and a failure or a `.dynamic` response has none to set: unchanged).
    public func header(_ name: String, _ value: String) -> StubResponse {
        guard case .fixed(.response(var response)) = kind else { return self }
        response.headers[name] = value
        return modified { $0.kind = .fixed(.response(response)) }
    }

    /// The same response, travelling as `condition` says. A throughput after a delay (or a
    /// delay after a throughput) keeps both: the headers after the delay, then the body at that
    /// speed (`NetworkCondition.delayedThroughput`); any other condition replaces the last.
    public func delivered(_ condition: NetworkCondition) -> StubResponse { modified { $0.condition = self.condition.followed(by: condition) } }

    /// The same response, with this cache storage policy.
    public func cachePolicy(_ policy: URLCache.StoragePolicy) -> StubResponse { modified { $0.cachePolicy = policy } }

    /// Content types by lower-case file extension, for `file(_:status:contentType:)`.
    private static let contentTypes = [
        "json": "application/json", "txt": "text/plain; charset=utf-8", "html": "text/html; charset=utf-8", "htm": "text/html; charset=utf-8",
        "xml": "application/xml", "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "pdf": "application/pdf",
    ]
}

/// The request a dynamic stub response is computed from.
public struct StubRequest: Sendable {
    /// The request as sent.
    public var request: Track.Request
    /// Values captured by the stub's matchers: `{id}` in a path pattern or URI template, or a
    /// named group of a URL regex.
    public var variables: [String: String]

    /// The body decoded as JSON into `type`.
    package func decodeJSON<T: Decodable>(_ type: T.Type, decoder: JSONDecoder = JSONDecoder()) throws -> T {
        try decoder.decode(type, from: request.body)
    }
}
