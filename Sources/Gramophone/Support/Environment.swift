import Foundation

/// Reads the variables Gramophone takes (`CI`, `GRAMOPHONE_RECORD_MODE`, `GRAMOPHONE_VINYLS`).
///
/// Xcode hands a host's variables to a test runner only when they carry a `TEST_RUNNER_`
/// prefix (and strips it); where the prefixed name reaches the process as is, it counts as
/// the plain one, so `TEST_RUNNER_CI=1` means `CI=1`.
enum Environment {
    /// `GRAMOPHONE_QUIET`: no notices on standard error (recording reports, new vinyls, vinyl issues).
    static let quietVariable = "GRAMOPHONE_QUIET"

    static func value(_ name: String, in environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        [name, "TEST_RUNNER_" + name].lazy.compactMap { environment[$0] }.first { !$0.trimmingWhitespace().isEmpty }
    }

    /// Whether a flag variable is on: set, and not `0`, `false` or `no`.
    static func isSet(_ name: String, in environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        guard let value = value(name, in: environment)?.trimmingWhitespace().lowercased() else { return false }
        return !["", "0", "false", "no"].contains(value)
    }
}
