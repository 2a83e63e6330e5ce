/// Writes `JSONValue`s: pretty for vinyl files (stable, reviewable diffs), compact for bodies,
/// or in the `JSONLayout` a body came in.
///
/// Members are written in the order they are held; the vinyl encoders sort their own keys,
/// while bodies keep the order they were received in (that is what makes them byte-exact).
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    private let layout: JSONLayout
    /// The layout's indent per level, as one byte repeated (a space or a tab, never a mix).
    private let indentByte: UInt8
    private let indentWidth: Int

    private init(layout: JSONLayout) {
        self.layout = layout
        indentByte = layout.indent.first ?? 0x20
        indentWidth = layout.indent.count
    }

    /// The vinyl files' layout.
    private static let prettyLayout = JSONLayout(spelling: "indent 2, space after colon, final newline")!

    static func compact(_ value: JSONValue) -> [UInt8] {
        write(value, in: JSONLayout())
    }

    static func pretty(_ value: JSONValue) -> [UInt8] {
        write(value, in: prettyLayout)
    }

    static func write(_ value: JSONValue, in layout: JSONLayout) -> [UInt8] {
        var writer = JSONWriter(layout: layout)
        if !layout.indent.isEmpty { writer.bytes.reserveCapacity(4096) }
        writer.write(value, level: 0)
        if layout.finalNewline { writer.bytes.append(0x0A) }
        return writer.bytes
    }

    // Recursion is safe here: values come from the parser (≤ 512 levels) or from our own model.
    private mutating func write(_ value: JSONValue, level: Int) {
        switch value {
        case .null: append("null")
        case .bool(let flag): append(flag ? "true" : "false")
        case .number(let text): bytes.append(contentsOf: text.utf8)
        case .string(let text): writeString(text)
        case .array(let items):
            if items.isEmpty { append("[]"); return }
            bytes.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { comma() }
                newline(level + 1)
                write(item, level: level + 1)
            }
            newline(level)
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            if members.isEmpty { append("{}"); return }
            bytes.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { comma() }
                newline(level + 1)
                writeString(member.key)
                if layout.spaceBeforeColon { bytes.append(0x20) }
                bytes.append(UInt8(ascii: ":"))
                if layout.spaceAfterColon { bytes.append(0x20) }
                write(member.value, level: level + 1)
            }
            newline(level)
            bytes.append(UInt8(ascii: "}"))
        }
    }

    @inline(__always)
    private mutating func comma() {
        bytes.append(UInt8(ascii: ","))
        if layout.spaceAfterComma, indentWidth == 0 { bytes.append(0x20) }
    }

    @inline(__always)
    private mutating func newline(_ level: Int) {
        guard indentWidth > 0 else { return }
        bytes.append(0x0A)
        // Byte by byte: appending the indent as an array per level was slower.
        for _ in 0..<(level * indentWidth) { bytes.append(indentByte) }
    }

    @inline(__always)
    private mutating func append(_ literal: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    private mutating func writeString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        if layout.asciiEscapes {
            for scalar in text.unicodeScalars {
                if scalar.value < 0x80 {
                    writeASCII(UInt8(scalar.value))
                } else if scalar.value > 0xFFFF {
                    let offset = scalar.value - 0x10000
                    escape(UInt16(0xD800 + (offset >> 10)))
                    escape(UInt16(0xDC00 + (offset & 0x3FF)))
                } else {
                    escape(UInt16(scalar.value))
                }
            }
        } else {
            var text = text
            // Runs of bytes that need no escape (nearly all of a body or a header) are copied whole.
            text.withUTF8 { utf8 in
                // A body's megabytes grow the buffer once, geometrically, not by repeated doubling.
                if bytes.capacity - bytes.count < utf8.count + 1 { bytes.reserveCapacity(Swift.max(bytes.count * 2, bytes.count + utf8.count + 4096)) }
                let slashes = layout.escapedSlashes
                (slashes ? Self.needsEscapeOrSlash : Self.needsEscape).withUnsafeBufferPointer { table in
                    var runStart = 0
                    var index = 0
                    while index < utf8.count {
                        // Eight bytes at a time past those that need no escape (a base64 body's megabytes).
                        if index + 8 <= utf8.count,
                            !Self.mayNeedEscape(UnsafeRawBufferPointer(utf8).loadUnaligned(fromByteOffset: index, as: UInt64.self), slashes: slashes)
                        {
                            index += 8
                            continue
                        }
                        if table[Int(utf8[index])] {
                            bytes.append(contentsOf: utf8[runStart..<index])
                            writeASCII(utf8[index])
                            runStart = index + 1
                        }
                        index += 1
                    }
                    bytes.append(contentsOf: utf8[runStart...])
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Whether any of the eight bytes in `word` may need an escape: false only when none is a
    /// control character, `"`, `\\` (or `/`, with `slashes`). May say true of bytes that need none.
    @inline(__always)
    private static func mayNeedEscape(_ word: UInt64, slashes: Bool) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        // A byte below `n` (n <= 0x80) sets its high bit in `(word - n) & ~word`; a zero byte, below 1.
        func hasByteBelow(_ value: UInt64, _ n: UInt64) -> Bool { (value &- ones &* n) & ~value & highs != 0 }
        return hasByteBelow(word, 0x20) || hasByteBelow(word ^ (ones &* 0x22), 1) || hasByteBelow(word ^ (ones &* 0x5C), 1)
            || (slashes && hasByteBelow(word ^ (ones &* 0x2F), 1))
    }

    /// The bytes a JSON string may not hold as they are: `"`, `\\` and control characters.
    private static let needsEscape: [Bool] = (0...255).map { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }
    /// The same and `/`, for layouts that escape it.
    private static let needsEscapeOrSlash: [Bool] = (0...255).map { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x2F }

    /// An ASCII byte, escaped where JSON or the layout asks.
    private mutating func writeASCII(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): append("\\\"")
        case UInt8(ascii: "\\"): append("\\\\")
        case UInt8(ascii: "/") where layout.escapedSlashes: append("\\/")
        case 0x0A: append("\\n")
        case 0x0D: append("\\r")
        case 0x09: append("\\t")
        case 0x08: append("\\b")
        case 0x0C: append("\\f")
        case 0..<0x20: escape(UInt16(byte))
        default: bytes.append(byte)
        }
    }

    /// `\uXXXX`, in the layout's case.
    private mutating func escape(_ unit: UInt16) {
        let hex = layout.upperCaseEscapes ? Self.upperHex : Self.lowerHex
        append("\\u")
        for shift in stride(from: 12, through: 0, by: -4) { bytes.append(hex[Int((unit >> UInt16(shift)) & 0xF)]) }
    }

    private static let lowerHex = Array("0123456789abcdef".utf8)
    private static let upperHex = Array("0123456789ABCDEF".utf8)
}
