import Foundation

/// Something a vinyl file holds that could not be read as written, and what replaces it.
///
/// Reading goes on past it, as the library that wrote the file did: a DVR interaction whose
/// body is not valid base64 is kept with no body, as DVR read it. `Vinyl.issues` lists them,
/// `gramophone lint` reports them, and a Turntable that loads such a vinyl warns once on
/// standard error (not with `GRAMOPHONE_QUIET` set). Fix the file to be rid of them.
public struct VinylIssue: Sendable, Hashable, CustomStringConvertible {
    /// Where in the file: `interactions[3].response.body`.
    public package(set) var place: String
    /// What could not be read.
    public package(set) var problem: String
    /// What a replay does instead: `served as an empty body`.
    public package(set) var served: String
    /// How to change the file so it reads as meant.
    public package(set) var fix: String

    /// `interactions[3].response.body: the body is not valid base64 (…); served as an empty body. To fix: …`
    public var description: String { "\(place): \(problem); \(served). To fix: \(fix)" }

    /// Files already warned about in this process: one warning per file, not per Turntable.
    private static let warned = Locked(Set<String>())

    /// Writes the vinyl's issues to standard error, once per file (or vinyl name) per process,
    /// unless `GRAMOPHONE_QUIET` is set (`Vinyl.issues` and `gramophone lint` still list them).
    static func warnOnce(about vinyl: Vinyl, file: URL?) {
        guard !Environment.isSet(Environment.quietVariable), let text = claimWarning(about: vinyl, file: file) else { return }
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// The warning for the vinyl's issues the first time its file (or name) asks, else nil.
    static func claimWarning(about vinyl: Vinyl, file: URL?) -> String? {
        guard !vinyl.issues.isEmpty else { return nil }
        let key = file?.path ?? vinyl.name
        guard warned.withLock({ $0.insert(key).inserted }) else { return nil }
        let count = vinyl.issues.count == 1 ? "1 issue" : "\(vinyl.issues.count) issues"
        var lines = ["Gramophone: vinyl \"\(vinyl.name)\"\(file.map { " (\($0.path))" } ?? "") was read with \(count):"]
        lines += vinyl.issues.map { "  " + $0.description }
        return lines.joined(separator: "\n")
    }
}
