import Foundation

/// The stubs of a Turntable (`turntable.stubs`) or of the process-wide stubber
/// (`HTTPStubber.shared.stubs`): add, remove, list; the one place a request is matched
/// against stubs.
///
/// ```swift
/// let handle = turntable.stubs.add(Stub().matching(.host("api.example.com")).responding(with: .status(204)))
/// try turntable.stubs.add(contentsOf: mocktailFolder)   // a folder of Mocktail .tail files
/// turntable.stubs.remove(handle)
/// ```
///
/// Order: stubs with a higher `priority` are tried first; among equal priorities the most
/// recently added is tried first, so a test can override a general stub set up earlier.
/// On a Turntable, a request no stub answers goes on to the vinyl.
public final class StubRegistry: Sendable {
    struct Entry: Sendable {
        var handle: StubHandle
        var stub: Stub
    }

    struct State: Sendable {
        /// In the order they are tried.
        var entries: [Entry] = []
        var nextID = 0
        /// Requests for which all of a rule's matchers hold go to the real network (stubber only).
        var ignoreRules: [[StubMatcher]] = []
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

    init() {}

    var isEmpty: Bool { state.withLock { $0.entries.isEmpty } }

    /// Adds a stub; keep the handle to remove it later.
    @discardableResult
    public func add(_ stub: Stub) -> StubHandle {
        state.withLock { state in
            let handle = StubHandle(id: state.nextID)
            state.nextID += 1
            // Insert before every entry of the same or lower priority: newest first within a priority.
            let position = state.entries.firstIndex { $0.stub.priority <= stub.priority } ?? state.entries.endIndex
            state.entries.insert(Entry(handle: handle, stub: stub), at: position)
            return handle
        }
    }

    /// Adds the stubs of a Mocktail folder (`.tail` files): as one stub, in which the file
    /// with the longest matching URL pattern answers; `{{ name }}` placeholders are filled
    /// from `placeholders`.
    /// - Throws: `VinylError` naming the folder or the `.tail` file that cannot be read.
    @discardableResult
    public func add(contentsOf folder: URL, priority: Int = 0) throws -> StubHandle {
        let collection = try MocktailCollection(contentsOf: folder)
        let name = "Mocktail folder \(folder.lastPathComponent)"
        let stub = Stub(name, priority: priority)
            .matching(.custom(name) { collection.stub(method: $0.method, url: $0.url) != nil })
            .responding(
                with: .dynamic { request in
                    guard let response = collection.response(for: request.request) else { return .error(.resourceUnavailable) }
                    return StubResponse(.response(response))
                })
        return add(stub)
    }

    /// Removes one stub; false when it was not there.
    @discardableResult
    public func remove(_ handle: StubHandle) -> Bool {
        state.withLock { state in
            guard let index = state.entries.firstIndex(where: { $0.handle == handle }) else { return false }
            state.entries.remove(at: index)
            return true
        }
    }

    /// Removes every stub (placeholders and, on the stubber, its rules and mode stay).
    public func removeAll() {
        state.withLock { $0.entries.removeAll() }
    }

    /// The stubs, in the order they are tried.
    public var all: [Stub] { state.withLock { $0.entries.map(\.stub) } }

    /// Values for `{{ name }}` placeholders in stub bodies; variables a stub's matchers
    /// capture take precedence.
    public var placeholders: [String: String] {
        get { state.withLock { $0.placeholders } }
        set { state.withLock { $0.placeholders = newValue } }
    }

    /// - Parameter bodyUnknown: the body is still a stream; matchers that read it count as
    ///   holding, so the answer is "could be stubbed".
    func resolve(_ request: Track.Request, bodyUnknown: Bool = false) -> Resolution {
        // Copy under the lock, match outside it: custom matchers may call back into the registry.
        let snapshot = state.withLock { $0 }
        let parts = RequestParts(request)
        let ignored = snapshot.ignoreRules.contains { rule in
            rule.allSatisfy { matcher in
                if bodyUnknown && matcher.readsBody { return false }
                if case .matched = matcher.evaluate(request, parts: parts) { return true }
                return false
            }
        }
        if ignored { return .ignored }
        var attempts: [StubMissReport.Attempt] = []
        for entry in snapshot.entries {
            switch entry.stub.evaluate(request, parts: parts, bodyUnknown: bodyUnknown) {
            case .failed(let reason):
                attempts.append(.init(stub: entry.stub.description, priority: entry.stub.priority, reason: reason))
            case .matched(let variables):
                guard let response = entry.stub.response(for: request.method) else {
                    let methods = entry.stub.responses.keys.sorted().joined(separator: ", ")
                    attempts.append(
                        .init(
                            stub: entry.stub.description, priority: entry.stub.priority,
                            reason: "matches, but has no response for \(request.method) (only \(methods.isEmpty ? "none" : methods))"))
                    continue
                }
                return .stubbed(response, StubRequest(request: request, variables: variables), placeholders: snapshot.placeholders, condition: snapshot.condition)
            }
        }
        return .unmatched(StubMissReport(request: request, attempts: attempts), snapshot.unhandledMode)
    }
}
