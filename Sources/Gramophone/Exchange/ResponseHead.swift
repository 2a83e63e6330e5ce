import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if AsyncHTTPClient
import AsyncHTTPClient
#endif
#if OpenAPI
import HTTPTypes
#endif

/// A response's head (status, fields, final URL) in the form each client library hands over,
/// built once: for a track on its first play, so a replay only copies references. An
/// `HTTPURLResponse` costs microseconds to make, and AsyncHTTPClient's and OpenAPI's heads
/// as much again when read back out of one.
final class ResponseHead: Sendable {
    /// What URLSession-shaped APIs hand over.
    let response: HTTPURLResponse
    /// The fields in order, repeats apart, as the track (or the live client) gave them.
    let headers: Headers
    #if AsyncHTTPClient
    /// What `HTTPClientSession.execute` hands over, less the body.
    let httpClient: HTTPClientHead
    #endif
    #if OpenAPI
    /// What `ClientTransport.send` hands over, less the body.
    let openAPI: HTTPResponse
    #endif

    init(_ response: HTTPURLResponse, headers: Headers) {
        self.response = response
        self.headers = headers
        #if AsyncHTTPClient
        httpClient = HTTPClientHead(response, headers: headers)
        #endif
        #if OpenAPI
        openAPI = HTTPResponse(response, headers: headers)
        #endif
    }

    /// The head of a track's response, as replayed for a request to `requestURL`.
    convenience init(_ response: Track.Response, requestURL: URL) {
        self.init(response.httpURLResponse(for: requestURL), headers: response.headers)
    }

    /// The head of a response only an `HTTPURLResponse` holds (a stub's, a live one's; repeats already joined).
    convenience init(_ response: HTTPURLResponse) {
        self.init(response, headers: Headers(fieldsOf: response))
    }
}

extension Headers {
    /// The fields of a response only an `HTTPURLResponse` holds, sorted by name (repeats
    /// already joined, as Foundation joins them).
    init(fieldsOf response: HTTPURLResponse) {
        var dictionary: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            if let name = name as? String { dictionary[name] = value as? String ?? "\(value)" }
        }
        self.init(dictionary)
    }
}
