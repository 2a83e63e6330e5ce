import Foundation

/// The file formats Gramophone reads and writes.
///
/// Reading picks the format from the file's extension and, where that is ambiguous (`.json`),
/// from its content; see `detect(data:fileExtension:)`.
public enum VinylFormat: Sendable, CaseIterable, CustomStringConvertible {
    /// Gramophone's JSON vinyl (and the Vinyl library's bare-array files, which it extends).
    case gramophone
    /// DVR cassettes: `{"name", "interactions": [{"request", "response", "recorded_at"}]}`.
    case dvr
    /// HTTP Archive 1.2, as browsers' devtools, proxies and Replay write it.
    case har
    /// VCR.py and Ruby VCR JSON cassettes (read only).
    case vcr
    /// Gramophone's vinyl structure as an XML property list, bodies as `<data>`.
    case plist

    /// The format's name, as the CLI takes it.
    public var description: String { names.name }

    /// Whether `Vinyl.encoded(as:)` can write this format.
    package var isWritable: Bool { self != .vcr }

    /// Whether a file of this format holds every track of `vinyl` as recorded. Only Gramophone's
    /// JSON holds a streamed response's chunks and timing; the others hold a body in one piece,
    /// given at once, that ended cleanly or with an error (HAR's `_error`, an `error` beside the
    /// response in DVR cassettes and property lists). DVR cassettes and property lists have no
    /// place for a WebSocket conversation (HAR keeps it as Chrome's `_webSocketMessages`).
    package func canHold(_ vinyl: Vinyl) -> Bool {
        let holdsConversations = self == .gramophone || self == .har
        return self != .vcr
            && !vinyl.tracks.contains { track in
                guard case .response(let response) = track.outcome else { return false }
                return (response.stream.map { !holds($0) } ?? false) || (response.conversation != nil && !holdsConversations)
            }
    }

    private func holds(_ stream: TrackStream) -> Bool {
        guard self != .gramophone else { return true }
        switch stream.end {
        case .finished, .failed: return stream.isOnePieceAtOnce
        case .cancelled, .stopped: return false
        }
    }

    /// The format as a report names a file of it: `a DVR cassette`.
    package var article: String { names.article }

    /// The extension files of this format usually carry.
    package var fileExtension: String { names.fileExtension }

    /// How the CLI, reports and file names call the format, one row per format.
    private var names: (name: String, article: String, fileExtension: String) {
        switch self {
        case .gramophone: return ("gramophone", "a Gramophone vinyl", "json")
        case .dvr: return ("dvr", "a DVR cassette", "json")
        case .har: return ("har", "a HAR file", "har")
        case .vcr: return ("vcr", "a VCR cassette", "json")
        case .plist: return ("plist", "a property-list vinyl", "plist")
        }
    }

    /// A format from a name a person types: the raw values plus `json`/`native` for
    /// Gramophone's JSON and `vcrpy` for VCR cassettes.
    package init?(name: String) {
        let name = name.lowercased()
        let aliases: [String: VinylFormat] = ["json": .gramophone, "native": .gramophone, "vinyl": .gramophone, "vcrpy": .vcr]
        guard let format = aliases[name] ?? Self.allCases.first(where: { $0.description == name }) else { return nil }
        self = format
    }

    /// Every format, for error messages and help texts: `gramophone (.json), dvr (.json), …`.
    package static var supportedList: String {
        allCases.map { "\($0) (.\($0.fileExtension)\($0.isWritable ? "" : ", read only"))" }.joined(separator: ", ")
    }

    /// Where track `index` sits in a file of this format, for messages: `log.entries[3]`.
    package func place(ofTrack index: Int) -> String {
        switch self {
        case .gramophone, .plist: return "tracks[\(index)]"
        case .dvr, .vcr: return "interactions[\(index)]"
        case .har: return "log.entries[\(index)]"
        }
    }
}
