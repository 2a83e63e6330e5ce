import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `URLProtocol` through which `HTTPStubber` answers requests of `URLSession`s it does not
/// own: `URLSession.shared` once registered, and sessions made from its configurations.
///
/// It claims a request only while the stubber is enabled and a stub (or opt-out mode) is to
/// answer it; every other request goes to the next protocol, the real network.
final class StubURLProtocol: URLProtocol {
    /// The running delivery, cancelled by `stopLoading`.
    private let delivery = Locked<Task<Void, Never>?>(nil)

    override class func canInit(with request: URLRequest) -> Bool {
        HTTPStubber.shared.claims(request)
    }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        let request = self.request
        // URLProtocol is not Sendable; the URL loading system calls it from any thread and
        // the client tolerates that, so the delivery task may hold it.
        let this = Unchecked(self)
        let task = Task {
            let answer: StubAnswer
            do {
                let live = try Track.Request(request)
                switch HTTPStubber.shared.registry.resolve(live) {
                case .stubbed(let response, let stubRequest, let placeholders, let condition):
                    answer = await StubAnswer.make(response, for: stubRequest, placeholders: placeholders, condition: condition)
                case .unmatched(let report, _):
                    answer = StubAnswer(outcome: .failure(StubError.noMatchingStub(report)), condition: .immediate, cachePolicy: .notAllowed)
                case .ignored:
                    // An ignore rule added between canInit and now: too late to hand the request back.
                    answer = StubAnswer(outcome: .failure(StubError.noMatchingStub(StubMissReport(request: live, attempts: []))), condition: .immediate, cachePolicy: .notAllowed)
                }
            } catch {
                answer = StubAnswer(outcome: .failure(error), condition: .immediate, cachePolicy: .notAllowed)
            }
            await this.value.deliver(answer)
        }
        delivery.withLock { $0 = task }
    }

    override func stopLoading() {
        delivery.withLock { task in
            task?.cancel()
            task = nil
        }
    }

    /// Hands the answer to the client as the network would: headers, then the body in the
    /// chunks and at the pace the network condition says.
    private func deliver(_ answer: StubAnswer) async {
        let byteCount = (try? answer.outcome.get().1.count) ?? 0
        let plan = answer.condition.deliveryPlan(byteCount: byteCount)
        guard await Self.wait(plan.initialDelay) else { return }
        switch answer.outcome {
        case .failure(let error):
            client?.urlProtocol(self, didFailWithError: error)
        case .success(let (response, body)):
            client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: answer.cachePolicy)
            var offset = body.startIndex
            for chunk in plan.chunks {
                guard await Self.wait(chunk.delay) else { return }
                let end = body.index(offset, offsetBy: chunk.size)
                client?.urlProtocol(self, didLoad: body.subdata(in: offset..<end))
                offset = end
            }
            client?.urlProtocolDidFinishLoading(self)
        }
    }

    /// Sleeps; false when the load was stopped meanwhile (the client must hear nothing more).
    private static func wait(_ seconds: TimeInterval) async -> Bool {
        if seconds > 0 {
            do { try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000)) } catch { return false }
        }
        return !Task.isCancelled
    }
}
