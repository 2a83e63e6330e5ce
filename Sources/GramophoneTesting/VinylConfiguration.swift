import Gramophone

/// How a test's vinyl is found, played and checked; every field left nil takes the value of
/// an enclosing suite's configuration, then the default.
///
/// ```swift
/// @Suite(.vinyl(store: .bundle(.module)))        // the suite's tests read vinyls from the bundle
/// struct UsersTests {
///     @Test(.vinyl(allTracksMustPlay: true))     // …and this one must play every track
///     func fetchesUser() async throws { … }
/// }
/// ```
public struct VinylConfiguration: Sendable {
    /// The vinyl's name; nil names it after the test (`Suite/test`, or `Class/test` in XCTest).
    public var name: String?
    /// Where the vinyl lives; nil is `VinylStore.defaultFolder`.
    public var store: VinylStore?
    /// How requests are matched to tracks; nil is `MatchingStrategy.default`.
    public var matching: MatchingStrategy?
    /// Whether a track the test never played fails the test; nil is false. Catches code
    /// that stopped making a request the vinyl says it makes.
    public var allTracksMustPlay: Bool?

    /// A configuration; leave a field nil to inherit it.
    public init(name: String? = nil, store: VinylStore? = nil, matching: MatchingStrategy? = nil, allTracksMustPlay: Bool? = nil) {
        self.name = name
        self.store = store
        self.matching = matching
        self.allTracksMustPlay = allTracksMustPlay
    }

    /// This configuration's values where set, `base`'s elsewhere: the test's own values win
    /// over its suite's.
    public func merged(over base: VinylConfiguration) -> VinylConfiguration {
        VinylConfiguration(
            name: name ?? base.name,
            store: store ?? base.store,
            matching: matching ?? base.matching,
            allTracksMustPlay: allTracksMustPlay ?? base.allTracksMustPlay)
    }
}
