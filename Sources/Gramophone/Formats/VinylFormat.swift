import Foundation

/// The file formats Gramophone reads and writes.
public enum VinylFormat: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Gramophone's JSON vinyl (and the Vinyl library's bare-array files, which it extends).
    case gramophone
    /// DVR cassettes.
    case dvr

    public var description: String { rawValue }

    /// Whether `encode` can write this format.
    public var isWritable: Bool { true }

    /// Picks the format from a document's shape: DVR cassettes have `interactions`.
    static func sniff(_ document: JSONValue) -> VinylFormat {
        if document["interactions"] != nil { return .dvr }
        return .gramophone
    }
}

extension Vinyl {
    /// Reads a vinyl from the bytes of a file.
    ///
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - name: the vinyl's name when the file does not carry one.
    ///   - format: the format, or nil to recognise it from the content.
    ///   - file: the file's path, used in error messages.
    /// - Throws: `VinylError` naming the file, the place and the fix.
    public init(data: Data, name: String, format: VinylFormat? = nil, file: String? = nil) throws {
        let document: JSONValue
        do {
            document = try JSONParser.parse(data)
        } catch {
            throw VinylError(.malformed, file: file, place: "line \(error.line), column \(error.column)",
                             problem: "invalid JSON: \(error.message)", fix: "Fix the JSON at that place, or record the vinyl again")
        }
        do {
            switch format ?? VinylFormat.sniff(document) {
            case .gramophone: self = try GramophoneFormat.decode(document, name: name)
            case .dvr: self = try DVRFormat.decode(document, name: name)
            }
        } catch let error as StructureError {
            throw VinylError(.malformed, file: file, place: error.path.place, problem: error.problem, fix: error.fix)
        }
    }

    /// Reads the vinyl file at `url`; its name is the file name without extension.
    public init(contentsOf url: URL, format: VinylFormat? = nil) throws {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            let exists = FileManager.default.fileExists(atPath: url.path)
            throw VinylError(exists ? .unreadable : .notFound, file: url.path,
                             problem: exists ? "could not read the file (\((error as NSError).localizedDescription))" : "no such file",
                             fix: exists ? "Check the file's permissions" : "Check the name and folder, or record the vinyl first")
        }
        try self.init(data: data, name: url.deletingPathExtension().lastPathComponent, format: format, file: url.path)
    }

    /// The vinyl's file content in `format`: sorted keys, indented, ending with a newline.
    public func encoded(as format: VinylFormat = .gramophone) throws -> Data {
        switch format {
        case .gramophone: return Data(JSONWriter.pretty(GramophoneFormat.encode(self)))
        case .dvr: return Data(JSONWriter.pretty(DVRFormat.encode(self)))
        }
    }

    /// Writes the vinyl atomically: readers see the old file or the new one, never a part.
    /// Missing folders are created.
    public func write(to url: URL, format: VinylFormat = .gramophone) throws {
        try AtomicFile.write(try encoded(as: format), to: url)
    }
}
