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
///
/// Each stub keeps the requests it answered, read through its handle:
/// `#expect(handle.requests.count == 1)`.
public final class StubRegistry: Sendable {
    struct Entry: Sendable {
        /// The handle's id. Not the handle itself: a handle holds the registry, and an entry
        /// holding one would keep the registry alive forever.
        var id: Int
        var stub: Stub
    }

    struct State: Sendable {
        /// In the order they are tried.
        var entries: [Entry] = []
        var nextID = 0
        /// What each stub answered, by handle id; the count picks a sequence's response and
        /// enforces `times`. Kept after a stub is removed, so its handle still tells;
        /// `HTTPStubber.reset()` forgets them.
        var answered: [Int: AnswerLog] = [:]
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
            let id = state.nextID
            state.nextID += 1
            // Insert before every entry of the same or lower priority: newest first within a priority.
            let position = state.entries.firstIndex { $0.stub.priority <= stub.priority } ?? state.entries.endIndex
            state.entries.insert(Entry(id: id, stub: stub), at: position)
            return StubHandle(id: id, registry: self)
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

    /// Removes one stub; false when it was not there (or the handle is another registry's).
    /// The handle still tells which requests the stub answered.
    @discardableResult
    public func remove(_ handle: StubHandle) -> Bool {
        guard handle.registry === self else { return false }
        return state.withLock { state in
            guard let index = state.entries.firstIndex(where: { $0.id == handle.id }) else { return false }
            state.entries.remove(at: index)
            return true
        }
    }

    /// Removes every stub (placeholders and, on the stubber, its rules and mode stay). Their
    /// handles still tell which requests they answered.
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

    /// Counts `request` as answered by `entry`'s stub, if it is still there and under its
    /// limit: the position of this answer (from 0), or nil. Under the lock, so concurrent
    /// requests each get their own position and a limit is never overrun.
    private func take(_ request: Track.Request, for entry: Entry) -> Int? {
        state.withLock { state in
            guard state.entries.contains(where: { $0.id == entry.id }), let position = state.position(for: entry) else { return nil }
            state.answered[entry.id, default: AnswerLog()].append(request)
            return position
        }
    }

    /// - Parameters:
    ///   - bodyUnknown: the body is still a stream; matchers that read it count as
    ///     holding, so the answer is "could be stubbed".
    ///   - answering: the request is being answered, not only asked about: the stub that
    ///     answers counts it and logs it (`StubHandle.requests`). Without it nothing changes.
    func resolve(_ request: Track.Request, bodyUnknown: Bool = false, answering: Bool = false) -> Resolution {
        // Copy under the lock, match outside it: custom matchers may call back into the registry.
        let snapshot = state.withLock { state in
            var copy = state
            // Not the logs: a copy sharing their storage would make the next answer copy them all.
            copy.answered = [:]
            return copy
        }
        let parts = RequestParts(request)
        // A rule all of whose matchers hold ignores the request; one reading a body not known yet does not hold.
        if snapshot.ignoreRules.contains(where: { $0.allSatisfy { !(bodyUnknown && $0.readsBody) && $0.evaluate(request, parts: parts).holds } }) { return .ignored }
        var attempts: [StubMissReport.Attempt] = []
        func passOver(_ entry: Entry, _ reason: String) { attempts.append(.init(stub: entry.stub.description, priority: entry.stub.priority, reason: reason)) }
        for entry in snapshot.entries {
            switch entry.stub.evaluate(request, parts: parts, bodyUnknown: bodyUnknown) {
            case .failed(let reason):
                passOver(entry, reason)
            case .matched(let variables):
                guard !entry.stub.responses(for: request.method).isEmpty else {
                    let methods = entry.stub.responses.filter { !$0.value.isEmpty }.keys.sorted().joined(separator: ", ")
                    passOver(entry, "matches, but has no response for \(request.method) (only \(methods.isEmpty ? "none" : methods))")
                    continue
                }
                // The matchers ran on the snapshot; the count is taken under the lock, so two
                // requests never get the same position nor both the last of a limit.
                let position = answering ? take(request, for: entry) : state.withLock { $0.position(for: entry) }
                guard let position, let response = entry.stub.response(for: request.method, at: position) else {
                    let limit = entry.stub.limit.map { "has answered all its \($0) request\($0 == 1 ? "" : "s") (.times(\($0)))" }
                    passOver(entry, "matches, but " + (limit ?? "was removed meanwhile"))
                    continue
                }
                return .stubbed(response, StubRequest(request: request, variables: variables), placeholders: snapshot.placeholders, condition: snapshot.condition)
            }
        }
        return .unmatched(StubMissReport(request: request, attempts: attempts), snapshot.unhandledMode)
    }
}

extension StubRegistry.State {
    /// The position the next answer of `entry` would have, or nil when its limit is reached.
    func position(for entry: StubRegistry.Entry) -> Int? {
        let position = answered[entry.id]?.count ?? 0
        if let limit = entry.stub.limit, position >= limit { return nil }
        return position
    }
}

/// The requests one stub answered: all counted, the first `RequestLog.limit` kept,
/// so a stub answering millions of requests (a benchmark, a long process-wide run) stays small.
struct AnswerLog: Sendable {
    private(set) var count = 0
    private(set) var requests: [Track.Request] = []

    mutating func append(_ request: Track.Request) {
        count += 1
        if requests.count < RequestLog.limit { requests.append(request) }
    }
}
