/// How a JSON text is laid out: indentation, the spacing around `:` and `,`, a final newline,
/// which characters are escaped. A vinyl stores a JSON body as a JSON value, readable in review,
/// with its layout when that is not the compact one, so the body replays byte for byte:
/// `"bodyLayout": "indent 2, final newline"`.
///
/// Only layouts that write the body back exactly are kept; a body laid out some other way (keys
/// aligned, a number with its own escapes) is stored as its text, as before.
struct JSONLayout: Sendable, Hashable {
    /// Per level; empty for a body on one line.
    var indent: [UInt8] = []
    /// A space after `:`.
    var spaceAfterColon = false
    /// A space before `:` (Apple's `JSONSerialization` writes `"key" : value` when pretty).
    var spaceBeforeColon = false
    /// A space after `,` on one line (Python's `json.dumps` without `indent`).
    var spaceAfterComma = false
    /// A line break after the value.
    var finalNewline = false
    /// Non-ASCII characters written as `\u00e9` (Python's `ensure_ascii`), in upper case if set.
    var asciiEscapes = false
    var upperCaseEscapes = false
    /// `/` written as `\/` (Apple's `JSONSerialization`, PHP).
    var escapedSlashes = false

    /// The layout that writes `value` back as exactly `body`, or nil when none of the known ones does.
    static func of(_ body: [UInt8], value: JSONValue) -> JSONLayout? {
        var layout = JSONLayout()
        // What the text shows decides the few candidates worth writing out.
        var end = body.count
        if end > 0, body[end - 1] == 0x0A {
            layout.finalNewline = true
            end -= 1
        }
        if end > 0, body[end - 1] == 0x0D { return nil }
        if let open = body.firstIndex(where: { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "[") }), open + 1 < end, body[open + 1] == 0x0A {
            layout.indent = Array(body[(open + 2)..<end].prefix { $0 == 0x20 || $0 == 0x09 })
            // Spaces or tabs, not a mix: the spelling says "indent 2" or "indent 1 tab".
            guard !layout.indent.isEmpty, layout.indent.count <= 16, layout.indent.allSatisfy({ $0 == layout.indent[0] }) else { return nil }
        }
        layout.escapedSlashes = contains(body, "\\/")
        layout.asciiEscapes = body.allSatisfy { $0 < 0x80 } && contains(body, "\\u")
        layout.upperCaseEscapes = layout.asciiEscapes && hasUpperCaseEscape(body)
        let colons: [(before: Bool, after: Bool)] = contains(body, "\" : ") ? [(true, true)] : contains(body, "\": ") ? [(false, true), (false, false)] : [(false, false)]
        let commas = layout.indent.isEmpty && contains(body, ", ") ? [true, false] : [false]
        for colon in colons {
            for comma in commas {
                layout.spaceBeforeColon = colon.before
                layout.spaceAfterColon = colon.after
                layout.spaceAfterComma = comma
                if layout.write(value) == body { return layout.spelling.isEmpty ? nil : layout }
            }
        }
        return nil
    }

    /// `rewritten` (a redacted `original`) in the layout `body`, the text of `original`, came in:
    /// a redaction changes the values it takes out, not the layout around them. Compact when the
    /// layout is not one of the known ones.
    static func rewriting(_ body: Data, from original: JSONValue, to rewritten: JSONValue) -> Data {
        let bytes = [UInt8](body)
        guard JSONWriter.compact(original) != bytes, let layout = of(bytes, value: original) else { return Data(JSONWriter.compact(rewritten)) }
        return Data(layout.write(rewritten))
    }

    /// The text of `value` in this layout.
    func write(_ value: JSONValue) -> [UInt8] {
        JSONWriter.write(value, in: self)
    }

    // MARK: The stored spelling

    /// `indent 2, space after colon, final newline`: words a reviewer reads, parsed back by `init(spelling:)`.
    var spelling: String {
        let indentWords = indent.isEmpty ? [] : [indent[0] == 0x09 ? "indent \(indent.count) tab" : "indent \(indent.count)"]
        // Upper-case escapes are ascii escapes: their word says both.
        let words = Self.switches.filter { self[keyPath: $0.flag] && !($0.flag == \.asciiEscapes && upperCaseEscapes) }.map(\.word)
        return (indentWords + words).joined(separator: ", ")
    }

    /// The words of the layout's switches, in the order `spelling` writes them.
    private static let switches: [(word: String, flag: WritableKeyPath<JSONLayout, Bool> & Sendable)] = [
        ("space before colon", \.spaceBeforeColon),
        ("space after colon", \.spaceAfterColon),
        ("space after comma", \.spaceAfterComma),
        ("final newline", \.finalNewline),
        ("ascii escapes", \.asciiEscapes),
        ("ascii escapes in upper case", \.upperCaseEscapes),
        ("escaped slashes", \.escapedSlashes),
    ]

    /// The words every layout is spelled with, for errors.
    static let vocabulary = (["indent N", "indent N tab"] + switches.map(\.word)).joined(separator: ", ")

    /// The layout `spelling` describes, nil for a word it does not know.
    init?(spelling: String) {
        for word in spelling.split(separator: ",").map({ String($0).trimmingWhitespace() }) where !word.isEmpty {
            let parts = word.split(separator: " ")
            if parts.first == "indent", parts.count >= 2, let count = Int(parts[1]), (1...16).contains(count) {
                guard parts.count == 2 || (parts.count == 3 && parts[2] == "tab") else { return nil }
                indent = Array(repeating: parts.count == 2 ? 0x20 : 0x09, count: count)
                continue
            }
            guard let flag = Self.switches.first(where: { $0.word == word })?.flag else { return nil }
            self[keyPath: flag] = true
        }
        asciiEscapes = asciiEscapes || upperCaseEscapes
    }

    init() {}

    // Not the standard library's `firstRange(of:)`: it took a hundred times as long.
    private static func contains(_ body: [UInt8], _ text: StaticString) -> Bool {
        body.withUnsafeBytes { UTF8Search.firstOffset(of: UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount), in: $0) != nil }
    }

    private static func hasUpperCaseEscape(_ body: [UInt8]) -> Bool {
        var index = 0
        while index + 5 < body.count {
            if body[index] == UInt8(ascii: "\\"), body[index + 1] == UInt8(ascii: "u") {
                if body[(index + 2)..<(index + 6)].contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "F") }) { return true }
                index += 6
            } else {
                index += 1
            }
        }
        return false
    }
}
