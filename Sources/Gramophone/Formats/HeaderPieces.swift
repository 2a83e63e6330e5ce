/// The `name=value` pieces of a header value split at `;`, as `Cookie` and `Set-Cookie` hold
/// them. Real servers send empty pieces (`session=abc; ; Secure`, a trailing `;`) and pieces
/// without `=` (`HttpOnly`): empty ones are skipped, and a piece without `=` has a nil value.
enum HeaderPieces {
    /// One piece: the name and value trimmed of spaces and tabs; nil for an empty piece.
    static func pair<S: StringProtocol>(_ piece: S) -> (name: String, value: String?)? {
        guard let equals = piece.firstIndex(of: "=") else {
            let name = String(piece).trimmingWhitespace()
            return name.isEmpty ? nil : (name, nil)
        }
        let name = String(piece[..<equals]).trimmingWhitespace()
        let value = String(piece[piece.index(after: equals)...]).trimmingWhitespace()
        return name.isEmpty && value.isEmpty ? nil : (name, value)
    }

    /// Every non-empty piece of `text`, in order.
    static func pairs<S: StringProtocol>(_ text: S) -> [(name: String, value: String?)] {
        text.split(separator: ";", omittingEmptySubsequences: true).compactMap { pair($0) }
    }

    /// A `Set-Cookie` line: the cookie (the piece before the first `;`, nil when it has no
    /// name) and its attributes.
    static func setCookie(_ line: String) -> (name: String, value: String, attributes: [(name: String, value: String?)])? {
        let end = line.firstIndex(of: ";") ?? line.endIndex
        guard let cookie = pair(line[..<end]), !cookie.name.isEmpty else { return nil }
        let attributes = end < line.endIndex ? pairs(line[line.index(after: end)...]) : []
        return (cookie.name, cookie.value ?? "", attributes)
    }
}
