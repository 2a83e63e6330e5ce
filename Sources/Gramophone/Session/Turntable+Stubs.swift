import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Stubs written in code, answered before the vinyl and private to this Turntable.
///
/// ```swift
/// let turntable = try Turntable(vinylNamed: "users")
/// turntable.stub(try Stub().matching(.path("/users/{id}/avatar")).responding(with: .data(png, contentType: "image/png")))
/// ```
///
/// Stubs are tried first (highest priority, then most recently added); a request no stub
/// answers goes on to the vinyl as usual. Network conditions apply: a delayed or throttled
/// stub answers after the time it would take, with the whole body at once (the URLSession
/// path of `HTTPStubber` delivers it in chunks).
extension Turntable {
    /// Adds a stub, tried before the vinyl's tracks.
    @discardableResult
    public func stub(_ stub: Stub) -> StubHandle {
        stubs.add(stub)
    }

    /// Removes one stub; false when it was not there.
    @discardableResult
    public func removeStub(_ handle: StubHandle) -> Bool {
        stubs.remove(handle)
    }

    /// Removes every stub, leaving the vinyl.
    public func removeAllStubs() {
        stubs.removeAll()
    }

    /// Values for `{{ name }}` placeholders in this Turntable's stub bodies (variables a
    /// stub's matchers capture take precedence).
    public var stubPlaceholders: [String: String] {
        get { stubs.state.withLock { $0.placeholders } }
        set { stubs.state.withLock { $0.placeholders = newValue } }
    }
}

extension StubRegistry {
    /// The answer of the first stub that matches `live`, after its network condition; nil
    /// when none matches and the vinyl should answer.
    func turntableAnswer(_ live: Track.Request) async -> Turntable.Answer? {
        // The common case, a Turntable without stubs, costs one lock and no allocation.
        if isEmpty { return nil }
        guard case .stubbed(let response, let request, let placeholders, let condition) = resolve(live) else { return nil }
        let answer = await StubAnswer.make(response, for: request, placeholders: placeholders, condition: condition)
        let byteCount = (try? answer.outcome.get().1.count) ?? 0
        let delay = answer.condition.totalDelay(byteCount: byteCount)
        if delay > 0 {
            do {
                try await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
            } catch {
                return Turntable.Answer(outcome: .failure(URLError(.cancelled, userInfo: [NSURLErrorFailingURLErrorKey: live.url])), trackIndex: nil, duration: delay)
            }
        }
        return Turntable.Answer(outcome: answer.outcome, trackIndex: nil, duration: delay)
    }
}
