extension String {
    /// `uppercased()`, without its copy when there is nothing to change: a method is nearly
    /// always one of the standard ones already in upper case, and every replay reads it twice
    /// (comparing small strings is a comparison of two words). Non-ASCII text takes the full
    /// Unicode path.
    var uppercasedIfNeeded: String {
        switch self {
        case "GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS": return self
        default:
            for byte in utf8 where (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || byte >= 0x80 {
                return uppercased()
            }
            return self
        }
    }
}
