/// How a Turntable chooses the track that answers a request.
///
/// An array of matchers means `.attributes` with those matchers:
///
/// ```swift
/// try Turntable(vinylNamed: "search", matching: [.method, .path, .query])
/// try Turntable(vinylNamed: "polling", matching: .attributes([.method, .url], playOnce: true))
/// ```
public struct MatchingStrategy: Sendable, ExpressibleByArrayLiteral {
    enum Mode: Sendable {
        case attributes([Matcher], playOnce: Bool)
        case trackOrder(checking: [Matcher])
        case dvr(DVRMatching)
    }

    let mode: Mode
    /// Values replayed answers take from the live request (`echoing(_:)`).
    var echoes: [Echo] = []

    /// The tracks whose requests agree with the live one on every matcher, each identical
    /// request getting the next of them (its next recorded occurrence); once all have played,
    /// the last repeats.
    ///
    /// - Parameters:
    ///   - matchers: what must agree, such as `[.method, .url]`.
    ///   - playOnce: each track answers at most once; repeated requests get the next matching
    ///     track, and a miss once all are used.
    public static func attributes(_ matchers: [Matcher], playOnce: Bool = false) -> MatchingStrategy {
        MatchingStrategy(mode: .attributes(matchers, playOnce: playOnce))
    }

    /// The n-th request gets the n-th track, whatever it asks for, unless `checking` names
    /// matchers the pair must also satisfy (a mismatch is a miss with the difference shown).
    /// Requests count in the order they came: tasks as they were resumed, async calls as they
    /// were made.
    public static func trackOrder(checking: [Matcher] = []) -> MatchingStrategy {
        MatchingStrategy(mode: .trackOrder(checking: checking))
    }

    /// As DVR's `Session` matched (`Cassette.interactionForRequest`): the same method, the
    /// same URL as written (`URL ==`), the same body as DVR reads it by each side's exact
    /// `Content-Type` key (text, a JSON value, or base64); of several, the last answers. A
    /// Turntable given no strategy uses it for a cassette DVR wrote, and its miss reports say so.
    public static let dvr = dvr()

    /// `.dvr` with DVR's `Session` options: of the interactions that agree, the first answers
    /// unless a later one also has the request's values for `headersToCheck` (names as
    /// written, as DVR looked them up); `parametersToIgnore` are query parameters left out of
    /// the URL comparison.
    public static func dvr(headersToCheck: [String] = [], parametersToIgnore: [String] = []) -> MatchingStrategy {
        MatchingStrategy(mode: .dvr(DVRMatching(headersToCheck: headersToCheck, parametersToIgnore: parametersToIgnore)))
    }

    /// The strategy a Turntable uses when none is given: `.dvr` for a cassette DVR wrote, so it
    /// replays as it did under DVR, else `.default`.
    static func chosen(for vinyl: Vinyl) -> MatchingStrategy {
        vinyl.format == .dvr ? .dvr : .default
    }

    /// `.attributes` with these matchers: `[.method, .path]`.
    public init(arrayLiteral matchers: Matcher...) {
        self = .attributes(matchers)
    }

    init(mode: Mode) { self.mode = mode }

    /// Method, URL and body (`.body`: JSON by value, forms and multipart by their parts), the
    /// last occurrence of a request replayable any number of times: requests to one URL whose
    /// bodies differ get a track each, identical ones their recorded occurrences in order.
    /// A request without a body matches a track without one. `[.method, .url]` leaves bodies out
    /// (the default of Gramophone 1.0).
    public static let `default`: MatchingStrategy = [.method, .url, .body]

    /// JSON-RPC 2.0 over HTTP (MCP's Streamable HTTP, Ethereum nodes, language servers behind a
    /// gateway): method, URL, and the body ignoring each message's `id` (a batch element by
    /// element), with every replayed answer taking the live request's ids (``Echo/jsonRPCID``),
    /// in JSON bodies and in event streams alike; notifications pass through unchanged.
    ///
    /// ```swift
    /// let turntable = try Turntable(vinylNamed: "mcp", matching: .jsonRPC, recording: Recording())
    /// ```
    public static let jsonRPC: MatchingStrategy = MatchingStrategy.attributes([.method, .url, .body(ignoring: ["id", "[].id"])]).echoing(.jsonRPCID)

    /// This strategy, with every replayed answer taking values from the live request as `echoes`
    /// say (applied in order). What is recorded is never changed.
    public func echoing(_ echoes: Echo...) -> MatchingStrategy {
        var copy = self
        copy.echoes += echoes
        return copy
    }

    /// The matchers compared, for reports.
    var matchers: [Matcher] {
        switch mode {
        case .attributes(let matchers, _): return matchers
        case .trackOrder(let checking): return checking
        case .dvr(let dvr): return dvr.matchers
        }
    }

    /// For miss reports.
    var description: String {
        let echoing = echoes.isEmpty ? "" : "; echoing " + echoes.map(\.description).joined(separator: ", ")
        switch mode {
        case .attributes(let matchers, let playOnce):
            return matchers.map(\.description).joined(separator: ", ") + (playOnce ? " (each track plays once)" : "") + echoing
        case .trackOrder(let checking):
            return "track order" + (checking.isEmpty ? "" : ", checking " + checking.map(\.description).joined(separator: ", ")) + echoing
        case .dvr(let dvr):
            return dvr.description + echoing
        }
    }
}
