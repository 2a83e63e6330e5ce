extension Turntable {
    /// How many miss reports a Turntable keeps; `playback.misses` still counts every miss.
    static let missLogLimit = 100

    /// The reports of the requests no track answered, oldest first (at most the first 100),
    /// since the vinyl was loaded. A request that was recorded instead is not a miss.
    ///
    /// A miss is thrown into the code under test, which may catch it and carry on (show an
    /// error view, retry, fall back to a cache). Test helpers read this log when the test
    /// ends so a swallowed miss still fails the test with its nearest-track diff.
    public var missReports: [MissReport] {
        deck.withLock { $0.missLog }
    }

    /// Logs `answer` if it is a miss. Called where every API style's answer passes, after
    /// recording had its chance, so only misses the caller sees are logged.
    func logIfMissed(_ answer: Answer) {
        guard case .failure(let error) = answer.outcome, let report = (error as? TurntableError)?.missReport else { return }
        deck.withLock { deck in
            if deck.missLog.count < Self.missLogLimit { deck.missLog.append(report) }
        }
    }
}
