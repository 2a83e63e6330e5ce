/// How a Turntable chooses the track that answers a request.
public struct MatchingStrategy: Sendable, CustomStringConvertible {
    enum Mode: Sendable {
        case attributes([Matcher], playOnce: Bool)
        case trackOrder(checking: [Matcher])
    }

    let mode: Mode

    /// The first track whose request agrees with the live one on every matcher.
    ///
    /// - Parameter playOnce: each track answers at most once; repeated requests get the
    ///   next matching track, and a miss once all are used.
    public static func attributes(_ matchers: [Matcher], playOnce: Bool = false) -> MatchingStrategy {
        MatchingStrategy(mode: .attributes(matchers, playOnce: playOnce))
    }

    /// The n-th request gets the n-th track, whatever it asks for, unless `checking` names
    /// matchers the pair must also satisfy (a mismatch is a miss with the difference shown).
    public static func trackOrder(checking: [Matcher] = []) -> MatchingStrategy {
        MatchingStrategy(mode: .trackOrder(checking: checking))
    }

    /// Method and URL, tracks replayable any number of times. The default.
    public static let methodAndURL = attributes([.method, .url])

    /// The default strategy: method and URL.
    public static let `default` = methodAndURL

    /// The matchers compared, for reports.
    var matchers: [Matcher] {
        switch mode {
        case .attributes(let matchers, _): return matchers
        case .trackOrder(let checking): return checking
        }
    }

    public var description: String {
        switch mode {
        case .attributes(let matchers, let playOnce):
            return matchers.map(\.description).joined(separator: ", ") + (playOnce ? " (each track plays once)" : "")
        case .trackOrder(let checking):
            return "track order" + (checking.isEmpty ? "" : ", checking " + checking.map(\.description).joined(separator: ", "))
        }
    }
}
