/// The values every reader checks alike (a method, a status, a duration, the format version), so
/// a vinyl one reader accepts is one every writer's output reads back.
enum RecordedValue {
    /// `method`, or a `StructureError` at `path` when it is no HTTP method: a token of letters, `-` and `_`.
    static func method(_ method: String, at path: DecodingPath) throws -> String {
        guard !method.isEmpty, method.allSatisfy({ $0.isLetter || $0 == "-" || $0 == "_" }) else {
            throw StructureError(path: path, problem: "\"\(method)\" is not an HTTP method", fix: "Use GET, POST, PUT, PATCH, DELETE, HEAD or OPTIONS")
        }
        return method
    }

    /// `status` when it is a three-digit HTTP status (or 0, HAR's failed request, where `orZero`).
    static func status(_ status: Int, at path: DecodingPath, orZero: Bool = false) throws -> Int {
        guard (100...999).contains(status) || (orZero && status == 0) else {
            throw StructureError(
                path: path, problem: "\(status) is not an HTTP status code", fix: "Use a three-digit status such as 200 or 404" + (orZero ? ", or 0 for a failed request" : ""))
        }
        return status
    }

    /// A replay may wait this long: no negative, infinite or centuries-long waits.
    static func duration(_ seconds: Double, at path: DecodingPath) throws -> TimeInterval {
        guard seconds >= 0, seconds <= GramophoneFormat.maximumDuration else {
            throw StructureError(
                path: path, problem: "\(seconds) is not a duration in seconds",
                fix: "Use a number of seconds from 0 to \(Int(GramophoneFormat.maximumDuration)), or leave the duration out")
        }
        return seconds
    }

    /// The `gramophone` format version of a file, refused when newer than this reader.
    static func version(_ number: Int, at path: DecodingPath) throws {
        guard number <= GramophoneFormat.version else {
            throw StructureError(path: path, problem: "format version \(number) is newer than this Gramophone reads (\(GramophoneFormat.version))", fix: "Update Gramophone")
        }
    }
}
