#if AsyncHTTPClient
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// One request, one response, whichever client: AsyncHTTPClient's types are turned into the
// Track.Request and HTTPURLResponse the one way through works with, and back.

extension Track.Request {
    /// The request as a Turntable sees it, its body collected whatever its kind (bytes, a
    /// `ByteBuffer`, an async sequence of buffers, with or without a known length).
    ///
    /// - Throws: what `HTTPClient` throws for a URL it cannot send (`invalidURL`, `emptyScheme`,
    ///   `unsupportedScheme`, `emptyHost`, `missingSocketPath`); the body sequence's own error.
    init(_ request: HTTPClientRequest) async throws {
        guard let url = URL(string: request.url) else { throw HTTPClientError.invalidURL }
        if !Self.isPlainHTTPURL(request.url) { try Self.check(url) }
        var headers = Headers()
        for (name, value) in request.headers { headers.add(name: name, value: value) }
        var body = Data()
        if let requestBody = request.body {
            for try await buffer in requestBody { body.append(contentsOf: buffer.readableBytesView) }
        }
        self.init(method: request.method.rawValue, url: url, headers: headers, body: body)
    }

    /// Whether `text` starts `http://` or `https://` (any case) and a host: what nearly every
    /// request is, told from its first bytes, where asking the parsed `URL` for its scheme and
    /// host costs a fifth of a replay.
    private static func isPlainHTTPURL(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            // "http" or "https", any case, then "://".
            guard bytes.count > 7, bytes[0] | 0x20 == UInt8(ascii: "h"), bytes[1] | 0x20 == UInt8(ascii: "t"),
                bytes[2] | 0x20 == UInt8(ascii: "t"), bytes[3] | 0x20 == UInt8(ascii: "p")
            else { return false }
            var index = bytes[4] | 0x20 == UInt8(ascii: "s") ? 5 : 4
            guard index + 3 < bytes.count, bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == UInt8(ascii: "/"),
                bytes[index + 2] == UInt8(ascii: "/")
            else { return false }
            index += 3
            // A host: not empty, and no user info, port-only authority or percent-encoding (a host
            // that decodes to invalid UTF-8 has none) for the parsed URL to judge.
            guard bytes[index] != UInt8(ascii: "/"), bytes[index] != UInt8(ascii: "?"), bytes[index] != UInt8(ascii: "#"),
                bytes[index] != UInt8(ascii: ":")
            else { return false }
            while index < bytes.count, bytes[index] != UInt8(ascii: "/"), bytes[index] != UInt8(ascii: "?"), bytes[index] != UInt8(ascii: "#") {
                if bytes[index] == UInt8(ascii: "@") || bytes[index] == UInt8(ascii: "%") { return false }
                index += 1
            }
            return true
        }
    }

    /// Throws as `HTTPClient` does for a URL it cannot send (its `DeconstructedURL`).
    private static func check(_ url: URL) throws {
        guard let scheme = url.scheme else { throw HTTPClientError.emptyScheme }
        switch scheme.lowercased() {
        case "http", "https":
            guard let host = url.host, !host.isEmpty else { throw HTTPClientError.emptyHost }
        case "http+unix", "https+unix":
            guard let socket = url.host, !socket.isEmpty else { throw HTTPClientError.missingSocketPath }
        case "unix":
            guard !(url.baseURL?.path ?? url.path).isEmpty else { throw HTTPClientError.missingSocketPath }
        default:
            throw HTTPClientError.unsupportedScheme(scheme)
        }
    }

    /// An `HTTPClientRequest` that sends this request.
    var httpClientRequest: HTTPClientRequest {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = HTTPMethod(rawValue: method)
        for field in headers.fields { request.headers.add(name: field.name, value: field.value) }
        if !body.isEmpty { request.body = .bytes(ByteBuffer(bytes: body)) }
        return request
    }
}

extension HTTPURLResponse {
    /// The response head AsyncHTTPClient received, as the recorder keeps it (repeated fields
    /// joined with commas, as Foundation joins them). Nil only for a status Foundation refuses.
    convenience init?(_ response: HTTPClientResponse, requestURL: URL) {
        var fields: [String: String] = [:]
        for (name, value) in response.headers {
            fields[name] = fields[name].map { $0 + ", " + value } ?? value
        }
        self.init(url: response.url ?? requestURL, statusCode: Int(response.status.code), httpVersion: "HTTP/\(response.version.major).\(response.version.minor)", headerFields: fields)
    }
}

extension HTTPClientResponse {
    /// The answer as `HTTPClient` would hand it over, its body as it arrives.
    init(_ answer: StreamedAnswer) {
        let head = answer.head.httpClient
        self.init(version: .http1_1, status: head.status, headers: head.headers, body: Self.body(answer.body), history: head.history)
    }

    private static func body(_ body: StreamedBody) -> Body {
        switch body {
        case .whole(let data): return .bytes(ByteBuffer(bytes: data))
        case .pieces(let source): return .stream(ChunkSequence(source: source).map { ByteBuffer(bytes: $0) })
        }
    }
}
#endif
