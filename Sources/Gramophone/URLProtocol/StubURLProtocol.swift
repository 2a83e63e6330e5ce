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
final class StubURLProtocol: URLProtocol, LoadingURLProtocol {
    /// Locked: set by startLoading and read by stopLoading, which the system may call from other threads.
    let load = Locked<ProtocolLoad?>(nil)

    override class func canInit(with request: URLRequest) -> Bool {
        HTTPStubber.shared.claims(request)
    }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        let started = ProtocolSlots.load(self, from: HTTPStubber.shared.turntable)
        load.withLock { $0 = started }
    }

    override func stopLoading() {
        load.withLock { $0?.stop() }
    }
}
