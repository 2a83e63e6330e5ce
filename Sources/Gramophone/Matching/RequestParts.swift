import Foundation

/// A request's URL taken apart and normalised once, so matchers compare like with like:
/// scheme and host ignore case, the default port equals no port, an empty path is `/`,
/// query parameters compare in any order, and the fragment never counts.
struct RequestParts: Sendable, Hashable {
    var method: String
    var scheme: String
    var host: String
    var port: Int?
    var path: String
    /// Parameters sorted by name, then value.
    var query: [QueryItem]

    struct QueryItem: Sendable, Hashable, Comparable {
        var name: String
        var value: String?
        static func < (lhs: QueryItem, rhs: QueryItem) -> Bool {
            lhs.name != rhs.name ? lhs.name < rhs.name : (lhs.value ?? "") < (rhs.value ?? "")
        }
        var text: String { value.map { "\(name)=\($0)" } ?? name }
    }

    init(method: String, url: URL) {
        self.method = method.uppercased()
        let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        scheme = (components?.scheme ?? url.scheme ?? "").lowercased()
        host = (components?.host ?? "").lowercased()
        let explicitPort = components?.port
        port = explicitPort == Self.defaultPort(for: scheme) ? nil : explicitPort
        let rawPath = components?.percentEncodedPath ?? url.path
        path = rawPath.isEmpty ? "/" : rawPath
        query = (components?.queryItems ?? []).map { QueryItem(name: $0.name, value: $0.value) }.sorted()
    }

    init(_ request: Track.Request) { self.init(method: request.method, url: request.url) }

    static func defaultPort(for scheme: String) -> Int? {
        switch scheme {
        case "http", "ws": return 80
        case "https", "wss": return 443
        default: return nil
        }
    }

    var queryText: String { query.map(\.text).joined(separator: "&") }
    var effectivePort: Int? { port ?? Self.defaultPort(for: scheme) }

    /// The normalised URL: what `.url` compares.
    var urlText: String {
        var text = scheme + "://" + host
        if let port { text += ":\(port)" }
        text += path
        if !query.isEmpty { text += "?" + queryText }
        return text
    }
}
