/// A request's method as a vinyl file records it, checked alike by every reader: a token of
/// letters, `-` and `_`. A vinyl one reader accepts is then one every writer's output reads back.
enum RecordedMethod {
    /// `method`, or a `StructureError` at `path` when it is no HTTP method.
    static func checked(_ method: String, at path: DecodingPath) throws -> String {
        guard !method.isEmpty, method.allSatisfy({ $0.isLetter || $0 == "-" || $0 == "_" }) else {
            throw StructureError(path: path, problem: "\"\(method)\" is not an HTTP method", fix: "Use GET, POST, PUT, PATCH, DELETE, HEAD or OPTIONS")
        }
        return method
    }
}
