import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Track.Request {
    /// The request as a Turntable sees it: method, URL, headers and the body, read from
    /// `httpBody` or drained from `httpBodyStream`.
    ///
    /// - Throws: `URLError(.badURL)` when the request has no URL, as URLSession would.
    public init(_ request: URLRequest) throws {
        guard let url = request.url else { throw URLError(.badURL) }
        var headers = Headers()
        if let fields = request.allHTTPHeaderFields, !fields.isEmpty {
            headers = Headers(fields)
        }
        var body = request.httpBody ?? Data()
        if body.isEmpty, let stream = request.httpBodyStream {
            body = Self.drain(stream)
        }
        self.init(method: request.httpMethod ?? "GET", url: url, headers: headers, body: body)
    }

    static func drain(_ stream: InputStream) -> Data {
        var data = Data()
        stream.open()
        defer { stream.close() }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = stream.read(&buffer, maxLength: buffer.count)
            if count <= 0 { break }
            data.append(buffer, count: count)
        }
        return data
    }

    /// A `URLRequest` that sends this request.
    var urlRequest: URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        for field in headers.fields { request.addValue(field.value, forHTTPHeaderField: field.name) }
        if !body.isEmpty { request.httpBody = body }
        return request
    }
}

extension Track.Response {
    /// The `HTTPURLResponse` a client receives for this response.
    func httpURLResponse(for requestURL: URL) -> HTTPURLResponse {
        // HTTPURLResponse only fails on a malformed version string; fall back to HTTP/1.1.
        HTTPURLResponse(url: url ?? requestURL, statusCode: status, httpVersion: httpVersion ?? "HTTP/1.1", headerFields: headers.dictionary)
            ?? HTTPURLResponse(url: url ?? requestURL, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers.dictionary)!
    }
}
