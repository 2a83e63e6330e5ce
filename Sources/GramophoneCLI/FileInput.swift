import Foundation
import Gramophone

/// Reading input files with errors in the same words as the library's.
enum FileInput {
    static func read(_ path: String) throws -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let exists = FileManager.default.fileExists(atPath: path)
            throw VinylError(
                exists ? .unreadable : .notFound, file: path,
                problem: exists ? "could not read the file (\((error as NSError).localizedDescription))" : "no such file",
                fix: exists ? "Check the file's permissions" : "Check the path")
        }
    }
}
