import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `URLProtocol` through which `HTTPStubber` answers requests of `URLSession`s it does not
/// own: `URLSession.shared` once registered, and sessions made from its configurations.
///
/// It claims a request only while the stubber is enabled and a stub (or opt-out mode) is to
/// answer it; every other request goes to the next protocol, the real network.
@available(watchOS, unavailable)  // with HTTPStubber, whose state it reads
final class StubURLProtocol: LoadingURLProtocol {
    override class func canInit(with request: URLRequest) -> Bool {
        HTTPStubber.shared.claims(request)
    }

    override func startLoading() {
        start(from: HTTPStubber.shared.turntable)
    }
}
