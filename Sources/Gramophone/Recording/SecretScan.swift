import Foundation

/// A likely secret left in a vinyl: what `gramophone scan` reports, and what a test can assert
/// is absent (`#expect(vinyl.likelySecrets().isEmpty)`).
public struct SecretFinding: Sendable, Equatable, CustomStringConvertible {
    /// The track's position in the vinyl.
    public var trackIndex: Int
    /// Where in the track: `request.headers.Authorization`, `request.url?access_token`,
    /// `response.body.user.password`.
    public var place: String
    /// Why it looks like a secret.
    public var reason: String
    /// The start of the value, the rest masked, so the report does not leak it again.
    public var preview: String

    public var description: String { "track #\(trackIndex): \(place): \(reason) (\(preview))" }

    static func mask(_ value: String) -> String {
        let shown = value.count > 12 ? 4 : min(2, value.count / 3)
        return String(value.prefix(shown)) + String(repeating: "*", count: min(8, max(3, value.count - shown)))
    }
}

extension Vinyl {
    /// Scans every track for values that look like credentials: auth and API-key headers,
    /// secret-named query parameters, JSON keys and form fields (`password`, `token`,
    /// `secret`, `api_key`, `access_token`, …), passwords in URLs, and bearer tokens, JWTs and
    /// well-known key formats anywhere in text. Redaction placeholders (`<redacted>`,
    /// `REDACTED`, `****`) do not count.
    public func likelySecrets() -> [SecretFinding] {
        var scanner = SecretScanner()
        for (index, track) in tracks.enumerated() {
            scanner.scan(track, at: index)
        }
        return scanner.findings
    }
}

struct SecretScanner {
    private(set) var findings: [SecretFinding] = []
    private var places: Set<String> = []
    private let patterns: [(name: String, regex: NSRegularExpression)]

    init() { patterns = Self.compiledPatterns.value }

    /// Compiled once per process, not per scan, so scanning many small vinyls (`gramophone scan
    /// Vinyls/*.json`, the Redaction fuzz target) does not compile them again each time. Unchecked: `NSRegularExpression` is immutable and
    /// documented as safe to use from many threads, but Foundation does not mark it `Sendable`.
    private static let compiledPatterns: Unchecked<[(name: String, regex: NSRegularExpression)]> = {
        let sources = [
            ("a bearer token", #"(?i)\bbearer\s+[A-Za-z0-9\-._~+/]{8,}=*"#),
            ("a JSON web token", #"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*"#),
            ("an AWS access key id", #"\b(AKIA|ASIA)[0-9A-Z]{16}\b"#),
            ("a GitHub token", #"\bgh[pousr]_[A-Za-z0-9]{30,}\b"#),
            ("a Slack token", #"\bxox[abprs]-[A-Za-z0-9-]{10,}"#),
            ("a private key", #"-----BEGIN [A-Z ]*PRIVATE KEY-----"#),
        ]
        // The patterns are literals: one that failed to compile would be a bug caught by the tests.
        return Unchecked(sources.compactMap { name, pattern in (try? NSRegularExpression(pattern: pattern)).map { (name, $0) } })
    }()

    mutating func scan(_ track: Track, at index: Int) {
        scanHeaders(track.request.headers, at: index, side: "request")
        scanURL(track.request.url, at: index, place: "request.url")
        scanBody(track.request.body, headers: track.request.headers, at: index, side: "request")
        if case .response(let response) = track.outcome {
            scanHeaders(response.headers, at: index, side: "response")
            if let url = response.url { scanURL(url, at: index, place: "response.url") }
            scanBody(response.body, headers: response.headers, at: index, side: "response")
        }
    }

    private mutating func add(_ index: Int, _ place: String, _ reason: String, _ value: String) {
        guard places.insert("\(index) \(place)").inserted else { return }
        findings.append(SecretFinding(trackIndex: index, place: place, reason: reason, preview: SecretFinding.mask(value)))
    }

    private mutating func scanHeaders(_ headers: Headers, at index: Int, side: String) {
        for field in headers where !SensitiveNames.isRedacted(field.value) {
            let place = "\(side).headers.\(field.name)"
            if SensitiveNames.isSensitiveHeader(field.name) {
                add(index, place, "a credential header", field.value)
            } else {
                scanText(field.value, at: index, place: place)
            }
        }
    }

    private mutating func scanURL(_ url: URL, at index: Int, place: String) {
        if let password = url.password, !SensitiveNames.isRedacted(password) {
            add(index, place, "a password in the URL", password)
        }
        for item in URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? [] {
            guard let value = item.value, !SensitiveNames.isRedacted(value) else { continue }
            if SensitiveNames.isSecretQueryParameter(item.name) {
                add(index, "\(place)?\(item.name)", "a secret-named query parameter", value)
            }
        }
        scanText(url.absoluteString, at: index, place: place)
    }

    private mutating func scanBody(_ body: Data, headers: Headers, at index: Int, side: String) {
        guard !body.isEmpty, UTF8Validation.isValid(body) else { return }
        let place = "\(side).body"
        if let document = try? JSONParser.parse(body) {
            scanJSON(document, at: index, place: place)
        } else if headers.mediaType == "application/x-www-form-urlencoded" {
            for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
                // Empty pieces kept: `=secret` has an empty name, not the name `secret`.
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2, !parts[1].isEmpty else { continue }
                let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
                let value = String(parts[1]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(parts[1])
                if SensitiveNames.isSecretKey(name), !SensitiveNames.isRedacted(value) {
                    add(index, "\(place) form field \(name)", "a secret-named form field", value)
                }
            }
        }
        scanText(String(decoding: body, as: UTF8.self), at: index, place: place)
    }

    private mutating func scanJSON(_ value: JSONValue, at index: Int, place: String) {
        switch value {
        case .object(let members):
            for member in members {
                let memberPlace = place + "." + member.key
                if SensitiveNames.isSecretKey(member.key), let text = Self.scalarText(member.value), !SensitiveNames.isRedacted(text) {
                    add(index, memberPlace, "a secret-named JSON key", text)
                } else {
                    scanJSON(member.value, at: index, place: memberPlace)
                }
            }
        case .array(let items):
            for (position, item) in items.enumerated() { scanJSON(item, at: index, place: place + "[\(position)]") }
        default:
            break
        }
    }

    private static func scalarText(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): return text
        case .number(let text): return text
        default: return nil
        }
    }

    private mutating func scanText(_ text: String, at index: Int, place: String) {
        let range = NSRange(text.startIndex..., in: text)
        for pattern in patterns {
            guard let match = pattern.regex.firstMatch(in: text, range: range), let found = Range(match.range, in: text) else { continue }
            add(index, place, "looks like \(pattern.name)", String(text[found]))
        }
    }
}
