import Foundation

/// Errors a Turntable throws instead of answering.
public enum TurntableError: Error, Sendable, CustomStringConvertible {
    /// No track matches the request.
    case noMatchingTrack(MissReport)

    public var description: String {
        switch self {
        case .noMatchingTrack(let report): return report.description
        }
    }

    /// The miss report, when this is a miss.
    public var missReport: MissReport? {
        switch self {
        case .noMatchingTrack(let report): return report
        }
    }
}

extension TurntableError: LocalizedError {
    /// The whole explanation, as `description` gives it: what `localizedDescription` shows.
    public var errorDescription: String? { description }
}
