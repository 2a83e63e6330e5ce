import Foundation

/// One condition a request must meet for a `Stub` to answer it. A stub's matchers must all hold.
///
/// Conditions on the method, host, URL and headers are the vinyl `Matcher`s, compared against a
/// request built from the values you give, so "the same host" or "the same URL" means the same
/// thing for stubs as for recorded tracks (case, default ports, query order). Patterns that
/// recorded tracks do not have (regexes, URI templates, path wildcards) live here, and the
/// variables they capture reach dynamic responses and `{{ placeholders }}`.
public struct StubMatcher: Sendable, CustomStringConvertible {
    enum Kind: Sendable {
        /// Vinyl matchers against a reference request (its parts taken apart once, here).
        case request([Matcher], Track.Request, RequestParts, String)
        /// On the URL's path, or on the whole URL as text.
        case regex(RegexBox, [String], onPath: Bool)
        case headerPresent(String)
        case uriTemplate(URITemplate)
        case path(PathPattern)
        case bodyBytes(Data)
        case json(JSONValue)
        case custom(String, @Sendable (Track.Request) -> Bool)
    }

    let kind: Kind

    /// Whether this matcher needs the body: when the body is not known yet (a stream the
    /// stubber must not drain before it claims the request), such matchers count as holding.
    var readsBody: Bool {
        switch kind {
        case .bodyBytes, .json, .custom: return true
        case .request(let matchers, _, _, _): return matchers.contains { $0.readsBody }
        case .regex, .headerPresent, .uriTemplate, .path: return false
        }
    }

    private static let placeholderURL = URL(string: "http://stub.invalid/")!

    /// The URL (as text) contains a match of the regular expression. Named groups
    /// (`(?<id>[0-9]+)`) are captured as variables.
    /// - Throws: `StubError.invalidPattern` when the expression does not compile.
    public static func urlRegex(_ pattern: String) throws(StubError) -> StubMatcher {
        try regex(pattern, onPath: false)
    }

    /// The URL's path (percent escapes undone, as `URL.path` gives it: empty for
    /// `https://api.example.com` with no slash, so `^/?$` is its root) contains a match of the
    /// regular expression: OHHTTPStubs' `pathMatches`, so `^/users/[0-9]+$` anchors to the
    /// path, not to the whole URL as in `urlRegex(_:)`. Named groups are captured as variables.
    /// - Throws: `StubError.invalidPattern` when the expression does not compile.
    public static func pathRegex(_ pattern: String) throws(StubError) -> StubMatcher {
        try regex(pattern, onPath: true)
    }

    private static func regex(_ pattern: String, onPath: Bool) throws(StubError) -> StubMatcher {
        try reading(pattern, as: "regular expression") { .regex(RegexBox(try NSRegularExpression(pattern: pattern, options: [])), groupNames(in: pattern), onPath: onPath) }
    }

    /// The matcher `make` reads from `text`, or `StubError.invalidPattern` saying why `text` is no good `kind`.
    private static func reading(_ text: String, as kind: String, _ make: () throws -> Kind) throws(StubError) -> StubMatcher {
        do {
            return StubMatcher(kind: try make())
        } catch {
            throw .invalidPattern(text, kind: kind, problem: (error as? URITemplate.SyntaxError)?.message ?? (error as? JSONSyntaxError)?.message ?? "\(error)")
        }
    }

    /// The URL fits the RFC 6570 template (`https://api.example.com/users/{id}{?fields}`, or
    /// a path such as `/repos/{owner}/{repo}`); the variables' values are captured.
    /// - Throws: `StubError.invalidPattern` when the template is malformed.
    public static func uriTemplate(_ template: String) throws(StubError) -> StubMatcher {
        try reading(template, as: "URI template") { .uriTemplate(try URITemplate(template)) }
    }

    /// The path fits the pattern, where `*` is any one component and `{name}` is any one
    /// component captured as `name`: `/users/{id}/*`. A pattern of `*` alone fits every path.
    /// - Throws: `StubError.invalidPattern` when a variable is not a whole `{name}` component.
    public static func path(_ pattern: String) throws(StubError) -> StubMatcher {
        try reading(pattern, as: "path pattern") { .path(try PathPattern(pattern)) }
    }

    /// The host, ignoring case.
    public static func host(_ host: String) -> StubMatcher {
        let url = URL(string: "http://\(host)/") ?? placeholderURL
        return comparing([.host], with: Track.Request(url: url), "host \(host)")
    }

    /// The HTTP method, ignoring case.
    public static func method(_ method: String) -> StubMatcher {
        comparing([.method], with: Track.Request(method: method, url: placeholderURL), "method \(method.uppercased())")
    }

    /// The header `name` (in any case) has `value`; add one per header to check several.
    public static func header(_ name: String, _ value: String) -> StubMatcher {
        comparing([.headers(name)], with: Track.Request(url: placeholderURL, headers: [name: value]), "header \(name): \(value)")
    }

    /// The request has a header `name` (in any case), whatever its value: OHHTTPStubs'
    /// `hasHeaderNamed`.
    public static func header(_ name: String) -> StubMatcher { StubMatcher(kind: .headerPresent(name)) }

    /// The body is exactly these bytes.
    public static func body(_ body: Data) -> StubMatcher { StubMatcher(kind: .bodyBytes(body)) }

    /// The body is exactly this text, UTF-8 encoded.
    public static func body(_ text: String) -> StubMatcher { body(Data(text.utf8)) }

    /// The body is JSON equal to this JSON text: key order, whitespace and number spelling
    /// (`1.0` and `1`) do not count.
    /// - Throws: `StubError.invalidPattern` when `text` is not JSON.
    public static func json(_ text: String) throws(StubError) -> StubMatcher {
        try reading(text, as: "JSON") { .json(try JSONParser.parse(Data(text.utf8))) }
    }

    /// The body is JSON equal to `value` encoded (by `encoder`, if given): key order,
    /// whitespace and number spelling do not count.
    /// - Throws: `EncodingError` when `value` cannot be encoded.
    public static func json(encoding value: some Encodable, encoder: JSONEncoder? = nil) throws -> StubMatcher {
        try json(String(decoding: Track.Outcome.encode(value, with: encoder), as: UTF8.self))
    }

    /// The URL equals `url` (scheme and host in any case, default port or none, query
    /// parameters in any order, fragment ignored); `ignoringQuery` accepts any query.
    /// (Any path under a host: `.host(_:)`; paths with wildcards: `.path(_:)`.)
    public static func url(_ url: URL, ignoringQuery: Bool = false) -> StubMatcher {
        let parts: [Matcher] = ignoringQuery ? [.scheme, .host, .port, .path] : [.scheme, .host, .port, .path, .query]
        return comparing(parts, with: Track.Request(url: url), "url \(url.absoluteString)" + (ignoringQuery ? " ignoring the query" : ""))
    }

    /// Any rule of your own; `name` appears in no-match errors.
    public static func custom(_ name: String, _ matches: @escaping @Sendable (Track.Request) -> Bool) -> StubMatcher {
        StubMatcher(kind: .custom(name, matches))
    }

    /// A vinyl `Matcher` comparing the request with `reference`: reuse a matching strategy's
    /// rules for stubs, e.g. `.matching(.query, like: Track.Request(url: …))`.
    public static func matching(_ matcher: Matcher, like reference: Track.Request) -> StubMatcher {
        comparing([matcher], with: reference, "\(matcher) like \(reference.method) \(reference.url.absoluteString)")
    }

    private static func comparing(_ matchers: [Matcher], with reference: Track.Request, _ text: String) -> StubMatcher {
        StubMatcher(kind: .request(matchers, reference, RequestParts(reference), text))
    }

    public var description: String {
        switch kind {
        case .request(_, _, _, let text): return text
        case .regex(let regex, _, let onPath): return "\(onPath ? "path" : "url") matching /\(regex.value.pattern)/"
        case .headerPresent(let name): return "header \(name) present"
        case .uriTemplate(let template): return "URI template \(template)"
        case .path(let pattern): return "path \(pattern)"
        case .bodyBytes(let data): return "body \(BodyComparison.preview(data))"
        case .json(let value): return "JSON body \(String(decoding: JSONWriter.compact(value), as: UTF8.self))"
        case .custom(let name, _): return name
        }
    }

    /// The outcome of checking one matcher.
    enum Verdict: Sendable {
        case matched([String: String])
        case failed(String)

        var holds: Bool { if case .matched = self { true } else { false } }
    }

    func evaluate(_ request: Track.Request, parts: RequestParts) -> Verdict {
        switch kind {
        case .request(let matchers, let reference, let referenceParts, _):
            let differences = matchers.compactMap { $0.difference(live: request, liveParts: parts, recorded: reference, recordedParts: referenceParts) }
            if differences.isEmpty { return .matched([:]) }
            return .failed(differences.joined(separator: "; ").replacingOccurrences(of: "\n", with: "; ") + " (request vs stub)")
        case .headerPresent(let name):
            return request.headers[name] != nil ? .matched([:]) : .failed("no header \(name)")
        case .regex(let regex, let names, let onPath):
            let text = onPath ? request.url.path : request.url.absoluteString
            guard let result = regex.value.firstMatch(in: text, options: [], range: NSRange(text.startIndex..., in: text)) else {
                return .failed("\(onPath ? "path" : "url") \(text.isEmpty ? "(empty)" : text) does not match /\(regex.value.pattern)/")
            }
            // A group that took part in no match (NSNotFound) captures nothing.
            return .matched(names.reduce(into: [:]) { values, name in values[name] = Range(result.range(withName: name), in: text).map { String(text[$0]) } })
        case .uriTemplate(let template):
            return template.match(request.url).map(Verdict.matched) ?? .failed("url \(request.url.absoluteString) does not fit the template \(template)")
        case .path(let pattern):
            return pattern.match(request.url).map(Verdict.matched) ?? .failed("path \(parts.path) does not fit \(pattern)")
        case .bodyBytes(let expected):
            return request.body == expected ? .matched([:]) : .failed("body \(BodyComparison.preview(request.body)) is not \(BodyComparison.preview(expected))")
        case .json(let expected):
            guard let live = try? JSONParser.parse(request.body) else {
                return .failed("body \(BodyComparison.preview(request.body)) is not JSON")
            }
            return live.semanticallyEquals(expected)
                ? .matched([:]) : .failed("JSON body \(BodyComparison.preview(request.body)) differs from \(String(decoding: JSONWriter.compact(expected), as: UTF8.self))")
        case .custom(let name, let rule):
            return rule(request) ? .matched([:]) : .failed("\(name): the custom matcher said no")
        }
    }

    /// The names of `(?<name>…)` groups, so their values can be captured.
    private static func groupNames(in pattern: String) -> [String] {
        guard let finder = try? NSRegularExpression(pattern: "\\(\\?<([A-Za-z][A-Za-z0-9]*)>", options: []) else { return [] }
        return finder.matches(in: pattern, options: [], range: NSRange(pattern.startIndex..., in: pattern)).compactMap { match in
            Range(match.range(at: 1), in: pattern).map { String(pattern[$0]) }
        }
    }
}
