import Foundation
import Gramophone

/// Reading input files with errors in the same words as the library's.
enum FileInput {
    static func read(_ path: String) throws -> Data {
        try VinylError.reading(path, what: "read the file", missing: "no such file", fix: "Check the file's permissions", fixMissing: "Check the path") {
            try Data(contentsOf: URL(fileURLWithPath: path))
        }
    }

    /// The file at `path`, the format its extension and content say, and the vinyl's name (the
    /// file's, without its extension).
    static func detect(_ path: String) throws -> (data: Data, format: VinylFormat, name: String) {
        let data = try read(path)
        let url = URL(fileURLWithPath: path)
        return (data, try VinylFormat.detect(data: data, fileExtension: url.pathExtension, file: path), url.deletingPathExtension().lastPathComponent)
    }

    /// The vinyl in the file at `path`, in the format its extension and content say, with that
    /// format; nil once the error that it could not be read went to stderr.
    static func vinyl(_ path: String) -> (Vinyl, VinylFormat)? {
        do {
            let (data, format, name) = try detect(path)
            return (try Vinyl(data: data, name: name, format: format, file: path), format)
        } catch {
            Output.err("error: \(error)")
            return nil
        }
    }
}
