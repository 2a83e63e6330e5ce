import Foundation

/// A path with wildcards, in the style of ANSRequestMocker: `/users/{id}/*`.
///
/// Components compare one by one, so the request's path must have as many components as the
/// pattern. `*` stands for any one component; `{name}` stands for any one component and
/// captures its (percent-decoded) value as `name`. A pattern of only `*` matches every path.
/// Leading and trailing slashes do not count, nor does the query.
struct PathPattern: Sendable, CustomStringConvertible {
    enum Component: Sendable, Equatable {
        case literal(String)
        case wildcard
        case variable(String)
    }

    let text: String
    let components: [Component]

    init(_ text: String) throws(URITemplate.SyntaxError) {
        self.text = text
        components = try Self.split(text).map { part throws(URITemplate.SyntaxError) -> Component in
            if part == "*" { return .wildcard }
            if part.hasPrefix("{") {
                guard part.hasSuffix("}"), part.count > 2 else {
                    throw URITemplate.SyntaxError(message: "the component \"\(part)\" opens a variable but does not close it as {name}")
                }
                return .variable(String(part.dropFirst().dropLast()))
            }
            if part.contains("{") || part.contains("}") {
                throw URITemplate.SyntaxError(message: "the component \"\(part)\" mixes text and a variable; a variable must be a whole component")
            }
            return .literal(part.removingPercentEncoding ?? part)
        }
    }

    var description: String { text }

    private static func split(_ path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }

    /// The captured variables when `url`'s path fits, or nil.
    func match(_ url: URL) -> [String: String]? {
        if components == [.wildcard] { return [:] }
        let path = URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? url.path
        let parts = Self.split(path)
        guard parts.count == components.count else { return nil }
        var values: [String: String] = [:]
        for (component, raw) in zip(components, parts) {
            let part = raw.removingPercentEncoding ?? raw
            switch component {
            case .wildcard: continue
            case .variable(let name): values[name] = part
            case .literal(let text): if text != part { return nil }
            }
        }
        return values
    }
}
