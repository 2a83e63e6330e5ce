import Foundation
import Gramophone
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the peers' suites need to run their completion-handler tests under Swift Testing: the
/// peers' fixture files as the test bundle holds them, and the handlers' calls in the order
/// they came.
enum Peers {
    /// A Turntable of one of the peers' fixtures (`vinyl/vinyl_single`, `dvr/example`), read
    /// from this test bundle as `Turntable(vinylName:)` / `Session(cassetteName:)` read theirs.
    static func turntable(_ fixture: String, matching: MatchingStrategy? = nil, recording: Recording? = nil) throws -> Turntable {
        try Turntable(vinylNamed: "Fixtures/" + fixture, from: .bundle(.module), matching: matching, recording: recording)
    }

    /// The environment of a recording in these ports: no `CI`, so the record mode the test
    /// names holds (the accepted difference: nothing records where `CI` is set).
    static let localEnvironment: [String: String] = [:]
}

/// The calls a completion handler received, in the order they came, and a way to wait for them.
final class HandlerCalls<Call: Sendable>: Sendable {
    private let state = Locked<(calls: [Call], waiters: [(count: Int, resume: CheckedContinuation<Void, Never>)])>(([], []))

    /// Notes one call; wakes the waiters it completes.
    func record(_ call: Call) {
        let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.calls.append(call)
            let due = state.waiters.filter { $0.count <= state.calls.count }
            state.waiters.removeAll { $0.count <= state.calls.count }
            return due.map(\.resume)
        }
        for waiter in woken { waiter.resume() }
    }

    /// The first `count` calls, once they came (an XCTest expectation's wait, without its timeout:
    /// the suite's time limit bounds it).
    func first(_ count: Int) async -> [Call] {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Bool in
                if state.calls.count >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
        return Array(state.withLock { $0.calls }.prefix(count))
    }
}

/// What a data task's completion handler was given.
struct HandlerCall: Sendable {
    var data: Data?
    var status: Int?
    var url: String?
    var headers: [String: String] = [:]
    var error: (any Error)?
    var onMainThread: Bool
    /// Whether the handler ran on `OperationQueue.main`: Vinyl's `Thread.isMainThread` where the
    /// main queue is not drained by the main thread (Linux's `swift test`, after `dispatchMain`).
    var onMainQueue: Bool

    init(_ data: Data?, _ response: URLResponse?, _ error: (any Error)?) {
        self.data = data
        let http = response as? HTTPURLResponse
        status = http?.statusCode
        url = http?.url?.absoluteString
        for case let (name as String, value as String) in http?.allHeaderFields ?? [:] { headers[name] = value }
        self.error = error
        onMainThread = Thread.isMainThread
        onMainQueue = OperationQueue.current === OperationQueue.main
    }
}

extension HandlerCalls where Call == HandlerCall {
    /// A completion handler that records its call here.
    var handler: @Sendable (Data?, URLResponse?, (any Error)?) -> Void {
        { [self] in record(HandlerCall($0, $1, $2)) }
    }
}

/// Vinyl's SwiftCheck generators, as a seeded generator so a failure reruns the same cases
/// (SwiftCheck is not a dependency here): each property runs on `Cases.count` cases.
struct Cases: RandomNumberGenerator {
    static let count = 100
    private var generator: SplitMix64

    init(seed: UInt64) { generator = SplitMix64(seed: seed) }

    mutating func next() -> UInt64 { generator.next() }

    /// Vinyl's `lowerStringGen`: one or more of `a`…`z`.
    mutating func lowerString(maxLength: Int = 12) -> String {
        String((0..<Int.random(in: 1...maxLength, using: &self)).map { _ in Character(UnicodeScalar(UInt8.random(in: 97...122, using: &self))) })
    }

    /// Vinyl's `urlStringGen`: `http://<lower>.com`.
    mutating func urlString() -> String { "http://\(lowerString()).com" }

    /// Vinyl's `urlPathGen`: zero or more `/<lower>`.
    mutating func urlPath() -> String { (0..<Int.random(in: 0...4, using: &self)).map { _ in "/" + lowerString() }.joined() }

    /// Vinyl's `pathParameterGen`: `?param1=<lower>&param2=<lower>&param3=<lower>`.
    mutating func pathParameters() -> String { "?param1=\(lowerString())&param2=\(lowerString())&param3=\(lowerString())" }

    /// Any string: letters of several scripts, digits, spaces, punctuation (SwiftCheck's `String.arbitrary`).
    mutating func string(maxLength: Int = 20) -> String {
        let alphabet = Array("abcXYZ019 -_.,;:!?\"'{}[]\\/é日本🎵\t")
        return String((0..<Int.random(in: 0...maxLength, using: &self)).map { _ in alphabet.randomElement(using: &self)! })
    }

    /// `HTTPHeaders.arbitrary`: names a header can have (tokens), values of visible ASCII.
    mutating func headers() -> [String: String] {
        var headers: [String: String] = [:]
        for _ in 0..<Int.random(in: 0...5, using: &self) {
            let value = String((0..<Int.random(in: 1...16, using: &self)).map { _ in Character(UnicodeScalar(UInt8.random(in: 33...126, using: &self))) })
            headers["X-" + lowerString(maxLength: 8)] = value
        }
        return headers
    }
}
