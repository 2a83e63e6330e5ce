/// Writes `JSONValue`s: pretty for vinyl files (stable, reviewable diffs), compact for bodies.
///
/// Members are written in the order they are held; the vinyl encoders sort their own keys,
/// while bodies keep the order they were received in (that is what makes them byte-exact).
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    private let pretty: Bool

    private init(pretty: Bool) { self.pretty = pretty }

    static func compact(_ value: JSONValue) -> [UInt8] {
        var writer = JSONWriter(pretty: false)
        writer.write(value, indent: 0)
        return writer.bytes
    }

    static func pretty(_ value: JSONValue) -> [UInt8] {
        var writer = JSONWriter(pretty: true)
        writer.bytes.reserveCapacity(4096)
        writer.write(value, indent: 0)
        writer.bytes.append(0x0A)
        return writer.bytes
    }

    // Recursion is safe here: values come from the parser (≤ 512 levels) or from our own model.
    private mutating func write(_ value: JSONValue, indent: Int) {
        switch value {
        case .null: append("null")
        case .bool(let flag): append(flag ? "true" : "false")
        case .number(let text): bytes.append(contentsOf: text.utf8)
        case .string(let text): writeString(text)
        case .array(let items):
            if items.isEmpty { append("[]"); return }
            bytes.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                write(item, indent: indent + 1)
            }
            newline(indent)
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            if members.isEmpty { append("{}"); return }
            bytes.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                writeString(member.key)
                bytes.append(UInt8(ascii: ":"))
                if pretty { bytes.append(UInt8(ascii: " ")) }
                write(member.value, indent: indent + 1)
            }
            newline(indent)
            bytes.append(UInt8(ascii: "}"))
        }
    }

    @inline(__always)
    private mutating func newline(_ indent: Int) {
        guard pretty else { return }
        bytes.append(0x0A)
        for _ in 0..<indent { bytes.append(0x20); bytes.append(0x20) }
    }

    @inline(__always)
    private mutating func append(_ literal: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    private mutating func writeString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        // Runs of bytes that need no escape (nearly all of a body or a header) are copied whole.
        text.withUTF8 { utf8 in
            // A body's megabytes grow the buffer once, geometrically, not by repeated doubling.
            if bytes.capacity - bytes.count < utf8.count + 1 { bytes.reserveCapacity(Swift.max(bytes.count * 2, bytes.count + utf8.count + 4096)) }
            Self.needsEscape.withUnsafeBufferPointer { table in
                var runStart = 0
                for index in utf8.indices where table[Int(utf8[index])] {
                    bytes.append(contentsOf: utf8[runStart..<index])
                    writeEscape(utf8[index])
                    runStart = index + 1
                }
                bytes.append(contentsOf: utf8[runStart...])
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// The bytes a JSON string may not hold as they are: `"`, `\\` and control characters.
    private static let needsEscape: [Bool] = (0...255).map { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }

    private mutating func writeEscape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): append("\\\"")
        case UInt8(ascii: "\\"): append("\\\\")
        case 0x0A: append("\\n")
        case 0x0D: append("\\r")
        case 0x09: append("\\t")
        case 0x08: append("\\b")
        case 0x0C: append("\\f")
        default:
            append("\\u00")
            let hex: [UInt8] = Array("0123456789abcdef".utf8)
            bytes.append(hex[Int(byte >> 4)])
            bytes.append(hex[Int(byte & 0xF)])
        }
    }
}
