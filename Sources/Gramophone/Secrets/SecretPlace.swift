/// Where in a track a secret was found, or where a value that only looks like one may stay:
/// `Recording(...).allowing([.query("key"), .jsonKey("build_token")])`.
///
/// An allowed place is left alone by the default redaction and not reported by the check
/// the recorder runs before it writes. Without a side it allows both request and response.
///
/// A WebSocket conversation's payloads are looked at as bodies: the messages the client sent
/// are on the request side, the ones it received on the response side, so `.jsonKey("token")`
/// also allows that key in a message's JSON. `.webSocketMessages(in:)` allows whole payloads.
public struct SecretPlace: Sendable, Hashable {
    /// The request or the response of a track.
    public enum Side: Sendable, Hashable {
        /// The request: its URL, headers and body, and the WebSocket messages the client sent.
        case request
        /// The response: its headers and body, and the WebSocket messages the client received.
        case response
    }

    enum Part: Sendable, Hashable {
        /// A header, by name (its whole value, or a token inside it).
        case header(String)
        /// A query parameter, of the URL or of a URL inside a header or body.
        case query(String)
        /// A JSON member: a key at any depth, or a dotted path from the top (`user.token`).
        case jsonKey(String)
        /// A field of a form body.
        case formField(String)
        /// Somewhere in the URL that is not a named parameter (its path, its user and password).
        case url
        /// Somewhere in a body that is neither JSON nor a form.
        case body
        /// A WebSocket message's payload: allowed, anywhere in it; found, outside a JSON key.
        case webSocketMessages
        /// Every place: `Recording.allowingAllSecrets()`.
        case everywhere
    }

    let part: Part
    /// The side it is on; nil (for an allowed place) means either.
    let side: Side?
    /// For a place found in a WebSocket message's payload, the message's position in the
    /// conversation (`webSocket.messages[N]` in the file); nil elsewhere, and for allowed places.
    let message: Int?

    init(_ part: Part, _ side: Side?, message: Int? = nil) {
        self.part = part
        self.side = side
        self.message = message
    }

    /// A header, by name in any case.
    public static func header(_ name: String, in side: Side? = nil) -> SecretPlace { SecretPlace(.header(name), side) }
    /// A query parameter, by name in any case, in the URL or in a URL inside a header or body.
    public static func query(_ name: String, in side: Side? = nil) -> SecretPlace { SecretPlace(.query(name), side) }
    /// A JSON member: a key at any depth (`"token"`) or a dotted path from the top (`"user.token"`).
    public static func jsonKey(_ name: String, in side: Side? = nil) -> SecretPlace { SecretPlace(.jsonKey(name), side) }
    /// A field of an `application/x-www-form-urlencoded` body, by name in any case.
    public static func formField(_ name: String, in side: Side? = nil) -> SecretPlace { SecretPlace(.formField(name), side) }
    /// The URL outside its named parameters: the path, or a password before the host.
    public static func url(in side: Side? = nil) -> SecretPlace { SecretPlace(.url, side) }
    /// A body that is neither JSON nor a form, anywhere in it.
    public static func body(in side: Side? = nil) -> SecretPlace { SecretPlace(.body, side) }
    /// The payloads of a WebSocket conversation's messages, anywhere in them (JSON keys, text,
    /// URLs): those the client sent (`.request`), those it received (`.response`), or all.
    public static func webSocketMessages(in side: Side? = nil) -> SecretPlace { SecretPlace(.webSocketMessages, side) }

    /// Every place of both sides (`Recording.allowingAllSecrets()`).
    static let everywhere = SecretPlace(.everywhere, nil)

    /// The fewest places, as the `allowing` line of an error writes them, that cover every one
    /// of `found`: names on either side (an echo repeats the request's), in order of finding.
    static func covering(_ found: [SecretPlace]) -> [SecretPlace] {
        var places: [SecretPlace] = []
        for location in found where !places.contains(where: { $0.covers(location) }) {
            switch location.part {
            case .url, .body, .everywhere: places.append(location)
            case .webSocketMessages: places.append(SecretPlace(.webSocketMessages, location.side))
            case .header, .query, .jsonKey, .formField: places.append(SecretPlace(location.part, nil))
            }
        }
        return places
    }

    /// `request.url query "auth"`, `response.headers "Set-Cookie"`, `request.body JSON "user.password"`,
    /// and in a conversation, where the file keeps it: `response.webSocket.messages[3] (received) JSON "token"`.
    var description: String {
        let prefix = side.map { $0 == .request ? "request" : "response" } ?? "request or response"
        if let message {
            let place = "response.webSocket.messages[\(message)] (\(side == .request ? "sent" : "received"))"
            switch part {
            case .jsonKey(let path): return "\(place) JSON \"\(path)\""
            case .query(let name): return "\(place) query \"\(name)\""
            default: return place
            }
        }
        switch part {
        case .header(let name): return "\(prefix).headers \"\(name)\""
        case .query(let name): return "\(prefix).url query \"\(name)\""
        case .jsonKey(let path): return "\(prefix).body JSON \"\(path)\""
        case .formField(let name): return "\(prefix).body form field \"\(name)\""
        case .url: return "\(prefix).url"
        case .body: return "\(prefix).body"
        case .webSocketMessages: return side.map { $0 == .request ? "messages sent on a WebSocket" : "messages received on a WebSocket" } ?? "WebSocket messages"
        case .everywhere: return "anywhere"
        }
    }

    /// The place as Swift source, for the fix an error suggests: `.query("auth")`.
    var code: String {
        switch part {
        case .header(let name): return ".header(\"\(name)\")"
        case .query(let name): return ".query(\"\(name)\")"
        case .jsonKey(let path): return ".jsonKey(\"\(path)\")"
        case .formField(let name): return ".formField(\"\(name)\")"
        case .url: return ".url(in: .\(side ?? .request))"
        case .body: return ".body(in: .\(side ?? .request))"
        case .webSocketMessages: return side.map { ".webSocketMessages(in: .\($0))" } ?? ".webSocketMessages()"
        case .everywhere: return "every place (allowingAllSecrets())"
        }
    }

    /// Whether this (allowed) place covers `found`, a place where something was found.
    func covers(_ found: SecretPlace) -> Bool {
        if part == .everywhere { return true }
        if let side, side != found.side { return false }
        switch (part, found.part) {
        case (.header(let allowed), .header(let name)), (.query(let allowed), .query(let name)), (.formField(let allowed), .formField(let name)):
            return allowed.caseInsensitiveEquals(name)
        case (.jsonKey(let allowed), .jsonKey(let path)):
            // A path ends with the key itself: `.jsonKey("token")` covers `data.items[0].token`.
            return allowed.caseInsensitiveEquals(path) || allowed.caseInsensitiveEquals(Self.lastKey(of: path))
        case (.url, .url), (.body, .body):
            return true
        case (.webSocketMessages, _):
            // Every finding in a payload: its JSON keys, its text, the URLs written in it.
            return found.part == .webSocketMessages || found.message != nil
        default:
            return false
        }
    }

    /// Whether any of `places` covers the named part on `side`.
    static func any(_ places: [SecretPlace], cover part: Part, on side: Side) -> Bool {
        !places.isEmpty && places.contains { $0.covers(SecretPlace(part, side)) }
    }

    /// The filter that would take out what was found here, for error messages.
    var filter: String {
        let side = self.side ?? .request
        // In a payload, only a JSON key has a filter of its own (`.jsonKeys` rewrites payloads as bodies).
        if message != nil, case .jsonKey = part {} else if message != nil { return Self(.webSocketMessages, side).filter }
        switch part {
        case .header(let name): return ".headers(removing: [\"\(name)\"])"
        case .query(let name): return ".query(replacing: [\"\(name)\": \"REDACTED\"])"
        case .jsonKey(let path): return ".jsonKeys(replacing: [\"\(Self.lastKey(of: path))\": Redaction.placeholder])"
        case .formField(let name): return ".formFields(replacing: [\"\(name)\": \"REDACTED\"])"
        case .url: return ".path { $0.replacingOccurrences(of: secret, with: \"REDACTED\") }, or .beforeRecordRequest { … } for a password in the URL"
        case .body: return side == .request ? ".beforeRecordRequest { request in … }" : ".beforeRecordResponse { response, request in … }"
        case .webSocketMessages: return ".beforeRecordResponse { response, request in … } changing response.conversation"
        case .everywhere: return ".beforeRecordRequest { … } + .beforeRecordResponse { … }"
        }
    }

    /// `token` of `data.items[0].token`, `items` of `data.items[0]`.
    private static func lastKey(of path: String) -> String {
        path.split(separator: ".").last.map { String($0.prefix { $0 != "[" }) } ?? path
    }
}
