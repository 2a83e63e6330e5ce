import Foundation

extension Redaction {
    /// Rewrites the URL path (percent-encoded, as sent) of requests and of responses' final
    /// URLs, e.g. to hide an account number: `.path { $0.replacingOccurrences(of: id, with: "ID") }`.
    public static func path(_ transform: @escaping @Sendable (String) -> String) -> Redaction {
        Redaction(steps: [
            .url { url, _ in
                guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
                let path = components.percentEncodedPath
                let rewritten = transform(path)
                guard rewritten != path else { return url }
                // An invalid percent-encoding would make URLComponents trap; encode what must be.
                components.percentEncodedPath = Self.encodedPath(rewritten)
                return components.url ?? url
            }
        ])
    }

    /// Removes the named query parameters (names compared ignoring case) from request and response URLs.
    public static func query(removing names: [String]) -> Redaction {
        queryRewrite(removing(names))
    }

    /// Replaces the values of the named query parameters, where present:
    /// `.query(replacing: ["api_key": "REDACTED"])`.
    public static func query(replacing values: [String: String]) -> Redaction {
        queryRewrite(replacing(values)).writing(values.values)
    }

    private static func queryRewrite(_ rule: @escaping Rule) -> Redaction {
        Redaction(steps: [
            .url { url, secrets in
                rewriteQuery(of: url, secrets: &secrets) { item, secrets in
                    let decision = rule(item.decodedName)
                    if decision != nil { secrets.append(contentsOf: item.secretValues) }
                    return decision
                }
            }
        ])
    }

    struct RawQueryItem {
        var name: String
        var value: String?
        var decodedName: String { name.containsUTF8(UInt8(ascii: "%")) ? name.removingPercentEncoding ?? name : name }
        var decodedValue: String? { value.map(Redaction.decode) }
        var secretValues: [String] {
            guard let value, !value.isEmpty else { return [] }
            let decoded = Redaction.decode(value)
            return decoded == value ? [value] : [value, decoded]
        }
    }

    /// Most names and values are plain: Foundation's decoding (which goes through NSString on
    /// Linux) only for those that need it, since the default looks at every query of every track.
    static func decode(_ text: String) -> String {
        let plus = text.containsUTF8(UInt8(ascii: "+")), percent = text.containsUTF8(UInt8(ascii: "%"))
        guard plus || percent else { return text }
        let spaced = plus ? String(decoding: text.utf8.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 }, as: UTF8.self) : text
        return percent ? spaced.removingPercentEncoding ?? spaced : spaced
    }

    /// Edits the raw `name=value` pairs of the query as `decide` says (as a `Rule` does), leaving
    /// the URL's bytes alone when nothing changes.
    static func rewriteQuery(of url: URL, secrets: inout [String], _ decide: (RawQueryItem, inout [String]) -> String??) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false), let query = components.percentEncodedQuery,
            let kept = rewritePairs(query, secrets: &secrets, decide)
        else { return url }
        components.percentEncodedQuery = kept.isEmpty ? nil : kept.joined(separator: "&")
        return components.url ?? url
    }

    /// The raw `name=value` pairs of a query or a form body as `decide` says (as a `Rule` does),
    /// a pair already holding its replacement kept as it is; nil when none changes.
    static func rewritePairs(_ text: String, secrets: inout [String], _ decide: (RawQueryItem, inout [String]) -> String??) -> [String]? {
        var changed = false
        var kept: [String] = []
        for pair in text.split(separator: "&", omittingEmptySubsequences: false) {
            let item = RawQueryItem(pair)
            let decision = decide(item, &secrets)
            let encoded = decision.map { $0.map { $0.addingPercentEncoding(withAllowedCharacters: queryValueAllowed) ?? "" } }
            guard let encoded, encoded == nil || encoded != item.value else {
                kept.append(String(pair))
                continue
            }
            changed = true
            if let value = encoded { kept.append(item.name + "=" + value) }
        }
        return changed ? kept : nil
    }

    static let queryValueAllowed: CharacterSet = {
        var set = CharacterSet.urlQueryAllowed
        set.remove(charactersIn: "&=+#")
        return set
    }()

    private static func encodedPath(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.insert("%")
        let characters = Array(path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path)
        // A '%' not followed by two hex digits is not an escape: encode it too.
        var result = ""
        for (index, character) in characters.enumerated() {
            let isEscape = character == "%" && index + 2 < characters.count && characters[index + 1].isHexDigit && characters[index + 2].isHexDigit
            result += character == "%" && !isEscape ? "%25" : String(character)
        }
        return result
    }
}

extension Redaction.RawQueryItem {
    /// `name=value`, `name=` (an empty value) or `name` (none).
    init(_ pair: Substring) {
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        self.init(name: String(parts[0]), value: parts.count > 1 ? String(parts[1]) : nil)
    }
}
