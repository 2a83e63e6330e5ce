/// Names that usually carry credentials: shared by the default redaction and `gramophone scan`.
enum SensitiveNames {
    /// Headers the default redaction removes.
    static func isSensitiveHeader(_ name: String) -> Bool {
        let folded = fold(name, "_", into: "-")
        if ["authorization", "proxy-authorization", "cookie", "set-cookie"].contains(folded) { return true }
        // X-Api-Key style: any header naming a key, token, secret or password.
        return folded.containsUTF8("api-key") || folded.containsUTF8("apikey") || folded.hasSuffix("-token") || folded == "token"
            || folded.containsUTF8("secret") || folded.containsUTF8("password") || folded.hasSuffix("-auth") || folded.containsUTF8("-auth-")
    }

    /// JSON keys and form fields that hold secrets (normalised: lower case, `-` as `_`).
    static func isSecretKey(_ key: String) -> Bool {
        let folded = fold(key, "-", into: "_")
        if ["password", "passwd", "pwd", "secret", "token", "api_key", "apikey", "access_token", "refresh_token", "id_token",
            "client_secret", "private_key", "auth_token", "session_token", "authorization", "credentials", "passphrase"].contains(folded) { return true }
        return folded.hasSuffix("_token") || folded.hasSuffix("_secret") || folded.hasSuffix("password") || folded.containsUTF8("api_key") || folded.hasSuffix("apikey")
    }

    /// Query parameters that hold secrets: the secret keys plus names APIs use for keys and signatures.
    static func isSecretQueryParameter(_ name: String) -> Bool {
        let folded = fold(name, "-", into: "_")
        return isSecretKey(folded) || ["key", "sig", "signature", "x_amz_signature", "x_amz_credential", "x_amz_security_token", "code"].contains(folded)
    }

    /// Lower case with one separator made the other. Not `replacingOccurrences`: it bridges to
    /// NSString, and this runs for every header of every recorded exchange.
    private static func fold(_ name: String, _ separator: Character, into replacement: Character) -> String {
        let lowered = name.lowercased()
        return lowered.contains(separator) ? String(lowered.map { $0 == separator ? replacement : $0 }) : lowered
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
}
