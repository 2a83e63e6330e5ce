import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BenchFixtures

/// A model of how the peers, mattt/Replay and WeTransfer/Mocker, find the entry for a request
/// (benchmark 8): not their code, which cannot be fetched onto this machine, but their
/// mechanism. A `URLProtocol` answers from a store of entries scanned in order, comparing each
/// entry's method and `url.absoluteString` with the request's, computed per entry, as Mocker's
/// `Mock == URLRequest` does; then it builds the response's `HTTPURLResponse`, as both do per
/// request. Replay does more per entry (it rebuilds a `URLRequest` from the HAR entry's URL
/// string first), so this model is the cheaper of the two: the least their lookup costs.
/// A request picks its store with a header, as Replay routes requests to its stores (Replay
/// sets it through the session's additional headers, which FoundationNetworking does not show
/// a `URLProtocol`; the request's own header stands in).
final class PeerLookupModel: URLProtocol {
    struct Entry: Sendable {
        var method: String
        var url: URL
        var headers: [String: String]
        var body: Data
    }

    static let storeHeader = "X-Peer-Model-Store"

    /// One store per size, the entries of `Fixtures.tracks(count:)`; made once, read-only after.
    static let stores: [String: [Entry]] = Dictionary(uniqueKeysWithValues: peerSizes.map { count in
        (String(count), (0..<count).map { Entry(method: "GET", url: Fixtures.url($0), headers: ["Content-Type": "application/json"],
                                               body: Data(#"{"id":\#($0)}"#.utf8)) })
    })

    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        let request = request
        let entries = request.value(forHTTPHeaderField: Self.storeHeader).flatMap { Self.stores[$0] } ?? []
        guard let entry = entries.first(where: { $0.method == (request.httpMethod ?? "GET") && $0.url.absoluteString == request.url?.absoluteString }),
              let url = request.url,
              let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: entry.headers) else {
            client?.urlProtocol(self, didFailWithError: URLError(.resourceUnavailable))
            return
        }
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: entry.body)
        client?.urlProtocolDidFinishLoading(self)
    }

    override func stopLoading() {}

    /// A session whose requests the model answers.
    static func session() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [PeerLookupModel.self]
        return URLSession(configuration: configuration)
    }

    /// `request`, to be answered from the store of `count` entries.
    static func request(_ request: URLRequest, entries count: Int) -> URLRequest {
        var routed = request
        routed.setValue(String(count), forHTTPHeaderField: storeHeader)
        return routed
    }
}

/// The store sizes of benchmark 8, as in issue 20's table of the real peers.
let peerSizes = [1, 1_000, 10_000]
