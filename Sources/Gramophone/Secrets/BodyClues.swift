import Foundation

/// What one pass over a body's bytes tells the default redaction and the secret scan, so
/// neither parses, decodes or searches a body that cannot hold what it looks for: most
/// bodies a recorder sees (lists, records, echoes without credentials) hold none of it.
///
/// One pass, not a search per name: a search per stem and token prefix made these checks a
/// third of recording a large JSON body.
struct BodyClues {
    /// A secret name's stem (`SensitiveNames.stems`), ignoring case and the separators `-`,
    /// `_`, `.` and space: every secret name contains one.
    private(set) var namesSecret = false
    /// One of the token shapes' literal parts (`SecretPatterns`), in 14 bytes or more.
    private(set) var mayHoldToken = false
    /// A `=` or a `%`, without which no URL query is written in the text.
    private(set) var mayHoldQuery = false
    /// Valid UTF-8: only text is redacted or scanned.
    private(set) var isText = true

    init(_ bytes: UnsafeRawBufferPointer) {
        // The last 16 bytes seen (without separators, case folded, for the stems; as they are,
        // for the token parts), newest in the lowest byte. Two bytes of each name a bit of a
        // table first: most bytes end no literal, and end the loop's work there.
        var (folded, foldedOlder, raw, rawOlder): (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        var (ascii, text, token, name, query) = (true, true, false, false, false)
        Self.tables.withUnsafeBufferPointer { tables in
            let (stemPairs, tokenPairs) = (tables.baseAddress!, tables.baseAddress! + 1024)
            for byte in bytes {
                // Validated at the first byte that is not ASCII: a binary body stops there.
                if byte >= 0x80, ascii {
                    (ascii, text) = (false, UTF8Validation.firstInvalidOffset(bytes) == nil)
                    if !text { break }
                }
                (rawOlder, raw) = (rawOlder << 8 | raw >> 56, raw << 8 | UInt64(byte))
                if Self.has(tokenPairs, raw), !token { token = Self.tokenParts.contains { $0.matches(raw, rawOlder) } }
                switch byte {
                case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: " "): continue
                case UInt8(ascii: "="), UInt8(ascii: "%"): query = true
                default: break
                }
                (foldedOlder, folded) = (foldedOlder << 8 | folded >> 56, folded << 8 | UInt64(byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte))
                if Self.has(stemPairs, folded), !name { name = Self.stems.contains { $0.matches(folded, foldedOlder) } }
            }
        }
        (namesSecret, mayHoldToken, mayHoldQuery) = (name, token && bytes.count >= 14, query)
        isText = text
    }

    init<Bytes: ContiguousBytes>(_ bytes: Bytes) {
        self = bytes.withUnsafeBytes { BodyClues($0) }
    }

    /// A literal of at most 16 bytes, as the last bytes of the two registers above.
    private struct Literal {
        var low: UInt64, lowMask: UInt64, high: UInt64, highMask: UInt64

        init(_ text: String) {
            let bytes = Array(text.utf8.suffix(16))
            (low, lowMask, high, highMask) = (0, 0, 0, 0)
            for (index, byte) in bytes.reversed().enumerated() {
                if index < 8 {
                    (low, lowMask) = (low | UInt64(byte) << (8 * index), lowMask | 0xFF << (8 * index))
                } else {
                    (high, highMask) = (high | UInt64(byte) << (8 * (index - 8)), highMask | 0xFF << (8 * (index - 8)))
                }
            }
        }

        func matches(_ latest: UInt64, _ older: UInt64) -> Bool {
            latest & lowMask == low && older & highMask == high
        }
    }

    private static let stems = SensitiveNames.stems.map(Literal.init)
    private static let tokenParts = SecretPatterns.anchors.map(Literal.init)

    /// Bit tables of the last two bytes of the stems, then of the token parts: 65,536 bits each.
    private static let tables: [UInt64] = {
        var tables = [UInt64](repeating: 0, count: 2048)
        for (offset, literals) in [(0, SensitiveNames.stems), (1024, SecretPatterns.anchors)] {
            for pair in literals.map({ Literal($0).low & 0xFFFF }) { tables[offset + Int(pair >> 6)] |= 1 << (pair & 63) }
        }
        return tables
    }()

    @inline(__always)
    private static func has(_ table: UnsafePointer<UInt64>, _ latest: UInt64) -> Bool {
        let pair = latest & 0xFFFF
        return table[Int(pair >> 6)] & (1 << (pair & 63)) != 0
    }
}
