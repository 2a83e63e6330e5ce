import Foundation

/// Identifies an added stub, to remove it later.
public struct StubHandle: Sendable, Hashable {
    let id: Int
}

/// What the process-wide stubber does with a request no stub answers.
public enum UnhandledMode: Sendable, Equatable {
    /// Unmatched requests go to the real network, untouched.
    case optIn
    /// Unmatched requests fail with `StubError.noMatchingStub`, which lists every stub and
    /// why it did not match. Only requests an ignore rule names reach the network.
    case optOut
}

/// Requests the stubber leaves alone: when all of a rule's matchers hold, the request goes to
/// the real network even if a stub would match it.
public struct IgnoreRule: Sendable, CustomStringConvertible {
    public var matchers: [StubMatcher]

    public init(_ matchers: [StubMatcher]) { self.matchers = matchers }

    public var description: String { "ignore [" + matchers.map(\.description).joined(separator: ", ") + "]" }

    func holds(for request: Track.Request, parts: RequestParts) -> Bool {
        matchers.allSatisfy { matcher in
            if case .matched = matcher.evaluate(request, parts: parts) { return true }
            return false
        }
    }
}

/// The stubs of one Turntable or of the process-wide stubber, and the one place a request is
/// matched against them.
///
/// Order: stubs with a higher `priority` are tried first; among equal priorities the most
/// recently added is tried first, so a test can override a general stub set up earlier.
final class StubRegistry: Sendable {
    struct Entry: Sendable {
        var handle: StubHandle
        var stub: Stub
    }

    struct State: Sendable {
        /// In the order they are tried.
        var entries: [Entry] = []
        var nextID = 0
        var ignoreRules: [IgnoreRule] = []
        var unhandledMode: UnhandledMode = .optIn
        var placeholders: [String: String] = [:]
        /// Overrides every stub's own condition when set.
        var condition: NetworkCondition?
    }

    /// What to do with a request.
    enum Resolution: Sendable {
        /// A stub answers it.
        case stubbed(StubResponse, StubRequest, placeholders: [String: String], condition: NetworkCondition?)
        /// An ignore rule sends it to the network.
        case ignored
        /// No stub answers it; the report says why each was passed over.
        case unmatched(StubMissReport, UnhandledMode)
    }

    let state = Locked(State())

    var isEmpty: Bool { state.withLock { $0.entries.isEmpty } }

    @discardableResult
    func add(_ stub: Stub) -> StubHandle {
        state.withLock { state in
            let handle = StubHandle(id: state.nextID)
            state.nextID += 1
            // Insert before every entry of the same or lower priority: newest first within a priority.
            let position = state.entries.firstIndex { $0.stub.priority <= stub.priority } ?? state.entries.endIndex
            state.entries.insert(Entry(handle: handle, stub: stub), at: position)
            return handle
        }
    }

    /// Removes one stub; false when it was not there.
    @discardableResult
    func remove(_ handle: StubHandle) -> Bool {
        state.withLock { state in
            guard let index = state.entries.firstIndex(where: { $0.handle == handle }) else { return false }
            state.entries.remove(at: index)
            return true
        }
    }

    func removeAll() {
        state.withLock { $0.entries.removeAll() }
    }

    /// The stubs in the order they are tried.
    var stubs: [Stub] { state.withLock { $0.entries.map(\.stub) } }

    func resolve(_ request: Track.Request) -> Resolution {
        // Copy under the lock, match outside it: custom matchers may call back into the registry.
        let snapshot = state.withLock { $0 }
        let parts = RequestParts(request)
        if snapshot.ignoreRules.contains(where: { $0.holds(for: request, parts: parts) }) { return .ignored }
        var attempts: [StubMissReport.Attempt] = []
        for entry in snapshot.entries {
            switch entry.stub.evaluate(request, parts: parts) {
            case .failed(let reason):
                attempts.append(.init(stub: entry.stub.description, priority: entry.stub.priority, reason: reason))
            case .matched(let variables):
                guard let response = entry.stub.response(for: request.method) else {
                    let methods = entry.stub.responses.keys.sorted().joined(separator: ", ")
                    attempts.append(.init(stub: entry.stub.description, priority: entry.stub.priority,
                                          reason: "matches, but has no response for \(request.method) (only \(methods.isEmpty ? "none" : methods))"))
                    continue
                }
                return .stubbed(response, StubRequest(request: request, variables: variables), placeholders: snapshot.placeholders, condition: snapshot.condition)
            }
        }
        return .unmatched(StubMissReport(request: request, attempts: attempts), snapshot.unhandledMode)
    }
}
