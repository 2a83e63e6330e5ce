extension String {
    /// Whether `part` occurs in the string, compared as UTF-8 bytes.
    ///
    /// With Foundation imported, `contains(_:)` on two strings resolves to NSString's search,
    /// which on Linux costs tens of microseconds a call; redaction asks it of every header of
    /// every recorded exchange. The standard library's own substring search needs macOS 13.
    func containsUTF8(_ part: String) -> Bool {
        var text = self
        var part = part
        return text.withUTF8 { haystack in
            part.withUTF8 { needle in
                guard !needle.isEmpty else { return true }
                guard needle.count <= haystack.count else { return false }
                var start = 0
                while start <= haystack.count - needle.count {
                    var offset = 0
                    while offset < needle.count, haystack[start + offset] == needle[offset] { offset += 1 }
                    if offset == needle.count { return true }
                    start += 1
                }
                return false
            }
        }
    }
}
