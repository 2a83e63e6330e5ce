import Foundation

/// A vinyl older than its `Recording.reRecordAfter`: recorded again where recording is
/// allowed, replayed as it is (and reported) on CI and with `.never`.
///
/// Read it as `turntable.playback.staleness`; nil when the vinyl is not stale.
public struct Staleness: Sendable, Equatable, CustomStringConvertible {
    /// The vinyl's name.
    public package(set) var vinylName: String
    /// The vinyl's file.
    public package(set) var file: URL
    /// When its oldest dated track was recorded.
    public package(set) var oldestRecording: Date
    /// The `reRecordAfter` interval it has outlived, in seconds.
    public package(set) var limit: TimeInterval
    /// Whether this Turntable records the vinyl again (as `.all`: every request sent, the file
    /// replaced on eject); false when it replays the stale tracks (on CI, or with `.never`).
    public package(set) var isReRecorded: Bool

    /// The vinyl as stale as `recording` says, nil when it is not: its oldest dated track is
    /// older than `reRecordAfter` (tracks without a date do not count).
    init?(_ vinyl: Vinyl, file: URL, recording: Recording, reRecords: Bool, now: Date = Date()) {
        guard let limit = recording.reRecordAfter, let oldest = vinyl.tracks.compactMap(\.recordedAt).min(), now.timeIntervalSince(oldest) > limit
        else { return nil }
        self.vinylName = vinyl.name
        self.file = file
        self.oldestRecording = oldest
        self.limit = limit
        self.isReRecorded = reRecords
    }

    /// What a test run is told, once per vinyl.
    public var description: String {
        let age = Date().timeIntervalSince(oldestRecording)
        let said = "Gramophone: vinyl \"\(vinylName)\" (\(file.path)) is stale: recorded \(Self.days(age)) ago, and reRecordAfter is \(Self.days(limit))"
        if isReRecorded { return said + "; recording it again" }
        return said + "; replayed as it is (on CI, or with the record mode never, nothing is recorded). Record it again locally, or check it with `gramophone verify`."
    }

    private static func days(_ seconds: TimeInterval) -> String {
        if seconds < 2 * 86_400 {
            let hours = Int(seconds / 3_600)
            return "\(hours) hour\(hours == 1 ? "" : "s")"
        }
        return "\(Int(seconds / 86_400)) days"
    }

    /// Files already reported in this process: a vinyl says it is stale once.
    private static let reported = Locked(Set<String>())

    /// True the first time it is asked for this vinyl's file in this process.
    package func claimReport() -> Bool {
        Self.reported.withLock { $0.insert(file.standardizedFileURL.path).inserted }
    }
}
