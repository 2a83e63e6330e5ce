#if OpenAPI
import Foundation
import HTTPTypes
import OpenAPIRuntime

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// An OpenAPI request and response as the one way through sees them, made as swift-openapi-urlsession's
// URLSessionTransport makes them, so a vinyl recorded through that transport matches here.

extension Track.Request {
    /// The request a generated client sends to `baseURL`: its path (with its query) appended to
    /// the base URL's path, its fields, its body collected.
    ///
    /// - Throws: `TurntableTransportError.invalidRequestURL` when the two do not make a URL.
    init(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL) async throws {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true),
            let pathAndQuery = URLComponents(string: request.path ?? "")
        else { throw TurntableTransportError.invalidRequestURL(path: request.path ?? "", baseURL: baseURL) }
        components.percentEncodedPath += pathAndQuery.percentEncodedPath
        components.percentEncodedQuery = pathAndQuery.percentEncodedQuery
        guard let url = components.url else { throw TurntableTransportError.invalidRequestURL(path: request.path ?? "", baseURL: baseURL) }
        var headers = Headers()
        for field in request.headerFields { headers.add(name: field.name.rawName, value: field.value) }
        var data = Data()
        if let body { data = try await Data(collecting: body, upTo: .max) }
        self.init(method: request.method.rawValue, url: url, headers: headers, body: data)
    }
}

extension HTTPResponse {
    /// The status and fields (as recorded, repeats apart) of a response, as a transport hands them over.
    init(_ response: HTTPURLResponse, headers: Headers) {
        self.init(status: .init(code: response.statusCode))
        for field in headers.fields {
            guard let name = HTTPField.Name(field.name) else { continue }
            headerFields.append(HTTPField(name: name, value: field.value))
        }
    }
}

/// Why the Turntable could not take a request as an OpenAPI `ClientTransport`.
public enum TurntableTransportError: Error, CustomStringConvertible {
    /// The operation's path and the server URL do not make a URL.
    case invalidRequestURL(path: String, baseURL: URL)

    public var description: String {
        switch self {
        case .invalidRequestURL(let path, let baseURL):
            return "The request path \"\(path)\" and the server URL \(baseURL.absoluteString) do not make a URL. Check the serverURL given to the Client."
        }
    }
}

extension TurntableTransportError: LocalizedError {
    /// The whole explanation, as `description` gives it: what `localizedDescription` shows.
    public var errorDescription: String? { description }
}
#endif
