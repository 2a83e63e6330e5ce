#if AsyncHTTPClient
import AsyncHTTPClient
import Foundation
import NIOHTTP1

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A response head as `HTTPClient` hands it over: status, fields (as recorded, repeats apart),
/// and the final URL (after redirects) in `history`, where `HTTPClientResponse.url` reads it.
struct HTTPClientHead: Sendable {
    let status: HTTPResponseStatus
    let headers: HTTPHeaders
    let history: [HTTPClientRequestResponse]

    init(_ response: HTTPURLResponse, headers fields: Headers) {
        var headers = HTTPHeaders()
        headers.reserveCapacity(fields.fields.count)
        for field in fields.fields { headers.add(name: field.name, value: field.value) }
        status = HTTPResponseStatus(statusCode: response.statusCode)
        self.headers = headers
        // A head always has a URL here: a track's is its request's when it recorded none.
        let finalURL = response.url?.absoluteString ?? ""
        history = [HTTPClientRequestResponse(request: HTTPClientRequest(url: finalURL), responseHead: HTTPResponseHead(version: .http1_1, status: status, headers: headers))]
    }
}
#endif
