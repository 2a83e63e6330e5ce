extension Turntable {
    /// How many miss reports a Turntable keeps; `playback.misses` still counts every miss.
    static let missLogLimit = 100

    /// The reports of the requests no track matched, oldest first (at most the first 100),
    /// since the vinyl was loaded.
    ///
    /// A miss is thrown into the code under test, which may catch it and carry on (show an
    /// error view, retry, fall back to a cache). Test helpers read this log when the test
    /// ends so a swallowed miss still fails the test with its nearest-track diff.
    public var missReports: [MissReport] {
        deck.withLock { $0.missLog }
    }
}
