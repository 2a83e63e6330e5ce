import Foundation

/// Where and why a JSON text could not be read.
struct JSONSyntaxError: Error, Sendable, Equatable {
    var offset: Int
    var line: Int
    var column: Int
    var message: String
}

/// A strict-but-forgiving JSON reader for vinyl files.
///
/// Forgiving where real files need it: trailing commas (the Vinyl library's own fixtures have
/// them). Strict where a silent guess would corrupt a recording: invalid UTF-8, control
/// characters in strings, duplicate keys, and nesting past `maximumDepth` are errors. The
/// parser is iterative, so a hostile 100,000-level document cannot overflow the stack.
struct JSONParser {
    static let maximumDepth = 512

    static func parse<Bytes: ContiguousBytes>(_ data: Bytes) throws(JSONSyntaxError) -> JSONValue {
        let result: Result<JSONValue, JSONSyntaxError> = data.withUnsafeBytes { raw in
            Result { () throws(JSONSyntaxError) -> JSONValue in
                var parser = JSONParser(bytes: raw)
                return try parser.parseDocument()
            }
        }
        return try result.get()
    }

    private let bytes: UnsafeRawBufferPointer
    private var position = 0

    private init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// An open array or object. Containers are filled in place on the stack: moving an array
    /// out of an enum payload and back kept a second reference, so every append copied the
    /// whole array and a file with n tracks took time in n² (40 MB: two minutes).
    private struct Container {
        var isObject: Bool
        var items: [JSONValue] = []
        var members: [(key: String, value: JSONValue)] = []
        /// The key whose value is being read (objects).
        var key = ""
        var seen: Set<String>?

        var closer: UInt8 { isObject ? UInt8(ascii: "}") : UInt8(ascii: "]") }
        consuming func finish() -> JSONValue { isObject ? .object(members) : .array(items) }
    }

    private mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        // A UTF-8 byte order mark is legal noise at the start of a file.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
        var stack: [Container] = []
        var value: JSONValue
        parsing: while true {
            skipWhitespace()
            guard position < bytes.count else { throw error("unexpected end of file; expected a value") }
            switch bytes[position] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let opening = position
                let container = Container(isObject: bytes[position] == UInt8(ascii: "{"))
                position += 1
                skipWhitespace()
                if peek() == container.closer {
                    position += 1
                    value = container.finish()
                } else {
                    guard stack.count < Self.maximumDepth else { position = opening; throw error("nested deeper than \(Self.maximumDepth) levels") }
                    stack.append(container)
                    if container.isObject { stack[stack.count - 1].key = try parseKey() }
                    continue parsing
                }
            case UInt8(ascii: "\""):
                value = .string(try parseString())
            case UInt8(ascii: "t"):
                try expectLiteral("true"); value = .bool(true)
            case UInt8(ascii: "f"):
                try expectLiteral("false"); value = .bool(false)
            case UInt8(ascii: "n"):
                try expectLiteral("null"); value = .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = .number(try parseNumber())
            default:
                throw error("unexpected \(describe(bytes[position])); expected a value")
            }

            // Hand the finished value to its container, closing containers as they end.
            while true {
                guard !stack.isEmpty else {
                    skipWhitespace()
                    guard position == bytes.count else { throw error("unexpected \(describe(bytes[position])) after the end of the document") }
                    return value
                }
                let top = stack.count - 1
                let isObject = stack[top].isObject
                if isObject {
                    // Moved out and back so the set stays uniquely referenced (no copy on insert).
                    var seen = stack[top].seen
                    stack[top].seen = nil
                    try checkDuplicate(stack[top].key, in: stack[top].members, seen: &seen)
                    stack[top].seen = seen
                    stack[top].members.append((stack[top].key, value))
                } else {
                    stack[top].items.append(value)
                }
                skipWhitespace()
                guard position < bytes.count else {
                    throw error("unexpected end of file; expected ',' or '\(isObject ? "}" : "]")'")
                }
                let byte = bytes[position]
                let closer = stack[top].closer
                if byte == UInt8(ascii: ",") {
                    position += 1
                    skipWhitespace()
                    // A trailing comma (a closer after it) is accepted, as JSONSerialization does.
                    if peek() != closer {
                        if isObject { stack[top].key = try parseKey() }
                        continue parsing
                    }
                } else if byte != closer {
                    throw error("unexpected \(describe(byte)); expected ',' or '\(isObject ? "}" : "]")'")
                }
                position += 1
                value = stack.removeLast().finish()
            }
        }
    }

    private func checkDuplicate(_ key: String, in members: [(key: String, value: JSONValue)], seen: inout Set<String>?) throws(JSONSyntaxError) {
        if seen == nil {
            if members.count < 16 {
                for member in members where member.key == key { throw duplicate(key) }
                return
            }
            seen = Set(members.map(\.key))
        }
        if !seen!.insert(key).inserted { throw duplicate(key) }
    }

    private func duplicate(_ key: String) -> JSONSyntaxError {
        error("duplicate key \"\(key)\" in one object; a key may appear only once")
    }

    private mutating func parseKey() throws(JSONSyntaxError) -> String {
        skipWhitespace()
        guard peek() == UInt8(ascii: "\"") else {
            if position >= bytes.count { throw error("unexpected end of file; expected a key") }
            throw error("unexpected \(describe(bytes[position])); expected a quoted key")
        }
        let key = try parseString()
        skipWhitespace()
        guard peek() == UInt8(ascii: ":") else { throw error("expected ':' after the key \"\(key)\"") }
        position += 1
        return key
    }

    @inline(__always)
    private func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

    @inline(__always)
    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count else { throw error("unexpected end of file in a literal") }
        let expected = UnsafeRawBufferPointer(start: literal.utf8Start, count: count)
        for index in 0..<count where bytes[position + index] != expected[index] {
            throw error("invalid literal; expected \(literal)")
        }
        position += count
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> String {
        let start = position
        if peek() == UInt8(ascii: "-") { position += 1 }
        guard let first = peek(), isDigit(first) else { throw error("invalid number: a digit must follow '-'") }
        if first == UInt8(ascii: "0") {
            position += 1
        } else {
            while let byte = peek(), isDigit(byte) { position += 1 }
        }
        if peek() == UInt8(ascii: ".") {
            position += 1
            guard let byte = peek(), isDigit(byte) else { throw error("invalid number: a digit must follow '.'") }
            while let byte = peek(), isDigit(byte) { position += 1 }
        }
        if let byte = peek(), byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            position += 1
            if let sign = peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { position += 1 }
            guard let digit = peek(), isDigit(digit) else { throw error("invalid number: a digit must follow the exponent") }
            while let byte = peek(), isDigit(byte) { position += 1 }
        }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    }

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        position += 1  // opening quote
        let start = position
        var asciiOnly = true
        // Fast path: no escapes, the bytes are the string.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeRawBufferPointer(rebasing: bytes[start..<position])
                if !asciiOnly, let bad = UTF8Validation.firstInvalidOffset(slice) {
                    position = start + bad
                    throw error("invalid UTF-8 in a string")
                }
                position += 1
                return String(decoding: slice, as: UTF8.self)
            }
            // An escape, a control character (refused there) or the end without a quote.
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            if byte >= 0x80 { asciiOnly = false }
            position += 1
        }
        return try parseEscapedString(from: start)
    }

    private mutating func parseEscapedString(from start: Int) throws(JSONSyntaxError) -> String {
        var buffer = [UInt8](UnsafeRawBufferPointer(rebasing: bytes[start..<position]))
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                if buffer.withUnsafeBytes({ UTF8Validation.firstInvalidOffset($0) }) != nil {
                    throw error("invalid UTF-8 in a string")
                }
                return String(decoding: buffer, as: UTF8.self)
            case UInt8(ascii: "\\"):
                position += 1
                guard let escaped = peek() else { break }
                position += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(escaped)
                case UInt8(ascii: "b"): buffer.append(0x08)
                case UInt8(ascii: "f"): buffer.append(0x0C)
                case UInt8(ascii: "n"): buffer.append(0x0A)
                case UInt8(ascii: "r"): buffer.append(0x0D)
                case UInt8(ascii: "t"): buffer.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try parseHex4()
                    if (0xD800...0xDBFF).contains(scalar), position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") {
                        position += 2
                        let low = try parseHex4()
                        if (0xDC00...0xDFFF).contains(low) { scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00) }
                    }
                    // Four hex digits are at most 0xFFFF: only a surrogate left unpaired is no scalar.
                    guard let unicode = Unicode.Scalar(scalar) else { throw error("lone UTF-16 surrogate in a \\u escape") }
                    buffer.append(contentsOf: Array(String(Character(unicode)).utf8))
                default:
                    position -= 1
                    throw error("invalid escape \\\(describe(escaped)) in a string")
                }
            default:
                if byte < 0x20 { throw error("unescaped control character \(describe(byte)) in a string") }
                buffer.append(byte)
                position += 1
            }
        }
        position = start - 1
        throw error("string never closed: no matching '\"'")
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error("unexpected end of file in a \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in a \\u escape")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    private func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    private func error(_ message: String) -> JSONSyntaxError {
        let offset = min(position, bytes.count)
        var line = 1
        var lineStart = 0
        for index in 0..<offset where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        return JSONSyntaxError(offset: offset, line: line, column: offset - lineStart + 1, message: message)
    }
}
