import Foundation

/// A likely secret left in a vinyl: what `gramophone scan` reports, what the recorder refuses
/// to write, and what a test can assert is absent (`#expect(vinyl.likelySecrets().isEmpty)`).
public struct SecretFinding: Sendable, Equatable, CustomStringConvertible {
    /// The track's position in the vinyl.
    public package(set) var trackIndex: Int
    /// Where in the track, said precisely: `request.headers "Authorization"`,
    /// `request.url query "access_token"`, `response.body JSON "user.password"`,
    /// `response.headers "Location" query "X-Amz-Signature"`, and in a WebSocket conversation
    /// the message as the file numbers it: `response.webSocket.messages[3] (received) JSON "token"`.
    package var place: String
    /// The place as a value: what `Recording.allowing(_:)` takes to keep it on purpose.
    public package(set) var location: SecretPlace
    /// Why it looks like a secret.
    public package(set) var reason: String
    /// The start of the value, the rest masked, so the report does not leak it again.
    public package(set) var preview: String

    /// The redaction filter that would take it out, e.g. `.query(replacing: ["auth": "REDACTED"])`.
    public var filter: String { location.filter }

    public var description: String { "track #\(trackIndex): \(place): \(reason) (\(preview))" }

    static func mask(_ value: String) -> String {
        let shown = value.count > 12 ? 4 : min(2, value.count / 3)
        return String(value.prefix(shown)) + String(repeating: "*", count: min(8, max(3, value.count - shown)))
    }
}

extension Vinyl {
    /// Scans every track for values that look like credentials, by the same rules the default
    /// redaction removes them by: credential headers, secret-named query parameters (also in
    /// URLs inside headers and bodies), JSON keys and form fields (`password`, `token`,
    /// `secret`, `api_key`, `access_token`, `X-Amz-Signature`, …), passwords in URLs, and
    /// bearer tokens, JWTs and well-known key formats (GitHub, Stripe, AWS, Slack, Google,
    /// OpenAI, Anthropic, private keys) anywhere in text. A WebSocket conversation's payloads
    /// are scanned as bodies are (JSON keys, token shapes, URLs inside), text frames and binary
    /// frames that are UTF-8 text alike. Redaction placeholders (`<redacted>`, `REDACTED`,
    /// `****`) do not count.
    public func likelySecrets() -> [SecretFinding] {
        likelySecrets(inTracks: tracks.indices, allowing: [])
    }

    /// The findings in some tracks, leaving out those `allowed` covers.
    func likelySecrets(inTracks range: Range<Int>, allowing allowed: [SecretPlace]) -> [SecretFinding] {
        // `allowingAllSecrets()`: nothing to report, so nothing to scan.
        if allowed.contains(SecretPlace.everywhere) { return [] }
        var scanner = SecretScanner()
        for index in range {
            scanner.scan(tracks[index], at: index)
        }
        return allowed.isEmpty ? scanner.findings : scanner.findings.filter { finding in !allowed.contains { $0.covers(finding.location) } }
    }
}

/// Token shapes that are secrets wherever they appear. Each is specific enough that a UUID, a
/// content hash, an ETag or a version string does not match (RELIABILITY.md keeps the count).
enum SecretPatterns {
    struct Pattern {
        var name: String
        var regex: NSRegularExpression
        /// Literal parts one of which every match contains: most text has none, and a byte
        /// search is far cheaper than a regular expression (the recorder scans every track).
        var anchors: [String]
        /// Also needs upper case, lower case and digits, for prefixes short enough to start ordinary words.
        var mustLookRandom: Bool
    }

    // Unchecked: NSRegularExpression is immutable and documented safe to share across threads.
    private static let box = Unchecked(
        [
            ("a private key", #"-----BEGIN [A-Z ]*PRIVATE KEY-----"#, ["PRIVATE KEY"], false),
            ("a bearer token", #"(?i)\bbearer\s+[A-Za-z0-9\-._~+/]{8,}=*"#, ["earer", "EARER"], false),
            ("a JSON web token", #"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*"#, ["eyJ"], false),
            ("an AWS access key id", #"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"#, ["AKIA", "ASIA"], false),
            ("a GitHub token", #"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})\b"#, ["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"], false),
            ("a Stripe secret key", #"\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,}\b"#, ["k_live_", "k_test_"], false),
            ("a Slack token", #"\bxox[abprs]-[A-Za-z0-9-]{10,}"#, ["xox"], false),
            ("a Google API key", #"\bAIza[0-9A-Za-z_-]{35}\b"#, ["AIza"], false),
            ("an Anthropic API key", #"\bsk-ant-[A-Za-z0-9_-]{20,}"#, ["sk-ant-"], false),
            ("an OpenAI API key", #"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}"#, ["sk-"], true),
        ].map { name, pattern, anchors, random in
            // The patterns are literals: the tests run each, so `try!` cannot fail at run time.
            Pattern(name: name, regex: try! NSRegularExpression(pattern: pattern), anchors: anchors, mustLookRandom: random)
        })

    /// Every literal part of the shapes, for `BodyClues`.
    static let anchors = box.value.flatMap(\.anchors)

    /// The first token shape found in `text`, as (what it looks like, the matched text).
    static func firstMatch(in text: String) -> (name: String, value: String)? {
        // The shortest shape (a Slack token) takes 14 bytes; most header values and JSON strings are shorter.
        guard text.utf8.count >= 14 else { return nil }
        var range: NSRange?
        for pattern in box.value where pattern.anchors.contains(where: text.containsUTF8) {
            let whole = range ?? NSRange(text.startIndex..., in: text)
            range = whole
            for match in pattern.regex.matches(in: text, range: whole) {
                guard let found = Range(match.range, in: text) else { continue }
                let value = String(text[found])
                // The pattern's run is `looksLikeKey`'s characters, 20 or more of them.
                if pattern.mustLookRandom && !SensitiveNames.looksLikeKey(value) { continue }
                // `Bearer REDACTED` is a redacted token, not a token.
                if pattern.anchors == ["earer", "EARER"], SensitiveNames.isRedacted(String(value.drop { !$0.isWhitespace })) { continue }
                return (pattern.name, value)
            }
        }
        return nil
    }
}

struct SecretScanner {
    private(set) var findings: [SecretFinding] = []
    private var places: Set<String> = []

    mutating func scan(_ track: Track, at index: Int) {
        scanSide(headers: track.request.headers, url: track.request.url, body: track.request.body, side: .request, at: index)
        if case .response(let response) = track.outcome {
            scanSide(headers: response.headers, url: response.url, body: response.body, side: .response, at: index)
            for (position, message) in (response.conversation?.messages ?? []).enumerated() {
                // The client's messages are its side of the track, as redaction takes them.
                self.message = position
                // A payload has no headers: JSON is found by parsing, and it is never a form.
                scanBody(message.payload, headers: [:], side: message.direction == .sent ? .request : .response, at: index)
            }
            self.message = nil
        }
    }

    /// The message whose payload is being scanned, for the places found in it.
    private var message: Int?

    private func place(_ part: SecretPlace.Part, _ side: SecretPlace.Side) -> SecretPlace {
        SecretPlace(part, side, message: message)
    }

    private mutating func add(_ index: Int, _ location: SecretPlace, _ place: String, _ reason: String, _ value: String) {
        guard places.insert("\(index) \(place)").inserted else { return }
        findings.append(SecretFinding(trackIndex: index, place: place, location: location, reason: reason, preview: SecretFinding.mask(value)))
    }

    private mutating func scanSide(headers: Headers, url: URL?, body: Data, side: SecretPlace.Side, at index: Int) {
        for field in headers.fields where !SensitiveNames.isRedacted(field.value) {
            let location = SecretPlace(.header(field.name), side)
            scanValue(field.value, at: index, location: location, secret: SensitiveNames.isSensitiveHeader(field.name) ? "a credential header" : nil)
        }
        if let url { scanURL(url, side: side, at: index) }
        scanBody(body, headers: headers, side: side, at: index)
    }

    private mutating func scanURL(_ url: URL, side: SecretPlace.Side, at index: Int) {
        let whole = SecretPlace(.url, side)
        // The URL's own text, not URLComponents: this runs for every track the recorder writes.
        let text = url.absoluteString
        let questionMark = text.firstIndex(of: "?")
        var beforeQuery = String(questionMark.map { text[..<$0] } ?? text[...].prefix { $0 != "#" })
        if beforeQuery.containsUTF8(UInt8(ascii: "@")), let password = url.password, !SensitiveNames.isRedacted(password) {
            add(index, whole, whole.description, "a password in the URL", password)
            beforeQuery = beforeQuery.replacingOccurrences(of: ":" + password + "@", with: ":@")
        }
        scanPairs(questionMark.map { text[text.index(after: $0)...].prefix { $0 != "#" } } ?? "", form: false, side: side, at: index)
        // The rest of the URL (host, path), the query already looked at.
        scanText(beforeQuery, at: index, location: whole)
    }

    private mutating func scanBody(_ body: Data, headers: Headers, side: SecretPlace.Side, at index: Int) {
        let clues = BodyClues(body)
        // Most bodies name no secret, hold no token shape and no signed URL: say so from the
        // bytes, without parsing.
        guard !body.isEmpty, clues.isText, clues.namesSecret || clues.mayHoldToken || clues.mayHoldQuery else { return }
        let text = String(decoding: body, as: UTF8.self)
        guard clues.namesSecret || clues.mayHoldToken || !SensitiveNames.embeddedQuerySecrets(in: text).isEmpty else { return }
        if let document = try? JSONParser.parse(body) {
            scanJSON(document, path: "", side: side, at: index)
            return
        }
        if headers.mediaType == "application/x-www-form-urlencoded" {
            scanPairs(text[...], form: true, side: side, at: index)
            return
        }
        scanText(text, at: index, location: place(message == nil ? .body : .webSocketMessages, side))
    }

    /// The `name=value` pairs of a URL's query or (`form`) a form body: a value whose name says
    /// it is a secret is found; any other value is looked into as text.
    private mutating func scanPairs(_ pairs: Substring, form: Bool, side: SecretPlace.Side, at index: Int) {
        for pair in pairs.split(separator: "&") {
            // Empty pieces kept: `=token=abc` has an empty name, not the name `token`.
            let item = Redaction.RawQueryItem(pair)
            guard let value = item.decodedValue, !SensitiveNames.isRedacted(value) else { continue }
            // A form's `+` is a space, in names too.
            let name = form ? item.decodedName.replacingOccurrences(of: "+", with: " ") : item.decodedName
            let location = place(form ? .formField(name) : .query(name), side)
            let secret = form ? SensitiveNames.isSecretKey(name) : SensitiveNames.isSecretQueryParameter(name, value: value)
            scanValue(value, at: index, location: location, secret: secret ? "a secret-named \(form ? "form field" : "query parameter")" : nil)
        }
    }

    /// A named value: found when its name says it is a secret (`secret` says why), else looked into as text.
    private mutating func scanValue(_ value: String, at index: Int, location: SecretPlace, secret: String?) {
        if let secret { add(index, location, location.description, secret, value) } else { scanText(value, at: index, location: location) }
    }

    private mutating func scanJSON(_ value: JSONValue, path: String, side: SecretPlace.Side, at index: Int) {
        switch value {
        case .object(let members):
            for member in members {
                let memberPath = path.isEmpty ? member.key : path + "." + member.key
                let location = place(.jsonKey(memberPath), side)
                switch member.value {
                case .string(let text) where SensitiveNames.isSecret(key: member.key, value: text, side: side),
                    .number(let text) where SensitiveNames.isSecret(key: member.key, value: text, side: side):
                    if !SensitiveNames.isRedacted(text) { add(index, location, location.description, "a secret-named JSON key", text) }
                default:
                    scanJSON(member.value, path: memberPath, side: side, at: index)
                }
            }
        case .array(let items):
            for (position, item) in items.enumerated() { scanJSON(item, path: path + "[\(position)]", side: side, at: index) }
        case .string(let text):
            let location = path.isEmpty ? place(message == nil ? .body : .webSocketMessages, side) : place(.jsonKey(path), side)
            scanText(text, at: index, location: location)
        case .number, .bool, .null:
            break
        }
    }

    /// Token shapes, and signed URLs written inside the text. The place is spelled out only
    /// for a finding: the recorder scans every string of every track it writes.
    private mutating func scanText(_ text: String, at index: Int, location: SecretPlace) {
        for (name, value) in SensitiveNames.embeddedQuerySecrets(in: text) {
            let inner = SecretPlace(.query(name), location.side, message: location.message)
            add(index, inner, "\(location.description) query \"\(name)\"", "a secret-named query parameter of a URL inside it", value)
        }
        if let (name, value) = SecretPatterns.firstMatch(in: text) {
            add(index, location, location.description, "looks like \(name)", value)
        }
    }
}
