import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// A recorded 3xx whose target the Turntable can also answer is followed, as URLSession follows
// a server's redirect: the async API and completion handlers get the final response; a
// delegate is asked first (`willPerformHTTPRedirection`), and may stop at the 3xx.
extension Turntable {
    /// URLSession's limit: a seventeenth hop fails with `URLError(.httpTooManyRedirects)`.
    static let redirectLimit = 16

    /// The request a redirect answer leads to, made as URLSession makes it (303, and 301/302
    /// after a POST, become a GET without a body; 307 and 308 keep method and body); nil when
    /// `answer` is not a redirect with a `Location`.
    static func redirectRequest(after answer: Answer, of live: Track.Request) -> (response: HTTPURLResponse, request: URLRequest)? {
        guard case .success(let (response, _)) = answer.outcome, [301, 302, 303, 307, 308].contains(response.statusCode),
            let location = response.value(forHTTPHeaderField: "Location"),
            let target = URL(string: location, relativeTo: response.url ?? live.url)?.absoluteURL
        else { return nil }
        var request = live.urlRequest
        request.url = target
        let becomesGet = response.statusCode == 303 ? live.method != "HEAD" : (response.statusCode <= 302 && live.method == "POST")
        if becomesGet {
            request.httpMethod = "GET"
            request.httpBody = nil
            request.setValue(nil, forHTTPHeaderField: "Content-Type")
            request.setValue(nil, forHTTPHeaderField: "Content-Length")
        }
        return (response, request)
    }

    /// Whether a stub, a track or the recorder would answer `request`, without playing anything.
    func canAnswer(_ request: Track.Request) -> Bool {
        if !stubs.isEmpty, case .stubbed = stubs.resolve(request) { return true }
        if let recorder, recorder.mayRecord { return true }
        let parts = RequestParts(request)
        return deck.withLock { deck in
            switch deck.strategy.mode {
            case .attributes(_, let playOnce):
                return deck.index.firstMatch(for: request, parts: parts, skippingPlayed: playOnce) != nil
            case .trackOrder(let checking):
                let position = deck.nextInOrder
                guard position < deck.index.tracks.count else { return false }
                return checking.allSatisfy { $0.matches(live: request, liveParts: parts, recorded: deck.index.tracks[position].request, recordedParts: deck.index.parts[position]) }
            case .dvr:
                return !deck.index.allMatches(for: request, parts: parts).isEmpty
            }
        }
    }

    /// Answers `live`, following redirects to targets this Turntable answers. `approve` sees
    /// each redirect and returns the request to follow, or nil to stop at the 3xx. Each hop
    /// but the last is held back by the playback timing here (no later than `deadline`, which
    /// then ends the answer with its error); the caller waits out the last.
    ///
    /// Requests choose their tracks in the Turntable's order (Exchange/ResumeOrder.swift): a
    /// task at the place it took when resumed (`turn`), any other call where it stands now.
    nonisolated(nonsending) func answerFollowingRedirects(
        _ live: Track.Request, streaming: Bool = false, through fetch: LiveFetch = .urlSession, deadline: ReplayDeadline? = nil, turn: Turn? = nil,
        approve: (HTTPURLResponse, URLRequest) async -> URLRequest? = { $1 }
    ) async -> Answer {
        let turn = turn ?? order.callPlace()
        await turn?.waitToChoose()
        defer { turn?.endChoosing() }
        var request = live
        var answer = await answer(request, streaming: streaming, through: fetch, turn: turn)
        var hops = 0
        while let (response, next) = Self.redirectRequest(after: answer, of: request),
            let nextRequest = try? Track.Request(next), canAnswer(nextRequest)
        {
            guard hops < Self.redirectLimit else {
                return Answer(outcome: .failure(URLError(.httpTooManyRedirects, userInfo: [NSURLErrorFailingURLErrorKey: request.url])), source: .miss)
            }
            guard let approved = await approve(response, next), let approvedRequest = try? Track.Request(approved) else { break }
            // A hop held back by the timing is not due at once: the requests after it choose meanwhile.
            if playbackDelay(for: answer) > 0 { turn?.endChoosing() }
            do {
                try await waitForPlayback(of: answer, until: deadline)
            } catch {
                return Answer(outcome: .failure(error), source: .miss)
            }
            if Task.isCancelled { break }
            hops += 1
            request = approvedRequest
            answer = await self.answer(request, streaming: streaming, through: fetch, turn: turn)
        }
        return answer
    }
}
