import Foundation

/// Searching bytes with the C library's `memchr` and `memcmp`, which scan many bytes an
/// instruction; redaction and the secret scan search every header and body of every recorded
/// exchange for a dozen names and token shapes, and a byte-by-byte loop made that the slowest
/// part of recording a large body.
enum UTF8Search {
    /// The offset of the first `needle` in `haystack` at or after `start`.
    static func firstOffset(of needle: UnsafeRawBufferPointer, in haystack: UnsafeRawBufferPointer, from start: Int = 0) -> Int? {
        guard start >= 0, needle.count <= haystack.count - start else { return nil }
        guard !needle.isEmpty else { return start }
        guard let needleBase = needle.baseAddress, let base = haystack.baseAddress else { return nil }
        let first = Int32(needle[0]), last = haystack.count - needle.count
        var position = start
        while position <= last {
            guard let hit = memchr(base + position, first, last - position + 1) else { return nil }
            let offset = base.distance(to: UnsafeRawPointer(hit))
            if memcmp(base + offset, needleBase, needle.count) == 0 { return offset }
            position = offset + 1
        }
        return nil
    }

    /// Whether `byte` occurs in `haystack`.
    static func contains(_ byte: UInt8, in haystack: UnsafeRawBufferPointer) -> Bool {
        guard let base = haystack.baseAddress else { return false }
        return memchr(base, Int32(byte), haystack.count) != nil
    }
}

extension String {
    /// Whether `part` occurs in the string, compared as UTF-8 bytes.
    ///
    /// With Foundation imported, `contains(_:)` on two strings resolves to NSString's search,
    /// which on Linux costs tens of microseconds a call and compares characters, not bytes.
    /// The standard library's own substring search needs macOS 13.
    func containsUTF8(_ part: String) -> Bool {
        var text = self, part = part
        return text.withUTF8 { haystack in part.withUTF8 { UTF8Search.firstOffset(of: UnsafeRawBufferPointer($0), in: UnsafeRawBufferPointer(haystack)) != nil } }
    }

    /// Whether the byte occurs in the string's UTF-8.
    func containsUTF8(_ byte: UInt8) -> Bool {
        var text = self
        return text.withUTF8 { UTF8Search.contains(byte, in: UnsafeRawBufferPointer($0)) }
    }
}
