import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension StubRegistry {
    /// The answer of the first stub that matches `live`, nil when none does and the vinyl
    /// should answer. Its network condition's delay is the answer's; the caller waits it out
    /// with the rest of the playback timing. A dynamic stub's own code may take its time, or
    /// ask the same Turntable again: `turn` is left before it runs.
    nonisolated(nonsending) func answer(_ live: Track.Request, turn: Turn? = nil) async -> Answer? {
        // The common case, a Turntable without stubs, costs one lock and no allocation.
        if isEmpty { return nil }
        guard case .stubbed(let response, let request, let placeholders, let condition) = resolve(live, answering: true) else { return nil }
        if case .dynamic = response.kind { turn?.goesLive() }
        let answer = await StubAnswer.make(response, for: request, placeholders: placeholders, condition: condition)
        let byteCount = (try? answer.outcome.get().1.count) ?? 0
        // The head in each client library's form, with the stub's fields as it gives them.
        let head = (try? answer.outcome.get()).map { response, _ in answer.headers.map { ResponseHead(response, headers: $0) } ?? ResponseHead(response) }
        var stubbed = Answer(outcome: answer.outcome, source: .stub(delay: answer.condition.totalDelay(byteCount: byteCount)), stream: answer.stream, head: head)
        // A WebSocket stub's conversation travels with its 101, for Turntable.webSocketTask(with:).
        stubbed.webSocketScript = response.webSocketScript
        stubbed.condition = answer.condition
        stubbed.cachePolicy = answer.cachePolicy
        if case .fixed(.response(let fixed)) = response.kind { stubbed.conversation = fixed.conversation }
        return stubbed
    }
}
