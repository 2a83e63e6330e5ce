import Foundation

/// One aspect of a request that must agree with a track's recorded request.
///
/// Combine them in a `MatchingStrategy`: `.attributes([.method, .path, .query])`.
/// Every built-in matcher (all but `.custom`) is answered from a hash index, so a lookup
/// costs the same for ten tracks or a hundred thousand.
public struct Matcher: Sendable {
    enum Kind: Sendable {
        case method, url, scheme, host, port, path
        /// Parameter names left out.
        case query(ignoring: Set<String>)
        case headers([String])
        /// Lower-case names left out.
        case allHeaders(excluding: Set<String>)
        case body(BodyComparison)
        case graphQL(BodyComparison)
        case custom(String, @Sendable (Track.Request, Track.Request) -> Bool)
    }

    let kind: Kind

    /// The HTTP method.
    public static let method = Matcher(kind: .method)
    /// The whole URL (scheme, host, port, path, query in any order; not the fragment).
    public static let url = Matcher(kind: .url)
    static let scheme = Matcher(kind: .scheme)
    /// The host, ignoring case.
    public static let host = Matcher(kind: .host)
    /// The port; a URL's default port equals no port.
    static let port = Matcher(kind: .port)
    /// The path, compared exactly (`/users/42` differs from `/users/42/`).
    public static let path = Matcher(kind: .path)
    /// The query parameters, in any order.
    public static let query = Matcher(kind: .query(ignoring: []))
    /// The body, compared the way its content type says: JSON as values (key order, whitespace
    /// and number spelling ignored), `application/x-www-form-urlencoded` as fields in any
    /// order, `multipart/form-data` part by part (name, filename, part type, content; the
    /// boundary ignored), anything else byte for byte.
    public static let body = Matcher(kind: .body(BodyComparison()))
    /// The GraphQL operations of a POST JSON body, a batch, or a GET `?query=`: operation name,
    /// the query document (whitespace, commas and comments ignored; a persisted query by its
    /// `sha256Hash`) and the variables as JSON. A request that is not GraphQL compares as `.body`.
    public static let graphQL = Matcher(kind: .graphQL(BodyComparison()))

    /// The query parameters, in any order, except these (cache-busters, signatures, nonces).
    public static func query(ignoring names: [String]) -> Matcher { Matcher(kind: .query(ignoring: Set(names))) }

    /// The values of these headers (names in any case; absent equals absent).
    public static func headers(_ names: String...) -> Matcher { Matcher(kind: .headers(names)) }

    /// Every header except these (names in any case): the same names with the same values.
    /// `Content-Length` is the body's to decide, and a multipart `boundary` does not count.
    public static func allHeaders(excluding names: [String] = []) -> Matcher {
        Matcher(kind: .allHeaders(excluding: Set(names.map { $0.lowercased() }).union(["content-length"])))
    }

    /// `.body` leaving out what varies between runs: JSON key paths (`meta.requestId`,
    /// `items[].timestamp`, where `[]` is every element), form field names and multipart part
    /// names. `ignoringArrayOrder` compares JSON arrays as multisets.
    public static func body(ignoring paths: [String] = [], ignoringArrayOrder: Bool = false) -> Matcher {
        Matcher(kind: .body(BodyComparison(ignoring: paths, ignoringArrayOrder: ignoringArrayOrder)))
    }

    /// `.graphQL` leaving these paths out of the variables (`input.clientMutationId`), and
    /// with JSON arrays in any order if asked.
    public static func graphQL(ignoring paths: [String], ignoringArrayOrder: Bool = false) -> Matcher {
        Matcher(kind: .graphQL(BodyComparison(ignoring: paths, ignoringArrayOrder: ignoringArrayOrder)))
    }

    /// Any rule of your own. `name` appears in miss reports.
    /// The closure gets the live request first, then the recorded one.
    public static func custom(_ name: String, _ matches: @escaping @Sendable (_ live: Track.Request, _ recorded: Track.Request) -> Bool) -> Matcher {
        Matcher(kind: .custom(name, matches))
    }

    /// Whether this matcher compares bodies (a custom rule may).
    var readsBody: Bool {
        switch kind {
        case .body, .graphQL, .custom: return true
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
        case .query(let ignoring):
            return ignoring.isEmpty ? "query" : "query(ignoring: \(ignoring.sorted().joined(separator: ", ")))"
        case .headers(let names): return "headers(\(names.joined(separator: ", ")))"
        case .allHeaders(let excluding):
            let named = excluding.subtracting(["content-length"]).sorted()
            return named.isEmpty ? "allHeaders" : "allHeaders(excluding: \(named.joined(separator: ", ")))"
        case .body(let comparison): return "body" + comparison.summary
        case .graphQL(let comparison): return "graphQL" + comparison.summary
        case .custom(let name, _): return name
        }
    }

    /// Whether the index answers this matcher: every rule but a custom one reduces each request
    /// to a canonical text, equal exactly when the rule says the requests agree.
    var isIndexable: Bool {
        if case .custom = kind { return false }
        return true
    }

    /// Whether this matcher compares a part of the URL (`.url` subsumes those).
    var isURLPart: Bool {
        switch kind {
        case .scheme, .host, .port, .path, .query: return true
        default: return false
        }
    }

    /// This matcher's share of the index key, for the URL parts.
    func keyComponent(_ parts: RequestParts) -> String {
        switch kind {
        case .method: return parts.method
        case .url: return parts.urlText
        case .scheme: return parts.scheme
        case .host: return parts.host
        case .port: return parts.effectivePort.map(String.init) ?? ""
        case .path: return parts.path
        case .query(let ignoring): return ignoring.isEmpty ? parts.queryText : Self.queryText(parts, ignoring)
        default: return ""
        }
    }

    /// Whether the matcher compares what is inside a request (headers, the body) place by
    /// place, so that two tracks it rejects can still be nearer or farther from the live one.
    var comparesContent: Bool {
        switch kind {
        case .headers, .allHeaders, .body, .graphQL: return true
        default: return false
        }
    }

    /// Appends ``keyComponent(_:_:)`` to `key`; method and URL, the default strategy's, without
    /// a string of their own.
    func appendKeyComponent(_ request: Track.Request, _ parts: RequestParts, to key: inout String) {
        switch kind {
        case .method: key += parts.method
        case .url: parts.appendURLText(to: &key)
        // A request without a body (most replays) adds nothing: `BodyComparison.key` is "" for it.
        case .body where request.body.isEmpty: break
        default: key += keyComponent(request, parts)
        }
    }

    /// This matcher's share of the index key: the canonical text it compares.
    func keyComponent(_ request: Track.Request, _ parts: RequestParts) -> String {
        switch kind {
        case .headers(let names):
            return names.map { name in request.headers[name].map { "\($0.utf8.count):\($0)" } ?? "-" }.joined()
        case .allHeaders(let excluding):
            return Self.comparedHeaders(request.headers, excluding).map { "\($0.name.utf8.count):\($0.name)\($0.value.utf8.count):\($0.value)" }.joined()
        case .body(let comparison):
            return comparison.key(request.body, headers: request.headers)
        case .graphQL(let comparison):
            return GraphQLRequest.key(request, comparison.json) ?? comparison.key(request.body, headers: request.headers)
        case .custom:
            return ""
        default:
            return keyComponent(parts)
        }
    }

    private static func queryText(_ parts: RequestParts, _ ignoring: Set<String>) -> String {
        parts.query.filter { !ignoring.contains($0.name) }.map(\.text).joined(separator: "&")
    }

    /// Header names (lower case) and values as `.allHeaders` compares them, sorted; a
    /// multipart `Content-Type` without its boundary.
    private static func comparedHeaders(_ headers: Headers, _ excluding: Set<String>) -> [(name: String, value: String)] {
        var seen = Set<String>()
        var result: [(name: String, value: String)] = []
        for field in headers.fields {
            let name = field.name.lowercased()
            guard !excluding.contains(name), seen.insert(name).inserted, var value = headers[field.name] else { continue }
            if name == "content-type", MultipartBody.boundary(value) != nil {
                value = value.split(separator: ";").filter { !$0.trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("boundary=") }.joined(separator: ";")
            }
            result.append((name, value))
        }
        return result.sorted { $0.name < $1.name }
    }

    /// The headers whose values differ as `.allHeaders` compares them (`Content-Length` left to
    /// the body): the lower-case key, the name as the requests spell it, and each side's value.
    static func differingHeaders(_ a: Headers, _ b: Headers) -> [(key: String, name: String, a: String?, b: String?)] {
        let x = comparedHeaders(a, ["content-length"]), y = comparedHeaders(b, ["content-length"])
        return BodyComparison.names(x.map(\.name), y.map(\.name)).compactMap { key in
            let left = x.first { $0.name == key }?.value, right = y.first { $0.name == key }?.value
            guard left != right else { return nil }
            let name = a.fields.first { $0.name.lowercased() == key }?.name ?? b.fields.first { $0.name.lowercased() == key }?.name ?? key
            return (key, name, left, right)
        }
    }

    /// Whether the two requests agree: the index's answer (equal `keyComponent`s) where there
    /// is no index (track order, miss reports, stubs) and for custom rules within a bucket.
    func matches(live: Track.Request, liveParts: RequestParts, recorded: Track.Request, recordedParts: RequestParts) -> Bool {
        switch kind {
        // The same answers as comparing `keyComponent`s, without building text per comparison.
        case .url:
            return liveParts.hasSameURLText(as: recordedParts)
        case .query(let ignoring):
            return ignoring.isEmpty ? liveParts.hasSameQueryText(as: recordedParts) : keyComponent(liveParts) == keyComponent(recordedParts)
        case .port:
            return liveParts.effectivePort == recordedParts.effectivePort
        case .method, .scheme, .host, .path, .allHeaders:
            return keyComponent(live, liveParts) == keyComponent(recorded, recordedParts)
        case .headers(let names):
            return names.allSatisfy { live.headers[$0] == recorded.headers[$0] }
        // A body byte-identical to the recorded one matches, whatever each side's type makes of it.
        case .body, .graphQL:
            return (!live.body.isEmpty && live.body == recorded.body) || keyComponent(live, liveParts) == keyComponent(recorded, recordedParts)
        case .custom(_, let rule):
            return rule(live, recorded)
        }
    }

    /// How the two requests differ in this matcher's terms, for miss reports: one line per
    /// differing place (`body.items[2].id: 3 vs 4`), then the ignored places whose values
    /// differ (`query ts: ignored`).
    func difference(live: Track.Request, liveParts: RequestParts, recorded: Track.Request, recordedParts: RequestParts) -> String? {
        if matches(live: live, liveParts: liveParts, recorded: recorded, recordedParts: recordedParts) { return nil }
        switch kind {
        case .query(let ignoring):
            var lines = ["query: \(BodyComparison.show(keyComponent(liveParts))) vs \(BodyComparison.show(keyComponent(recordedParts)))"]
            for name in ignoring.sorted() {
                let a = liveParts.query.filter { $0.name == name }, b = recordedParts.query.filter { $0.name == name }
                if a != b { lines.append("query \(name): ignored") }
            }
            return lines.joined(separator: "\n")
        case .url:
            // Name the part that differs; "url" alone hides it.
            let parts = [Matcher.scheme, .host, .port, .path, .query].compactMap {
                $0.difference(live: live, liveParts: liveParts, recorded: recorded, recordedParts: recordedParts)
            }
            return parts.isEmpty ? "url: \(liveParts.urlText) vs \(recordedParts.urlText)" : parts.joined(separator: "\n")
        case .headers(let names):
            return names.compactMap { name -> String? in
                let a = live.headers[name], b = recorded.headers[name]
                return a == b ? nil : "header \(name): \(BodyComparison.show(a)) vs \(BodyComparison.show(b))"
            }.joined(separator: "\n")
        case .allHeaders(let excluding):
            var lines: [String] = [], ignored: [String] = []
            for header in Self.differingHeaders(live.headers, recorded.headers) {
                if excluding.contains(header.key) {
                    ignored.append("header \(header.name): ignored")
                } else {
                    lines.append("header \(header.name): \(BodyComparison.show(header.a)) vs \(BodyComparison.show(header.b))")
                }
            }
            return (lines + ignored).joined(separator: "\n")
        case .body(let comparison):
            return comparison.differences(live: live.body, live.headers, recorded: recorded.body, recorded.headers).joined(separator: "\n")
        case .graphQL(let comparison):
            let lines = GraphQLRequest.differences(live: live, recorded: recorded, comparison.json)
            return (lines.isEmpty ? comparison.differences(live: live.body, live.headers, recorded: recorded.body, recorded.headers) : lines).joined(separator: "\n")
        case .custom(let name, _):
            return "\(name): the custom matcher said no"
        default:
            return "\(description): \(BodyComparison.show(keyComponent(liveParts))) vs \(BodyComparison.show(keyComponent(recordedParts)))"
        }
    }
}
