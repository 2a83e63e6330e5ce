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
                switch HTTPStubber.shared.stubs.resolve(live) {
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
            let byteCount = (try? answer.outcome.get().1.count) ?? 0
            let plan = answer.condition.deliveryPlan(byteCount: byteCount)
            guard await URLProtocolDelivery.wait(plan.initialDelay) else { return }
            await URLProtocolDelivery.deliver(answer.outcome, to: this.value, cachePolicy: answer.cachePolicy, chunks: plan.chunks)
        }
        delivery.withLock { $0 = task }
    }

    override func stopLoading() {
        delivery.withLock { task in
            task?.cancel()
            task = nil
        }
    }
}
