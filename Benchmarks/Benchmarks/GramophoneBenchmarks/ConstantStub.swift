import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BenchFixtures

/// The baseline of benchmark 3: the least a `URLProtocol` stub can do, answering every request
/// with one prebuilt response, the mechanism OHHTTPStubs, Mocker and Replay use.
final class ConstantStub: URLProtocol {
    nonisolated(unsafe) static var response = HTTPURLResponse(url: URL(string: "https://api.example.com/users/42")!, statusCode: 200,
                                                              httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "application/json"])!

    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        client?.urlProtocol(self, didReceive: Self.response, cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: Fixtures.smallBody)
        client?.urlProtocolDidFinishLoading(self)
    }

    override func stopLoading() {}

    /// A session whose every request the stub answers.
    static func session() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [ConstantStub.self]
        return URLSession(configuration: configuration)
    }
}
