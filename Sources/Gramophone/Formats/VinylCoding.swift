import Foundation

extension VinylFormat {
    /// The format of a file from its extension and content.
    ///
    /// `.har` is HAR and `.plist` a property-list vinyl. For `.json` (or no extension, or an
    /// unfamiliar one) the content decides: `log` means HAR, `interactions` whose requests
    /// have a `uri` (or `http_interactions`) means VCR, other `interactions` mean DVR, and
    /// `tracks` or a bare array mean Gramophone's own format.
    /// - Throws: `VinylError` of kind `.unknownFormat` listing the supported formats.
    package static func detect(data: Data, fileExtension: String?, file: String? = nil) throws -> VinylFormat {
        if let format = try byExtension(fileExtension, file: file) { return format }
        if PropertyListFormat.looksLikePropertyList(data) { return .plist }
        return try sniff(document(data, file: file, meansJSON: fileExtension?.lowercased() == "json"), file: file)
    }

    /// The JSON document in `data`. A syntax error is `.malformed` at its line and column when the
    /// file means to be JSON (or looks like it), else `.unknownFormat`.
    static func document(_ data: Data, file: String?, meansJSON: Bool) throws -> JSONValue {
        do {
            return try JSONParser.parse(data)
        } catch {
            let first = data.first(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) })
            if meansJSON || first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
                throw VinylError(
                    .malformed, file: file, place: "line \(error.line), column \(error.column)",
                    problem: "invalid JSON: \(error.message)", fix: "Fix the JSON at that place, or record the vinyl again")
            }
            throw unknown(file: file, problem: "the content is neither JSON nor a property list")
        }
    }

    /// The format an extension settles on its own, nil when the content must decide.
    static func byExtension(_ fileExtension: String?, file: String?) throws -> VinylFormat? {
        switch fileExtension?.lowercased() ?? "" {
        case "har": return .har
        case "plist": return .plist
        case "yaml", "yml":
            throw VinylError(
                .unknownFormat, file: file, problem: "YAML cassettes are not read",
                fix: "Save the cassette as JSON (VCR.py: serializer=\"json\"; Ruby VCR: serialize_with: :json). Supported formats: \(supportedList)")
        case "tail":
            throw VinylError(
                .unknownFormat, file: file, problem: "a Mocktail .tail file is a stub, not a vinyl",
                fix: "Load its folder as stubs: turntable.stubs.add(contentsOf: folder). Supported vinyl formats: \(supportedList)")
        default: return nil
        }
    }

    /// Picks the format from a JSON document's shape; throws when no format fits it.
    static func sniff(_ document: JSONValue, file: String?) throws -> VinylFormat {
        switch document {
        case .array: return .gramophone
        case .object:
            if document["log"] != nil { return .har }
            if document["http_interactions"] != nil { return .vcr }
            if let interactions = document["interactions"] {
                return interactions.arrayValue?.first?["request"]?["uri"] != nil ? .vcr : .dvr
            }
            if document["tracks"] != nil || document["gramophone"] != nil { return .gramophone }
            let keys = (document.objectMembers ?? []).prefix(5).map { "\"\($0.key)\"" }.joined(separator: ", ")
            throw unknown(file: file, problem: "a JSON object with \(keys.isEmpty ? "no keys" : "keys " + keys) is no vinyl format Gramophone knows")
        default:
            throw unknown(file: file, problem: "a JSON \(document.kindName.replacingOccurrences(of: "a ", with: "").replacingOccurrences(of: "an ", with: "")) is no vinyl format Gramophone knows")
        }
    }

    private static func unknown(file: String?, problem: String) -> VinylError {
        VinylError(.unknownFormat, file: file, problem: problem, fix: "Supported formats: \(supportedList)")
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
        let isPlist = format == .plist || (format == nil && PropertyListFormat.looksLikePropertyList(data))
        // A plist is read from the bytes, not from a JSON document.
        let document: JSONValue = isPlist ? .null : try VinylFormat.document(data, file: file, meansJSON: true)
        let chosen = try isPlist ? .plist : format ?? VinylFormat.sniff(document, file: file)
        do {
            switch chosen {
            case .gramophone: self = try GramophoneFormat.decode(document, name: name)
            case .dvr: self = try DVRFormat.decode(document, name: name)
            case .har: self = try HARFormat.decode(document, name: name)
            case .vcr: self = try VCRFormat.decode(document, name: name)
            case .plist: self = try PropertyListFormat.decode(data, name: name)
            }
        } catch let error as StructureError {
            // The decoders know the place; the file is named here.
            throw VinylError(.malformed, file: file, place: error.path.place, problem: error.problem, fix: error.fix)
        }
        self.format = chosen
    }

    /// Reads the vinyl file at `url`; its name is the file name without extension.
    ///
    /// With no `format`, the extension and then the content choose it (see `VinylFormat.detect`).
    public init(contentsOf url: URL, format: VinylFormat? = nil) throws {
        let data = try VinylError.reading(
            url.path, what: "read the file", missing: "no such file", fix: "Check the file's permissions",
            fixMissing: "Check the name and folder, or record the vinyl first"
        ) { try Data(contentsOf: url) }
        let chosen = try format ?? VinylFormat.byExtension(url.pathExtension, file: url.path)
        try self.init(data: data, name: url.deletingPathExtension().lastPathComponent, format: chosen, file: url.path)
    }

    /// The vinyl's file content in `format`: sorted keys, indented, ending with a newline.
    /// - Throws: `VinylError(.unwritable)` for a format Gramophone only reads.
    ///   A header name or value holding CR, LF or NUL is `.unwritable` too, naming its place:
    ///   written, it would start another header when replayed. A WebSocket conversation in a
    ///   format that cannot hold one (DVR, plist) is `.unwritable` too, rather than lost; HAR
    ///   keeps it as Chrome's `_webSocketMessages`.
    public func encoded(as format: VinylFormat = .gramophone) throws -> Data {
        if format.isWritable { try HeaderLineBreaks.check(self, format: format) }
        try WebSocketCoding.checkStorable(self, in: format)
        switch format {
        case .gramophone: return Data(JSONWriter.pretty(GramophoneFormat.encode(self)))
        case .dvr: return Data(JSONWriter.pretty(DVRFormat.encode(self)))
        case .har: return Data(JSONWriter.pretty(HARFormat.encode(self)))
        case .plist: return PropertyListFormat.encode(self)
        case .vcr:
            throw VinylError(
                .unwritable, file: nil, problem: "VCR cassettes are read, not written",
                fix: "Write one of the writable formats: \(VinylFormat.allCases.filter(\.isWritable).map(\.description).joined(separator: ", "))")
        }
    }

    /// Writes the vinyl atomically: readers see the old file or the new one, never a part.
    /// Missing folders are created.
    public func write(to url: URL, format: VinylFormat = .gramophone) throws {
        let data: Data
        do {
            data = try encoded(as: format)
        } catch var error as VinylError {
            error.file = error.file ?? url.path
            throw error
        }
        try AtomicFile.write(data, to: url)
    }
}
