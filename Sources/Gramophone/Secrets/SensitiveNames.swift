import Foundation

/// Names and shapes that carry credentials: the one list of rules behind both the default
/// redaction and `gramophone scan`, so what the recorder removes is what the scanner looks for.
///
/// Chosen from the APIs people record: OAuth 2 (`access_token`, `refresh_token`, `id_token`,
/// `client_secret`, `code_verifier`, `client_assertion`), Google (`key=AIza…`, signed URLs'
/// `X-Goog-Signature`/`X-Goog-Credential`, `GoogleAccessId`), Stripe and OpenAI/Anthropic
/// (keys in `Authorization`/`x-api-key`), AWS (presigned URLs' `X-Amz-Signature`,
/// `X-Amz-Credential`, `X-Amz-Security-Token`, `AWSAccessKeyId`/`Signature`, STS
/// `SecretAccessKey`/`SessionToken`), GitHub (`token`, `access_token`), Azure SAS (`sig`),
/// Firebase (`auth`), and the generic `password`, `secret`, `session`.
enum SensitiveNames {
    /// Headers the default redaction removes.
    static func isSensitiveHeader(_ name: String) -> Bool {
        // Not `replacingOccurrences`: it bridges to NSString, and this runs for every header of every recorded exchange.
        let folded = String(name.lowercased().map { $0 == "_" ? "-" : $0 })
        if ["authorization", "proxy-authorization", "cookie", "set-cookie"].contains(folded) { return true }
        // X-Api-Key style: any header naming a key, token, secret or password.
        return folded.containsUTF8("api-key") || folded.containsUTF8("apikey") || folded.hasSuffix("-token") || folded == "token"
            || folded.containsUTF8("secret") || folded.containsUTF8("password") || folded.hasSuffix("-auth") || folded.containsUTF8("-auth-")
    }

    /// Names (compacted: lower case, no `-`, `_`, `.` or spaces) that are credentials wherever they appear.
    private static let secretNames: Set<String> = [
        "password", "passwd", "pwd", "passphrase", "secret", "token", "apikey", "accesstoken", "refreshtoken", "idtoken",
        "clientsecret", "clientassertion", "codeverifier", "privatekey", "authtoken", "sessiontoken", "authorization",
        "credential", "credentials", "session", "sessionid", "sessionkey", "secretaccesskey",
        // Credential headers written out as JSON: an echo or debug endpoint, a HAR inside a body.
        "cookie", "setcookie", "proxyauthorization", "xapikey", "xauthtoken",
    ]
    /// Endings that make a name a credential: `webhook_secret`, `new_password`, `x_api_key`, `csrf_token`.
    private static let secretSuffixes = ["password", "passwd", "secret", "secretkey", "secretaccesskey", "apikey", "privatekey", "token", "sessionid"]
    /// `…token` names that are pagination or sync cursors, not credentials: redacting them would
    /// make page 2 and page 3 the same request.
    private static let cursorTokens: Set<String> = [
        "pagetoken", "nextpagetoken", "prevpagetoken", "previouspagetoken", "nexttoken", "continuationtoken", "synctoken",
        "nextsynctoken", "resumetoken", "paginationtoken", "starttoken", "cursortoken",
    ]
    /// Names that are credentials in a URL query only: signatures of signed URLs and API keys
    /// passed as parameters. (`key` is listed apart: it is a credential only when its value looks like one.)
    private static let queryOnlyNames: Set<String> = [
        "sig", "signature", "auth", "xamzsignature", "xamzcredential", "xgoogsignature", "xgoogcredential", "googleaccessid", "awsaccesskeyid",
    ]

    /// JSON keys and form fields that hold secrets, in any case and with any separator.
    static func isSecretKey(_ key: String) -> Bool {
        let compact = compacted(key)
        if secretNames.contains(compact) { return true }
        if cursorTokens.contains(compact) { return false }
        return secretSuffixes.contains { compact.hasSuffix($0) }
    }

    /// Whether a JSON member named `key` holding `value` on `side` is a secret. `token` alone is
    /// also a language model's unit of text: in responses and their streamed events
    /// (`data: {"token":"Hel"}`, OpenAI's `logprobs[].token`) it is a secret only when its value
    /// has a credential's shape. In requests, and for every other name, the name decides.
    static func isSecret(key: String, value: String, side: SecretPlace.Side) -> Bool {
        guard isSecretKey(key) else { return false }
        guard side == .response, compacted(key) == "token" else { return true }
        return looksLikeCredential(value)
    }

    /// A credential's shape: a known token format (JWT, `sk-`, `ghp_`, `AKIA`…), a key-shaped run
    /// (`looksLikeKey`), or an opaque run of 24 or more letters and digits (hex, base64) with no
    /// space. Words, word pieces and numbers are none of these.
    static func looksLikeCredential(_ value: String) -> Bool {
        if looksLikeKey(value) || SecretPatterns.firstMatch(in: value) != nil { return true }
        guard value.utf8.count >= 24, let held = characters(of: value, besides: "-_.~+/=") else { return false }
        return (held.upper || held.lower) && held.digit
    }

    /// Whether `text` could contain a secret name: one of the stems every name in these lists
    /// contains, ignoring case and separators (`BodyClues`).
    static func mayNameASecret(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { BodyClues(UnsafeRawBufferPointer($0)).namesSecret }
    }

    /// Every secret name and suffix above contains one of these (`api_key` has `key`, `passwd`
    /// `pass`, `client_assertion` `assertion`).
    static let stems = ["pass", "pwd", "secret", "token", "key", "auth", "credential", "session", "cookie", "sig", "assertion", "verifier"]

    /// Query parameters that hold secrets: the secret keys, signatures of signed URLs, and
    /// `key` when its value has the shape of an API key (Google's `key=AIza…`), not a lookup
    /// key such as `key=user-42`.
    static func isSecretQueryParameter(_ name: String, value: String?) -> Bool {
        let compact = compacted(name)
        if isSecretKey(name) || queryOnlyNames.contains(compact) { return true }
        return compact == "key" && value.map(looksLikeKey) == true
    }

    /// A run of at least 20 letters and digits (and `-`/`_`) mixing upper case, lower case and
    /// digits: an API key. Words, UUIDs and hex hashes never mix all three.
    static func looksLikeKey(_ value: String) -> Bool {
        guard value.utf8.count >= 20, let held = characters(of: value, besides: "-_") else { return false }
        return held.upper && held.lower && held.digit
    }

    /// Whether `value` holds upper case letters, lower case letters and digits; nil when it
    /// holds any other byte than those (ASCII) and `punctuation`.
    private static func characters(of value: String, besides punctuation: String) -> (upper: Bool, lower: Bool, digit: Bool)? {
        var held = (upper: false, lower: false, digit: false)
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): held.upper = true
            case UInt8(ascii: "a")...UInt8(ascii: "z"): held.lower = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"): held.digit = true
            default: if !punctuation.utf8.contains(byte) { return nil }
            }
        }
        return held
    }

    /// Lower case without separators, so `X-Amz-Signature`, `x_amz_signature` and `XAmzSignature` agree.
    static func compacted(_ name: String) -> String {
        String(String.UnicodeScalarView(name.lowercased().unicodeScalars.filter { !"-_. ".unicodeScalars.contains($0) }))
    }

    /// Whether a value is already a redaction placeholder rather than a secret.
    static func isRedacted(_ value: String) -> Bool {
        let trimmed = value.trimmingWhitespace()
        if trimmed.isEmpty { return true }
        let lowered = trimmed.lowercased()
        if lowered.containsUTF8("redacted") || lowered.containsUTF8("filtered") || lowered.containsUTF8("<hidden>") { return true }
        return trimmed.allSatisfy { "*xX•.-_".contains($0) }
    }

    /// The parts of a header value worth scrubbing elsewhere: the whole value, the credential
    /// after an auth scheme, and cookie values.
    static func secretParts(ofHeader name: String, value: String) -> [String] {
        var parts = [value]
        let folded = name.lowercased()
        if folded == "authorization" || folded == "proxy-authorization", let space = value.firstIndex(of: " ") {
            parts.append(String(value[value.index(after: space)...]).trimmingWhitespace())
        } else if folded == "cookie" || folded == "set-cookie" {
            let pairs = value.split(separator: ";")
            // Set-Cookie's attributes (Path, Expires…) after the first pair are not secret.
            for pair in folded == "cookie" ? pairs : Array(pairs.prefix(1)) {
                if let equals = pair.firstIndex(of: "=") { parts.append(String(pair[pair.index(after: equals)...]).trimmingWhitespace()) }
            }
        }
        return parts
    }

    /// `name=value` pairs of URL queries embedded in text (a `Location` header, a link in a
    /// body, a URL passed as a query parameter) whose name is a secret query parameter.
    /// Looks in the text as it is and percent-decoded once, so a URL inside a URL is seen too.
    static func embeddedQuerySecrets(in text: String) -> [(name: String, value: String)] {
        // Most header values and strings hold no query: skip them without copying.
        let encoded = text.containsUTF8(UInt8(ascii: "%"))
        guard encoded || text.containsUTF8(UInt8(ascii: "=")) else { return [] }
        var found = secretPairs(in: text)
        if encoded, let decoded = text.removingPercentEncoding, decoded != text { found += secretPairs(in: decoded) }
        return found
    }

    /// Each `name=value` that follows a `?` or `&`: the name of letters, digits, `_`, `.`, `-`
    /// (at most 64), the value up to `&`, `#`, white space, a quote, `<`, `>` or `\`.
    /// By hand, not NSRegularExpression: this runs on every string of every recorded track.
    private static func secretPairs(in text: String) -> [(name: String, value: String)] {
        let bytes = Array(text.utf8)
        var found: [(name: String, value: String)] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            guard byte == UInt8(ascii: "?") || byte == UInt8(ascii: "&") else { continue }
            let nameStart = index
            while index < bytes.count, index - nameStart < 64, isNameByte(bytes[index]) { index += 1 }
            guard index > nameStart, index < bytes.count, bytes[index] == UInt8(ascii: "=") else { continue }
            let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
            index += 1
            let valueStart = index
            while index < bytes.count, !endsValue(bytes[index]) { index += 1 }
            guard index > valueStart else { continue }
            let value = String(decoding: bytes[valueStart..<index], as: UTF8.self)
            if isSecretQueryParameter(name, value: value), !isRedacted(value) { found.append((name, value)) }
        }
        return found
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte &- UInt8(ascii: "0") < 10 || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
    }

    private static func endsValue(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "#"), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\\"), UInt8(ascii: " "), 0x09...0x0D: return true
        default: return false
        }
    }
}
