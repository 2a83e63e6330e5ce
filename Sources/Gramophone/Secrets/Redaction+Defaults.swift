import Foundation

/// The default redaction: every place whose name says it holds a credential (see
/// `SensitiveNames`), in headers, URLs (and URLs inside headers and bodies), forms and JSON.
extension Redaction {
    /// One side of a track, or a JSON part of its body, as the filters see it.
    struct Message {
        var headers: Headers
        var url: URL?
        var body: Data
    }

    /// Redacts `message` by the well-known names, leaving `allowed` places alone, and adds the
    /// values taken out to `secrets` so they are scrubbed from the rest of the track.
    static func redactSecretNames(_ message: inout Message, side: SecretPlace.Side, allowed: [SecretPlace], secrets: inout [String]) {
        // Headers: credential headers go; URLs inside the others (Location, Link, Referer) give up their signatures.
        message.headers = rewriteHeaders(message.headers, secrets: &secrets) { name in
            SensitiveNames.isSensitiveHeader(name) && !SecretPlace.any(allowed, cover: .header(name), on: side) ? .some(nil) : .none
        }
        for field in message.headers.fields {
            collectEmbedded(in: field.value, side: side, allowed: allowed, secrets: &secrets)
        }
        if let url = message.url { message.url = redactURL(url, side: side, allowed: allowed, secrets: &secrets) }
        message.body = redactBody(message.body, headers: message.headers, side: side, allowed: allowed, secrets: &secrets)
    }

    /// Secret-named query parameters keep their name with the value `REDACTED`; a password
    /// before the host becomes `REDACTED` too.
    private static func redactURL(_ url: URL, side: SecretPlace.Side, allowed: [SecretPlace], secrets: inout [String]) -> URL {
        // Most URLs hold no credential: look at the raw text before taking the URL apart.
        let text = url.absoluteString
        let query = text.utf8.firstIndex(of: UInt8(ascii: "?")).map { text[text.index(after: $0)...].prefix { $0 != "#" } } ?? ""
        guard text.containsUTF8(UInt8(ascii: "@")) || mayHoldSecrets(query) else { return url }
        var url = url
        if let password = url.password, !SensitiveNames.isRedacted(password), !SecretPlace.any(allowed, cover: .url, on: side),
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        {
            secrets.append(password)
            components.percentEncodedPassword = placeholder
            url = components.url ?? url
        }
        return rewriteQuery(of: url, secrets: &secrets) { item, secrets in
            let name = item.decodedName
            if SecretPlace.any(allowed, cover: .query(name), on: side) { return nil }
            // The old JSON mask sent back (taken from an older vinyl's answer) is the one mask.
            if item.decodedValue == legacyPlaceholder, SensitiveNames.isSecretQueryParameter(name, value: placeholder) { return placeholder }
            guard let value = item.decodedValue, SensitiveNames.isSecretQueryParameter(name, value: value), !SensitiveNames.isRedacted(value) else {
                // A URL passed as a parameter (a redirect target) may carry signatures of its own;
                // they are replaced inside the decoded value, where their encoding is the inner URL's.
                guard let value = item.decodedValue else { return nil }
                let found = collectEmbedded(in: value, side: side, allowed: allowed, secrets: &secrets)
                let rewritten = Scrubber(found, sparing: []).scrub(value)
                return rewritten == value ? .none : .some(rewritten)
            }
            secrets.append(contentsOf: item.secretValues)
            return placeholder
        }
    }

    /// Whether a raw query has a secret-named parameter, or a value that may hold a URL with one.
    private static func mayHoldSecrets(_ query: Substring) -> Bool {
        query.split(separator: "&").contains { pair in
            let item = RawQueryItem(pair)
            guard let value = item.value else { return false }
            if value.containsUTF8(UInt8(ascii: "=")) || value.containsUTF8("%3D") || value.containsUTF8("%3d") { return true }
            return SensitiveNames.isSecretQueryParameter(item.decodedName, value: item.decodedValue)
        }
    }

    private static func redactBody(_ body: Data, headers: Headers, side: SecretPlace.Side, allowed: [SecretPlace], secrets: inout [String]) -> Data {
        let clues = BodyClues(body)
        guard !body.isEmpty, clues.isText else { return body }
        // A body that names no secret needs no parsing; URLs written in it may still carry signatures.
        guard clues.namesSecret else {
            if clues.mayHoldQuery { collectEmbedded(in: String(decoding: body, as: UTF8.self), side: side, allowed: allowed, secrets: &secrets) }
            return body
        }
        // Strings and numbers under secret keys become the placeholder; objects and arrays under
        // them are searched further (`"credentials": {"username": …, "password": …}` keeps its shape).
        func leaf(_ text: String, _ secrets: inout [String]) { collectEmbedded(in: text, side: side, allowed: allowed, secrets: &secrets) }
        let json = rewriteJSON(body, paths: true, secrets: &secrets, leaf: leaf) { key, path, value in
            switch value {
            case .string(legacyPlaceholder) where side == .request && SensitiveNames.isSecretKey(key):
                // The old mask sent back is the one mask, not a secret to chase.
                return .string(placeholder)
            case .string(let text) where SensitiveNames.isSecret(key: key, value: text, side: side) && !SensitiveNames.isRedacted(text),
                .number(let text) where SensitiveNames.isSecret(key: key, value: text, side: side):
                return SecretPlace.any(allowed, cover: .jsonKey(path), on: side) ? value : .string(placeholder)
            default:
                return nil
            }
        }
        if let json { return json }
        if headers.mediaType == "application/x-www-form-urlencoded" {
            return rewriteForm(body, headers: headers, secrets: &secrets) { name, value in
                guard SensitiveNames.isSecretKey(name), let value else { return nil }
                // The old mask sent back is the one mask, allowed or not.
                let secret = !SensitiveNames.isRedacted(value) && !SecretPlace.any(allowed, cover: .formField(name), on: side)
                return value == legacyPlaceholder || secret ? .some(placeholder) : nil
            }
        }
        collectEmbedded(in: String(decoding: body, as: UTF8.self), side: side, allowed: allowed, secrets: &secrets)
        return body
    }

    /// Signatures and keys in URLs written inside text; the scrubber then replaces them wherever they occur.
    @discardableResult
    private static func collectEmbedded(in text: String, side: SecretPlace.Side, allowed: [SecretPlace], secrets: inout [String]) -> [String] {
        var found: [String] = []
        for (name, value) in SensitiveNames.embeddedQuerySecrets(in: text) where !SecretPlace.any(allowed, cover: .query(name), on: side) {
            found.append(value)
            if let decoded = value.removingPercentEncoding, decoded != value { found.append(decoded) }
        }
        secrets += found
        return found
    }
}
