import Foundation

/// Why a vinyl could not be found, read, or written, said so a person can fix it.
///
/// Every error names the file, the place in it (a line and column for syntax, a path such as
/// `tracks[2].response.status` for structure), what is wrong, and what to do about it.
public struct VinylError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, for code that handles one case: a missing vinyl differs from a broken one.
    public enum Kind: Sendable, Equatable {
        /// No file at the place the vinyl was looked for.
        case notFound
        /// The file exists but could not be read.
        case unreadable
        /// The file's content is not a valid vinyl.
        case malformed
        /// The file's format is not one Gramophone reads.
        case unknownFormat
        /// The vinyl could not be written.
        case unwritable
        /// What would be written still holds something that looks like a secret, so it was not written.
        case containsSecrets
        /// The vinyl name would leave the vinyl folder or is not a valid file name.
        case invalidName
    }

    /// What went wrong.
    public var kind: Kind
    /// The file's path, when there is a file.
    public var file: String?
    /// Where in the file: `line 3, column 7`, or a path such as `tracks[2].request.url`.
    public var place: String?
    /// What is wrong.
    public var problem: String
    /// What to do about it.
    public var fix: String

    package init(_ kind: Kind, file: String?, place: String? = nil, problem: String, fix: String) {
        self.kind = kind
        self.file = file
        self.place = place
        self.problem = problem
        self.fix = fix
    }

    /// `file: place: problem. fix`; without a file (a vinyl decoded from data, a test with no
    /// vinyl) it starts at the place, or at the problem.
    public var description: String {
        let text = [file, place, problem].compactMap { $0 }.joined(separator: ": ")
        return fix.isEmpty ? text : text + ". " + fix
    }
}

/// Where the decoder is in a document, for error messages: `tracks[2].request.url`.
struct DecodingPath: Sendable {
    private(set) var text: String

    init(_ root: String = "") { text = root }

    func key(_ key: String) -> DecodingPath {
        DecodingPath(text.isEmpty ? key : text + "." + key)
    }

    func index(_ index: Int) -> DecodingPath {
        DecodingPath(text + "[\(index)]")
    }

    var place: String { text.isEmpty ? "top level" : text }
}

/// Decoding failures before the file name is known; `VinylCodec` adds it.
struct StructureError: Error {
    var path: DecodingPath
    var problem: String
    var fix: String
}

extension VinylError {
    /// What `read` returns from `path`; when it throws, `.notFound` (`missing`, and `fixMissing`
    /// or `fix`) if nothing is there, else `.unreadable`: "could not `what`" with the cause, and `fix`.
    package static func reading<T>(_ path: String, what: String, missing: String, fix: String, fixMissing: String? = nil, _ read: () throws -> T) throws -> T {
        do {
            return try read()
        } catch {
            let exists = FileManager.default.fileExists(atPath: path)
            throw VinylError(
                exists ? .unreadable : .notFound, file: path,
                problem: exists ? "could not \(what) (\((error as NSError).localizedDescription))" : missing, fix: exists ? fix : fixMissing ?? fix)
        }
    }
}

extension VinylError: LocalizedError {
    /// The whole explanation, as `description` gives it: what `localizedDescription` shows.
    public var errorDescription: String? { description }
}
