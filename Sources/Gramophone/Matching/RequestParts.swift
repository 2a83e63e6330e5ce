import Foundation

/// A request's URL taken apart and normalised once, so matchers compare like with like:
/// scheme and host ignore case, the default port equals no port, an empty path is `/`,
/// query parameters compare in any order, and the fragment never counts.
package struct RequestParts: Sendable, Hashable {
    var method: String
    var scheme: String
    var host: String
    var port: Int?
    var path: String
    /// Parameters sorted by name, then value.
    var query: [QueryItem]
    /// `urlText` when the URL's own text already is it (lower case, no default port, no fragment,
    /// parameters in order), as most recorded and requested URLs are: the index key of a replay
    /// appends it whole. Derived from the parts, so equality leaves it out.
    private var plainURLText: String?
    /// Only `method` and the URL's text are set (`init(keyOnly:)`).
    private(set) var isKeyOnly = false

    struct QueryItem: Sendable, Hashable, Comparable {
        var name: String
        var value: String?
        static func < (lhs: QueryItem, rhs: QueryItem) -> Bool {
            lhs.name != rhs.name ? lhs.name < rhs.name : (lhs.value ?? "") < (rhs.value ?? "")
        }
        var text: String { value.map { "\(name)=\($0)" } ?? name }
        /// Whether another list of items could print as the same text: a decoded `=` or `&`
        /// inside, or nothing to print (URLComponents reads some undecodable queries so).
        var printsAmbiguously: Bool {
            (name.isEmpty && value == nil) || name.utf8.contains { $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: "&") }
                || (value?.utf8.contains { $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: "&") } ?? false)
        }
    }

    init(method: String, scheme: String, host: String, port: Int?, path: String, query: [QueryItem]) {
        (self.method, self.scheme, self.host, self.port, self.path, self.query) = (method, scheme, host, port, path, query)
    }

    init(method: String, url: URL) {
        self.method = method.uppercasedIfNeeded
        let text = url.absoluteString
        if let plain = Self.plainParts(of: text) {
            (scheme, host, port, path, query) = (plain.scheme, plain.host, plain.port, plain.path, plain.query)
            if plain.isURLText { plainURLText = text }
            return
        }
        let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        scheme = (components?.scheme ?? url.scheme ?? "").lowercased()
        host = (components?.host ?? "").lowercased()
        let explicitPort = components?.port
        port = explicitPort == Self.defaultPort(for: scheme) ? nil : explicitPort
        let rawPath = components?.percentEncodedPath ?? url.path
        path = rawPath.isEmpty ? "/" : rawPath
        query = (components?.queryItems ?? []).map { QueryItem(name: $0.name, value: $0.value) }.sorted()
    }

    /// The parts of a plain absolute URL (`scheme://host[:port][/path][?a=1&b][#fragment]`, printable
    /// ASCII with no `%`, `@`, `[`, backslash or `;`, no empty query parameter), read straight from its text.
    /// `URLComponents` costs about a microsecond and several allocations per request, most of a
    /// replay; nil sends every other URL to it, and tests check both readers agree. `isURLText`:
    /// the text prints as `urlText` already. Not `building`, only that is found: no part is made.
    static func plainParts(of text: String, building: Bool = true) -> (scheme: String, host: String, port: Int?, path: String, query: [QueryItem], isURLText: Bool)? {
        var text = text
        return text.withUTF8 { bytes -> (String, String, Int?, String, [QueryItem], Bool)? in
            let count = bytes.count
            func string(_ start: Int, _ end: Int) -> String {
                building ? String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self) : ""
            }
            // Scheme and host are lower-cased only when the text has an upper-case letter at all.
            var upperCase = false
            for byte in bytes {
                guard byte > 0x20, byte < 0x7F else { return nil }
                switch byte {
                case UInt8(ascii: "%"), UInt8(ascii: "@"), UInt8(ascii: "["), UInt8(ascii: "\\"), UInt8(ascii: ";"): return nil
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): upperCase = true
                default: continue
                }
            }
            func hasUpperCase(_ start: Int, _ end: Int) -> Bool {
                upperCase && bytes[start..<end].contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
            }
            // Scheme: a letter, then letters, digits, + - .
            var index = 0
            while index < count, bytes[index] != UInt8(ascii: ":") {
                let byte = bytes[index]
                let letter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
                guard letter || (index > 0 && ((byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "."))) else {
                    return nil
                }
                index += 1
            }
            guard index > 0, index + 2 < count, bytes[index + 1] == UInt8(ascii: "/"), bytes[index + 2] == UInt8(ascii: "/") else { return nil }
            var isURLText = !hasUpperCase(0, index)
            // Made even when not `building`: the default port depends on it.
            let schemeText = String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<index]), as: UTF8.self)
            let scheme = upperCase ? schemeText.lowercased() : schemeText
            // Authority: host[:port], up to the path, query or fragment.
            let hostStart = index + 3
            index = hostStart
            var colon: Int?
            while index < count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
                if byte == UInt8(ascii: ":") {
                    guard colon == nil else { return nil }
                    colon = index
                }
                index += 1
            }
            let authorityEnd = index
            let hostEnd = colon ?? authorityEnd
            guard hostEnd > hostStart else { return nil }
            isURLText = isURLText && !hasUpperCase(hostStart, hostEnd)
            let host = upperCase ? string(hostStart, hostEnd).lowercased() : string(hostStart, hostEnd)
            var port: Int?
            if let colon {
                guard authorityEnd - colon - 1 >= 1, authorityEnd - colon - 1 <= 5 else { return nil }
                var value = 0
                for position in (colon + 1)..<authorityEnd {
                    let digit = Int(bytes[position]) - 48
                    guard digit >= 0, digit <= 9 else { return nil }
                    value = value * 10 + digit
                }
                port = value == defaultPort(for: scheme) ? nil : value
                // A default port or `:080` prints otherwise.
                isURLText = isURLText && port != nil && bytes[colon + 1] != UInt8(ascii: "0")
            }
            // Path, up to the query or fragment.
            let pathStart = index
            while index < count, bytes[index] != UInt8(ascii: "?"), bytes[index] != UInt8(ascii: "#") { index += 1 }
            isURLText = isURLText && index > pathStart
            let path = index > pathStart ? string(pathStart, index) : "/"
            var query: [QueryItem] = []
            if index < count, bytes[index] == UInt8(ascii: "?") {
                index += 1
                var queryEnd = index
                while queryEnd < count, bytes[queryEnd] != UInt8(ascii: "#") { queryEnd += 1 }
                guard queryEnd > index else { return nil }
                // The previous parameter's name and value, to find whether they come in order.
                var previous: (name: Range<Int>, value: Range<Int>)?
                var segmentStart = index
                while segmentStart <= queryEnd {
                    var segmentEnd = segmentStart
                    var equals: Int?
                    while segmentEnd < queryEnd, bytes[segmentEnd] != UInt8(ascii: "&") {
                        if equals == nil, bytes[segmentEnd] == UInt8(ascii: "=") { equals = segmentEnd }
                        segmentEnd += 1
                    }
                    guard segmentEnd > segmentStart else { return nil }
                    let name = segmentStart..<(equals ?? segmentEnd)
                    let value = equals.map { ($0 + 1)..<segmentEnd } ?? segmentEnd..<segmentEnd
                    if let previous, isURLText {
                        // As `QueryItem.<` orders them (byte order is Unicode order in ASCII).
                        let names = bytes[previous.name].lexicographicallyPrecedes(bytes[name]) ? -1 : bytes[previous.name].elementsEqual(bytes[name]) ? 0 : 1
                        isURLText = names < 0 || (names == 0 && !bytes[value].lexicographicallyPrecedes(bytes[previous.value]))
                    }
                    previous = (name, value)
                    if building { query.append(QueryItem(name: string(name.lowerBound, name.upperBound), value: equals.map { _ in string(value.lowerBound, value.upperBound) })) }
                    segmentStart = segmentEnd + 1
                }
                index = queryEnd
                if !isURLText, query.count > 1 { query.sort() }
            }
            // A fragment never counts, so it never prints.
            isURLText = isURLText && index == count
            return (scheme, host, port, path, query, isURLText)
        }
    }

    package init(_ request: Track.Request) { self.init(method: request.method, url: request.url) }

    /// Parts for an index key only: for a URL whose text already is `urlText`, just the method
    /// and that text (making the other parts was a quarter of a replay); else all of them.
    /// `TrackSelector` makes the whole parts when its strategy needs more (`isKeyOnly`).
    init(keyOnly request: Track.Request) {
        let text = request.url.absoluteString
        guard Self.plainParts(of: text, building: false)?.isURLText == true else {
            self.init(request)
            return
        }
        self.init(method: request.method.uppercasedIfNeeded, scheme: "", host: "", port: nil, path: "", query: [])
        plainURLText = text
        isKeyOnly = true
    }

    package static func == (lhs: RequestParts, rhs: RequestParts) -> Bool {
        lhs.method == rhs.method && lhs.scheme == rhs.scheme && lhs.host == rhs.host && lhs.port == rhs.port && lhs.path == rhs.path && lhs.query == rhs.query
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(scheme)
        hasher.combine(host)
        hasher.combine(port)
        hasher.combine(path)
        hasher.combine(query)
    }

    static func defaultPort(for scheme: String) -> Int? {
        switch scheme {
        case "http", "ws": return 80
        case "https", "wss": return 443
        default: return nil
        }
    }

    var queryText: String { query.map(\.text).joined(separator: "&") }
    var effectivePort: Int? { port ?? Self.defaultPort(for: scheme) }

    /// `queryText == other.queryText`, without building either text unless the items differ
    /// and still could print alike: at the same length, with an item that prints ambiguously.
    /// Miss reports compare every track this way.
    func hasSameQueryText(as other: RequestParts) -> Bool {
        if query == other.query { return true }
        guard queryTextLength == other.queryTextLength,
            query.contains(where: \.printsAmbiguously) || other.query.contains(where: \.printsAmbiguously)
        else { return false }
        return queryText == other.queryText
    }

    /// `queryText.utf8.count`, from the items' own counts.
    private var queryTextLength: Int {
        query.reduce(max(query.count - 1, 0)) { $0 + $1.name.utf8.count + ($1.value.map { $0.utf8.count + 1 } ?? 0) }
    }

    /// `urlText == other.urlText`, part by part where the parts print unambiguously (the
    /// Matcher fuzz target checks the two agree).
    func hasSameURLText(as other: RequestParts) -> Bool {
        guard hasPlainAuthority, other.hasPlainAuthority else { return urlText == other.urlText }
        return path == other.path && host == other.host && scheme == other.scheme && port == other.port
            && query.isEmpty == other.query.isEmpty && hasSameQueryText(as: other)
    }

    /// Host, port and path print joined in `urlText`; they split back one way only when the host
    /// holds no `:` or `/` and the path starts with `/`. Not so for relative URLs (`=/` and
    /// `//=` print alike), IPv6 hosts or hosts URLComponents decoded.
    var hasPlainAuthority: Bool {
        path.utf8.first == UInt8(ascii: "/") && !host.utf8.contains { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "/") }
    }

    /// The normalised URL: what `.url` compares.
    var urlText: String {
        var text = ""
        appendURLText(to: &text)
        return text
    }

    /// Appends `urlText` to `text` without building it apart: the index key of every replay
    /// holds it, and the intermediate strings were a tenth of a replay's time.
    func appendURLText(to text: inout String) {
        if let plainURLText {
            text += plainURLText
            return
        }
        // Exactly the length it will have: an index keeps its keys, spare capacity and all.
        let portLength = port.map { String($0).utf8.count + 1 } ?? 0
        let queryLength = query.isEmpty ? 0 : 1 + queryTextLength
        text.reserveCapacity(text.utf8.count + scheme.utf8.count + 3 + host.utf8.count + portLength + path.utf8.count + queryLength)
        text += scheme
        text += "://"
        text += host
        if let port {
            text += ":"
            text += String(port)
        }
        text += path
        guard !query.isEmpty else { return }
        text += "?"
        for (position, item) in query.enumerated() {
            if position > 0 { text += "&" }
            text += item.name
            if let value = item.value {
                text += "="
                text += value
            }
        }
    }
}
