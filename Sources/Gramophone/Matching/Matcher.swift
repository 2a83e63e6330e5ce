import Foundation

/// One aspect of a request that must agree with a track's recorded request.
///
/// Combine them in a `MatchingStrategy`: `.attributes([.method, .path, .query])`.
/// Built-in matchers on the method and URL parts are answered from a hash index, so they
/// cost the same for ten tracks or a hundred thousand.
public struct Matcher: Sendable {
    enum Kind: Sendable {
        case method, url, scheme, host, port, path, query
        case headers([String])
        case body
        case custom(String, @Sendable (Track.Request, Track.Request) -> Bool)
    }

    let kind: Kind

    /// The HTTP method.
    public static let method = Matcher(kind: .method)
    /// The whole URL (scheme, host, port, path, query in any order; not the fragment).
    public static let url = Matcher(kind: .url)
    public static let scheme = Matcher(kind: .scheme)
    /// The host, ignoring case.
    public static let host = Matcher(kind: .host)
    /// The port; a URL's default port equals no port.
    public static let port = Matcher(kind: .port)
    public static let path = Matcher(kind: .path)
    /// The query parameters, in any order.
    public static let query = Matcher(kind: .query)
    /// The body: equal bytes, or equal JSON (key order and whitespace ignored), or equal
    /// form fields in any order.
    public static let body = Matcher(kind: .body)

    /// The values of these headers (names in any case; absent equals absent).
    public static func headers(_ names: String...) -> Matcher { Matcher(kind: .headers(names)) }

    /// Any rule of your own. `name` appears in miss reports.
    /// The closure gets the live request first, then the recorded one.
    public static func custom(_ name: String, _ matches: @escaping @Sendable (_ live: Track.Request, _ recorded: Track.Request) -> Bool) -> Matcher {
        Matcher(kind: .custom(name, matches))
    }

    /// Whether this matcher compares bodies (a custom rule may).
    var readsBody: Bool {
        switch kind {
        case .body, .custom: return true
        default: return false
        }
    }

    /// For miss reports.
    var description: String {
        switch kind {
        case .method: return "method"
        case .url: return "url"
        case .scheme: return "scheme"
        case .host: return "host"
        case .port: return "port"
        case .path: return "path"
        case .query: return "query"
        case .headers(let names): return "headers(\(names.joined(separator: ", ")))"
        case .body: return "body"
        case .custom(let name, _): return name
        }
    }

    /// Whether the index answers this matcher (it compares only normalised URL parts).
    var isIndexable: Bool {
        switch kind {
        case .method, .url, .scheme, .host, .port, .path, .query: return true
        default: return false
        }
    }

    /// This matcher's share of the index key.
    func keyComponent(_ parts: RequestParts) -> String {
        switch kind {
        case .method: return parts.method
        case .url: return parts.urlText
        case .scheme: return parts.scheme
        case .host: return parts.host
        case .port: return parts.effectivePort.map(String.init) ?? ""
        case .path: return parts.path
        case .query: return parts.queryText
        default: return ""
        }
    }

    /// Compares what the index cannot: headers, bodies, custom rules.
    func matches(live: Track.Request, liveParts: RequestParts, recorded: Track.Request, recordedParts: RequestParts) -> Bool {
        switch kind {
        // The same answers as comparing `keyComponent`s, without building text per comparison.
        case .url:
            return liveParts.hasSameURLText(as: recordedParts)
        case .query:
            return liveParts.hasSameQueryText(as: recordedParts)
        case .port:
            return liveParts.effectivePort == recordedParts.effectivePort
        case .method, .scheme, .host, .path:
            return keyComponent(liveParts) == keyComponent(recordedParts)
        case .headers(let names):
            return names.allSatisfy { live.headers[$0] == recorded.headers[$0] }
        case .body:
            return BodyComparison.equal(live.body, live.headers, recorded.body, recorded.headers)
        case .custom(_, let rule):
            return rule(live, recorded)
        }
    }

    /// How the two requests differ in this matcher's terms, for miss reports.
    func difference(live: Track.Request, liveParts: RequestParts, recorded: Track.Request, recordedParts: RequestParts) -> String? {
        if matches(live: live, liveParts: liveParts, recorded: recorded, recordedParts: recordedParts) { return nil }
        switch kind {
        case .query:
            return "query: \(Self.show(liveParts.queryText)) vs \(Self.show(recordedParts.queryText))"
        case .url:
            // Name the part that differs; "url" alone hides it.
            var parts: [String] = []
            for part in [Matcher.scheme, .host, .port, .path, .query] {
                if let diff = part.difference(live: live, liveParts: liveParts, recorded: recorded, recordedParts: recordedParts) { parts.append(diff) }
            }
            return parts.isEmpty ? "url: \(liveParts.urlText) vs \(recordedParts.urlText)" : parts.joined(separator: "\n")
        case .headers(let names):
            return names.compactMap { name -> String? in
                let a = live.headers[name], b = recorded.headers[name]
                return a == b ? nil : "header \(name): \(Self.show(a)) vs \(Self.show(b))"
            }.joined(separator: "\n")
        case .body:
            return "body: \(BodyComparison.preview(live.body)) vs \(BodyComparison.preview(recorded.body))"
        case .custom(let name, _):
            return "\(name): the custom matcher said no"
        default:
            return "\(description): \(Self.show(keyComponent(liveParts))) vs \(Self.show(keyComponent(recordedParts)))"
        }
    }

    private static func show(_ text: String?) -> String {
        guard let text else { return "(none)" }
        return text.isEmpty ? "(empty)" : text
    }
}

/// What "the same body" means.
enum BodyComparison {
    static func equal(_ a: Data, _ aHeaders: Headers, _ b: Data, _ bHeaders: Headers) -> Bool {
        if a == b { return true }
        if a.isEmpty || b.isEmpty { return false }
        let first = a.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 })
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            if let x = try? JSONParser.parse(a), let y = try? JSONParser.parse(b) { return x.semanticallyEquals(y) }
        }
        if aHeaders.mediaType == "application/x-www-form-urlencoded" || bHeaders.mediaType == "application/x-www-form-urlencoded" {
            return formFields(a) == formFields(b)
        }
        return false
    }

    static func formFields(_ data: Data) -> [String] {
        String(decoding: data, as: UTF8.self).split(separator: "&").map(String.init).sorted()
    }

    static func preview(_ data: Data) -> String {
        if data.isEmpty { return "(empty)" }
        if UTF8Validation.isValid(data) {
            let text = String(decoding: data.prefix(120), as: UTF8.self)
            return data.count > 120 ? text + "… (\(data.count) bytes)" : text
        }
        return "<\(data.count) bytes of binary>"
    }
}
