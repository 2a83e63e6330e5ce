/// When a Turntable may fall through to the real network and record what comes back.
///
/// | mode | vinyl file missing | vinyl file exists |
/// | --- | --- | --- |
/// | `never` | error | replay only; a miss is an error |
/// | `once` | record every miss, write the new vinyl | replay only (write-protected); a miss is an error |
/// | `newEpisodes` | record every miss | replay what matches, record and append what does not |
/// | `all` | record every request | ignore the file, record every request, replace the file |
///
/// The Vinyl library's `missingVinyl` is `once`; its `missingTracks` is `newEpisodes`.
/// `GRAMOPHONE_RECORD_MODE` takes `never` (or `none`), `once`, `new_episodes` and `all`.
public enum RecordMode: Sendable, CaseIterable, CustomStringConvertible {
    /// Never touch the network: every request is answered from the vinyl or fails with the miss report.
    case never
    /// Record only while the vinyl file does not exist yet; an existing vinyl is write-protected.
    case once
    /// Replay what matches, record what does not, and append it to the vinyl.
    case newEpisodes
    /// Ignore what is recorded, send every request, and replace the vinyl with what came back.
    case all

    /// The name `GRAMOPHONE_RECORD_MODE` uses.
    public var description: String {
        switch self {
        case .never: return "never"
        case .once: return "once"
        case .newEpisodes: return "new_episodes"
        case .all: return "all"
        }
    }

    /// Reads a mode as written in `GRAMOPHONE_RECORD_MODE`: `never` (or `none`), `once`,
    /// `new_episodes`, `new-episodes`, `newEpisodes` or `all`, in any case, spaces ignored.
    init?(environmentValue text: String) {
        let folded = text.trimmingWhitespace().lowercased().replacingOccurrences(of: "-", with: "_")
        let spelled = ["none": "never", "newepisodes": "new_episodes"][folded] ?? folded
        guard let mode = Self.allCases.first(where: { $0.description == spelled }) else { return nil }
        self = mode
    }
}
