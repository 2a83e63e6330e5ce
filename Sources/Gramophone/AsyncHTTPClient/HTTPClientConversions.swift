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
    /// - Throws: `HTTPClientError.invalidURL` for a URL without a scheme and host, as `HTTPClient` does;
    ///   the body sequence's own error.
    init(_ request: HTTPClientRequest) async throws {
        guard let url = URL(string: request.url), url.scheme != nil, url.host != nil else { throw HTTPClientError.invalidURL }
        var headers = Headers()
        for (name, value) in request.headers { headers.add(name: name, value: value) }
        var body = Data()
        if let requestBody = request.body {
            for try await buffer in requestBody { body.append(contentsOf: buffer.readableBytesView) }
        }
        self.init(method: request.method.rawValue, url: url, headers: headers, body: body)
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
    /// The answer as `HTTPClient` would hand it over: status, headers, the final URL (after
    /// redirects) in `history`, and the body as it arrives from `source`.
    init(_ response: HTTPURLResponse, body: StreamedBody, requestURL: URL) {
        var headers = HTTPHeaders()
        for (name, value) in response.allHeaderFields {
            guard let name = name as? String else { continue }
            headers.add(name: name, value: value as? String ?? "\(value)")
        }
        let status = HTTPResponseStatus(statusCode: response.statusCode)
        let finalURL = response.url ?? requestURL
        self.init(
            version: .http1_1, status: status, headers: headers,
            body: Self.body(body),
            history: [HTTPClientRequestResponse(request: HTTPClientRequest(url: finalURL.absoluteString), responseHead: HTTPResponseHead(version: .http1_1, status: status, headers: headers))])
    }

    private static func body(_ body: StreamedBody) -> Body {
        switch body {
        case .whole(let data): return .bytes(ByteBuffer(bytes: data))
        case .pieces(let source): return .stream(ChunkSequence(source: source).map { ByteBuffer(bytes: $0) })
        }
    }
}
#endif
