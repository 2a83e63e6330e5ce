import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The baseline of benchmark 3: the least a `URLProtocol` stub can do, answering every request
/// with one prebuilt response, the mechanism OHHTTPStubs, Mocker and Replay use.
public final class ConstantStub: URLProtocol {
    nonisolated(unsafe) static var response = HTTPURLResponse(
        url: URL(string: "https://api.example.com/users/42")!, statusCode: 200,
        httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "application/json"])!

    override public class func canInit(with request: URLRequest) -> Bool { true }
    override public class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override public func startLoading() {
        client?.urlProtocol(self, didReceive: Self.response, cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: Fixtures.smallBody)
        client?.urlProtocolDidFinishLoading(self)
    }

    override public func stopLoading() {}

    /// A session whose every request the stub answers.
    public static func session() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [ConstantStub.self]
        return URLSession(configuration: configuration)
    }
}
