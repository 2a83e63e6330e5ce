extension String {
    /// `uppercased()`, without its copy when there is nothing to change: a method is nearly
    /// always upper case already, and every replay reads it twice. Non-ASCII text takes the
    /// full Unicode path.
    var uppercasedIfNeeded: String {
        utf8.contains { ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || $0 >= 0x80 } ? uppercased() : self
    }
}
