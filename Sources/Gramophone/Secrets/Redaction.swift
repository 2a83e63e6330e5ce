import Foundation

/// What is taken out of a track before it is written, and out of a live request before it
/// is matched (so a redacted track still matches the request it was recorded from).
///
/// Redactions are values that compose with `+`, applied in order, with the
/// `beforeRecord…` hooks always last:
///
/// ```swift
/// Recording(redaction: .default                         // Authorization, Cookie, API-key headers…
///     + .query(removing: ["access_token"])
///     + .jsonKeys(replacing: ["password": Redaction.placeholder])
///     + .beforeRecordResponse { response, _ in var r = response; r.headers["Date"] = nil; return r })
/// ```
///
/// Values a filter removes or replaces (a header's token, a query parameter, a JSON key's
/// string) are also scrubbed wherever else they appear in the track, e.g. where a server
/// echoes the request in its response body, and replaced with `placeholder`. Values shorter
/// than 4 characters are not scrubbed elsewhere: they would collide with ordinary text.
public struct Redaction: Sendable {
    enum Step: Sendable {
        /// Every place whose name says it holds a credential (`Redaction.default`).
        case secretNames
        /// Request and response headers; records what it took out.
        case headers(@Sendable (Headers, inout [String]) -> Headers)
        /// The request URL and the response URL.
        case url(@Sendable (URL, inout [String]) -> URL)
        /// Request and response bodies, with the headers that describe them.
        case body(@Sendable (Data, Headers, inout [String]) -> Data)
        case beforeRecordRequest(@Sendable (Track.Request) -> Track.Request)
        case beforeRecordResponse(@Sendable (Track.Response, Track.Request) -> Track.Response)
    }

    var steps: [Step]
    /// The values the replacing filters write. Never chased as secrets elsewhere: a later
    /// filter's replacement that an earlier filter takes out again on a second pass (the
    /// default takes `password=x y` that `.formFields(replacing: ["password": "x y"])` wrote)
    /// would otherwise be scrubbed, and redacting a redacted track would change it.
    var written: [String] = []

    /// What a redacted value becomes, everywhere the recorder writes one: JSON members, query
    /// parameters, form fields, message payloads, and a secret scrubbed from the rest of the
    /// track. One spelling that URLs, forms and headers carry unchanged, so a token the app
    /// takes from a replayed answer and sends on is, in the next request, the mask recorded there.
    public static let placeholder = "REDACTED"

    /// The spelling JSON members and scrubbed values had before `placeholder` was the one mask.
    /// Vinyls written then still hold it: a secret-named value sent with it is redacted to
    /// `placeholder`, and it compares equal to `placeholder` in JSON bodies (JSONComparison.swift).
    static let legacyPlaceholder = "<redacted>"

    /// No redaction at all: everything is written as it was sent and received.
    public static let none = Redaction(steps: [])

    /// The default: takes out every value whose name says it is a credential, and scrubs those
    /// values from the rest of the track:
    /// - headers `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie` and API-key or
    ///   token headers (`X-Api-Key`, `X-Auth-Token`, …; see `isSensitiveHeader`) are removed;
    /// - query parameters (`access_token`, `api_key`, `sig`, `X-Amz-Signature`, `key=AIza…`, …),
    ///   also of URLs inside headers (`Location`) and bodies, and form fields become `REDACTED`;
    /// - JSON members at any depth (`password`, `client_secret`, `refresh_token`, …) become `REDACTED`;
    /// - a password in a URL becomes `REDACTED`.
    ///
    /// A secret-named value the app sends that is already `REDACTED` (or `<redacted>`, as older
    /// vinyls hold in JSON) is left as the mask `REDACTED`: a token taken
    /// from a replayed answer matches the request recorded with the real one.
    ///
    /// <doc:RecordingAndRedaction> lists the names. Opt out with `.none`; keep it while adding filters
    /// with `.default + …`; keep one value on purpose with `Recording.allowing(_:)`.
    public static let `default` = Redaction(steps: [.secretNames])

    /// Whether the default redaction removes a header of this name.
    static func isSensitiveHeader(_ name: String) -> Bool {
        SensitiveNames.isSensitiveHeader(name)
    }

    /// This redaction, noting values its filters write (see `written`).
    func writing(_ values: some Sequence<String>) -> Redaction {
        var copy = self
        copy.written += values
        return copy
    }

    /// Both redactions, `lhs` first (hooks still run after every filter).
    public static func + (lhs: Redaction, rhs: Redaction) -> Redaction {
        Redaction(steps: lhs.steps + rhs.steps, written: lhs.written + rhs.written)
    }

    // MARK: Headers

    /// Removes the named headers (any case) from requests and responses.
    public static func headers(removing names: [String]) -> Redaction {
        headersRewrite { name in names.contains { $0.caseInsensitiveEquals(name) } ? .some(nil) : nil }
    }

    /// Replaces the values of the named headers (any case), where present, in requests and
    /// responses: `.headers(replacing: ["Authorization": "Bearer <redacted>"])`.
    public static func headers(replacing values: [String: String]) -> Redaction {
        headersRewrite { name in values.first { $0.key.caseInsensitiveEquals(name) }.map { .some($0.value) } }.writing(values.values)
    }

    /// A filter's decision for a name: nil keeps the value, `.some(nil)` removes it, `.some(text)`
    /// replaces it with `text`.
    typealias Rule = @Sendable (String) -> String??

    /// The rule of a filter taking out `names`, compared ignoring case.
    static func removing(_ names: [String]) -> Rule {
        let lowered = Set(names.map { $0.lowercased() })
        return { lowered.contains($0.lowercased()) ? .some(nil) : nil }
    }

    /// The rule of a filter writing `values` over the values of their names, compared ignoring case.
    static func replacing(_ values: [String: String]) -> Rule {
        let lowered = Dictionary(values.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        return { lowered[$0.lowercased()].map { .some($0) } }
    }

    private static func headersRewrite(_ rule: @escaping Rule) -> Redaction {
        Redaction(steps: [.headers { headers, secrets in rewriteHeaders(headers, secrets: &secrets, rule) }])
    }

    /// `headers` as `rule` decides by name, adding the values taken out to `secrets`.
    static func rewriteHeaders(_ headers: Headers, secrets: inout [String], _ rule: (String) -> String??) -> Headers {
        guard headers.contains(where: { rule($0.name) != nil }) else { return headers }
        var kept: [Headers.Field] = []
        for var field in headers.fields {
            guard let decision = rule(field.name), decision != field.value else {
                kept.append(field)
                continue
            }
            secrets.append(contentsOf: SensitiveNames.secretParts(ofHeader: field.name, value: field.value))
            if let replacement = decision {
                field.value = replacement
                kept.append(field)
            }
        }
        return Headers(kept)
    }

    // MARK: Hooks

    /// A last look at every request before it is matched and recorded, after all filters.
    public static func beforeRecordRequest(_ hook: @escaping @Sendable (Track.Request) -> Track.Request) -> Redaction {
        Redaction(steps: [.beforeRecordRequest(hook)])
    }

    /// A last look at every response before it is recorded, after all filters; it receives
    /// the request as recorded.
    public static func beforeRecordResponse(_ hook: @escaping @Sendable (Track.Response, Track.Request) -> Track.Response) -> Redaction {
        Redaction(steps: [.beforeRecordResponse(hook)])
    }

    // MARK: Applying

    /// The request as it is matched and recorded, leaving `allowed` places to the default's names.
    func redact(_ request: Track.Request, allowing allowed: [SecretPlace] = []) -> Track.Request {
        var secrets: [String] = []
        return redact(request, allowing: allowed, secrets: &secrets)
    }

    /// The track as it is written: the request as `redact(_:)` gives it, and the response
    /// filtered, with every removed value scrubbed from it, leaving `allowed` places to the default's names.
    func redact(_ track: Track, allowing allowed: [SecretPlace] = []) -> Track {
        var secrets: [String] = []
        var copy = track
        copy.request = redact(track.request, allowing: allowed, secrets: &secrets)
        guard case .response(var response) = track.outcome else { return copy }
        let originalBody = response.body
        // A streamed body is redacted event by event; the filters see the rest of the response.
        let streamed = response.stream != nil
        var message = Message(headers: response.headers, url: response.url, body: streamed ? Data() : response.body)
        filter(&message, side: .response, allowed: allowed, secrets: &secrets)
        (response.headers, response.url) = (message.headers, message.url)
        if streamed { redactStreamedBody(&response, allowed: allowed, secrets: &secrets) } else { response.body = message.body }
        // Payloads first: a secret a message holds is scrubbed from the rest (Redaction+WebSocket.swift).
        redactConversation(&response.conversation, allowed: allowed, secrets: &secrets)
        let scrubber = Scrubber(secrets, sparing: written)
        response.headers = scrubber.scrub(response.headers)
        response.url = response.url.map(scrubber.scrub)
        for (index, message) in (response.conversation?.messages ?? []).enumerated() {
            response.conversation?.messages[index].payload = scrubber.scrub(message.payload)
        }
        if !streamed { response.body = scrubber.scrub(response.body) }
        if response.body != originalBody { Self.fixContentLength(&response.headers, to: response.body) }
        for step in steps {
            if case .beforeRecordResponse(let hook) = step { response = hook(response, copy.request) }
        }
        // A hook may change a streamed body; its chunks must still add up to it.
        response.stream = response.stream?.fitted(to: response.body.count)
        copy.outcome = .response(response)
        return copy
    }

    private func redact(_ request: Track.Request, allowing allowed: [SecretPlace], secrets: inout [String]) -> Track.Request {
        var request = request
        let originalBody = request.body
        var message = Message(headers: request.headers, url: request.url, body: request.body)
        filter(&message, side: .request, allowed: allowed, secrets: &secrets)
        (request.headers, request.url, request.body) = (message.headers, message.url ?? request.url, message.body)
        let scrubber = Scrubber(secrets, sparing: written)
        request.headers = scrubber.scrub(request.headers)
        request.url = scrubber.scrub(request.url)
        request.body = scrubber.scrub(request.body)
        if request.body != originalBody { Self.fixContentLength(&request.headers, to: request.body) }
        for step in steps {
            if case .beforeRecordRequest(let hook) = step { request = hook(request) }
        }
        return request
    }

    /// Runs the filters, in order, over one side of a track (`names`: whether the default's names
    /// apply; an allowed place may keep them out). A JSON part of a body (`ownHeaders` false) has
    /// no headers of its own for header filters.
    private func filter(
        _ message: inout Message, side: SecretPlace.Side, names: Bool = true, ownHeaders: Bool = true, allowed: [SecretPlace], secrets: inout [String]
    ) {
        for step in steps {
            switch step {
            case .secretNames where names: Self.redactSecretNames(&message, side: side, allowed: allowed, secrets: &secrets)
            case .headers(let filter) where ownHeaders: message.headers = filter(message.headers, &secrets)
            case .url(let filter): message.url = message.url.map { filter($0, &secrets) }
            case .body(let filter): message.body = filter(message.body, message.headers, &secrets)
            case .secretNames, .headers, .beforeRecordRequest, .beforeRecordResponse: break
            }
        }
    }

    /// A stored Content-Length must describe the stored body, or a replaying client truncates it.
    private static func fixContentLength(_ headers: inout Headers, to body: Data) {
        // A compressed response's length describes the wire bytes, not the decoded body a
        // session hands over; it was already unrelated to the stored body, so leave it.
        guard headers.contains("Content-Length"), headers["Content-Encoding"] == nil else { return }
        headers["Content-Length"] = String(body.count)
    }
}

/// Replaces known secret values wherever they appear in text.
struct Scrubber {
    let secrets: [String]

    /// `written`: what the redaction's own filters write, which is never a secret, whether the
    /// value was taken as written or percent- or form-encoded.
    init(_ secrets: [String], sparing written: [String]) {
        // Live requests are redacted on replay too: no decoding unless a filter writes something.
        func isWritten(_ value: String) -> Bool {
            !written.isEmpty && (written.contains(value) || written.contains(Redaction.decode(value)))
        }
        // Longest first, so a whole header value goes before the token inside it.
        // A placeholder an earlier filter left (`REDACTED`, `<redacted>`) is not a secret to chase.
        self.secrets = Array(Set(secrets.filter { $0.count >= 4 && !SensitiveNames.isRedacted($0) && !isWritten($0) })).sorted { $0.count > $1.count }
    }

    func scrub(_ text: String) -> String {
        guard !secrets.isEmpty else { return text }
        var bytes = Array(text.utf8), changed = false
        for secret in secrets {
            if let replaced = Self.replacing(Array(secret.utf8), in: bytes) { bytes = replaced; changed = true }
        }
        return changed ? String(decoding: bytes, as: UTF8.self) : text
    }

    private static let placeholderBytes = Array(Redaction.placeholder.utf8)
    private static let legacyBytes = Array(Redaction.legacyPlaceholder.utf8)

    /// `haystack` with every occurrence of `needle` (left to right) replaced by the placeholder,
    /// nil when there is none. Bytes, not `contains`/`replacingOccurrences`: NSString compares
    /// characters, so a secret followed by a combining accent was not found and stayed in the
    /// track (found by the Redaction fuzz target), and it bridges the text on every call. A
    /// secret is whole scalars, so replacing its bytes keeps the text valid UTF-8.
    private static func replacing(_ needle: [UInt8], in haystack: [UInt8]) -> [UInt8]? {
        // Most texts hold none of the secrets: find that out at memchr's speed.
        guard !needle.isEmpty, haystack.withUnsafeBytes({ text in needle.withUnsafeBytes { UTF8Search.firstOffset(of: $0, in: text) != nil } }) else { return nil }
        var result: [UInt8] = []
        var start = 0, copied = 0
        while start <= haystack.count - needle.count {
            // A placeholder already there is never part of a secret (a secret `ted>` would eat
            // into `<redacted>` again on every pass): step over it.
            if let mask = [placeholderBytes, legacyBytes].first(where: { haystack[start] == $0[0] && haystack[start...].starts(with: $0) }) {
                start += mask.count
                continue
            }
            if haystack[start] == needle[0], haystack[start..<(start + needle.count)].elementsEqual(needle) {
                result.append(contentsOf: haystack[copied..<start])
                result.append(contentsOf: placeholderBytes)
                start += needle.count
                copied = start
            } else {
                start += 1
            }
        }
        guard copied > 0 else { return nil }
        result.append(contentsOf: haystack[copied...])
        return result
    }

    func scrub(_ headers: Headers) -> Headers {
        guard !secrets.isEmpty else { return headers }
        return Headers(headers.fields.map { Headers.Field(name: $0.name, value: scrub($0.value)) })
    }

    func scrub(_ data: Data) -> Data {
        guard !secrets.isEmpty, UTF8Validation.isValid(data) else { return data }
        let text = String(decoding: data, as: UTF8.self)
        let scrubbed = scrub(text)
        return scrubbed == text ? data : Data(scrubbed.utf8)
    }

    func scrub(_ url: URL) -> URL {
        guard !secrets.isEmpty else { return url }
        let text = url.absoluteString
        // A secret in a URL may be percent-encoded there.
        var scrubbed = scrub(text)
        for secret in secrets {
            if let encoded = secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics), encoded != secret, scrubbed.contains(encoded) {
                scrubbed = scrubbed.replacingOccurrences(of: encoded, with: Redaction.placeholder)
            }
        }
        guard scrubbed != text, let result = URL(string: scrubbed) else { return url }
        return result
    }
}

extension Redaction {
    /// `payload` through the body steps as a JSON body of its own on `side`: an event of a
    /// streamed response, a WebSocket message. `names`: whether the default's names apply.
    func redactJSONPart(_ payload: Data, side: SecretPlace.Side, names: Bool = true, allowed: [SecretPlace], secrets: inout [String]) -> Data {
        var message = Message(headers: ["Content-Type": "application/json"], url: nil, body: payload)
        filter(&message, side: side, names: names, ownHeaders: false, allowed: allowed, secrets: &secrets)
        return message.body
    }
}
