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
    }

    let mode: Mode

    /// The first track whose request agrees with the live one on every matcher.
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
    public static func trackOrder(checking: [Matcher] = []) -> MatchingStrategy {
        MatchingStrategy(mode: .trackOrder(checking: checking))
    }

    /// `.attributes` with these matchers: `[.method, .path]`.
    public init(arrayLiteral matchers: Matcher...) {
        self = .attributes(matchers)
    }

    init(mode: Mode) { self.mode = mode }

    /// Method, URL and body (`.body`: JSON by value, forms and multipart by their parts), tracks
    /// replayable any number of times: requests to one URL whose bodies differ get a track each.
    /// A request without a body matches a track without one. `[.method, .url]` leaves bodies out
    /// (the default of Gramophone 1.0).
    public static let `default`: MatchingStrategy = [.method, .url, .body]

    /// The matchers compared, for reports.
    var matchers: [Matcher] {
        switch mode {
        case .attributes(let matchers, _): return matchers
        case .trackOrder(let checking): return checking
        }
    }

    /// For miss reports.
    var description: String {
        switch mode {
        case .attributes(let matchers, let playOnce):
            return matchers.map(\.description).joined(separator: ", ") + (playOnce ? " (each track plays once)" : "")
        case .trackOrder(let checking):
            return "track order" + (checking.isEmpty ? "" : ", checking " + checking.map(\.description).joined(separator: ", "))
        }
    }
}
