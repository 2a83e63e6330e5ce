import Foundation

/// The XML property list writer, by hand.
///
/// Foundation's writer on Linux validates the whole tree, bridges it to CF types and copies
/// each body through NSData a byte at a time: a third of the writer fuzz target's time went
/// there. By hand the file is also the same on every platform. The layout follows
/// CFPropertyList's XML writer (keys sorted, tab indents, base64 in lines of at most 76
/// characters counting the indent, `&`, `<` and `>` escaped and nothing else), so a file
/// rewritten on a Mac does not show in review, and Foundation's reader reads it back.
enum PropertyListWriter {
    enum Value {
        case dictionary([String: Value])
        case array([Value])
        case string(String)
        case integer(Int)
        case real(Double)
        case data(Data)
    }

    static func document(_ root: Value) -> Data {
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        out +=
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">

            """.utf8
        write(root, indent: 0, to: &out)
        out += "</plist>\n".utf8
        return Data(out)
    }

    private static func write(_ value: Value, indent: Int, to out: inout [UInt8]) {
        tabs(indent, &out)
        switch value {
        case .string(let text):
            element("string", escaping: text, &out)
        case .integer(let number):
            element("integer", escaping: String(number), &out)
        case .real(let number):
            element("real", escaping: realText(number), &out)
        case .array(let items):
            container("array", items.map { (nil, $0) }, indent: indent, to: &out)
        case .dictionary(let fields):
            container("dict", fields.keys.sorted().map { ($0, fields[$0]!) }, indent: indent, to: &out)
        case .data(let bytes):
            out += "<data>\n".utf8
            // CF caps the indent of base64 lines at 8 tabs and counts each as 8 columns.
            let lineIndent = min(indent, 8), width = 76 - 8 * lineIndent
            let base64 = Array(bytes.base64EncodedString().utf8)
            for start in stride(from: 0, to: base64.count, by: width) {
                tabs(lineIndent, &out)
                out += base64[start..<min(start + width, base64.count)]
                out.append(0x0A)
            }
            tabs(indent, &out)
            out += "</data>\n".utf8
        }
    }

    /// An array's items or a dictionary's fields (a key before each value), `<tag/>` when there is none.
    private static func container(_ tag: String, _ entries: [(key: String?, value: Value)], indent: Int, to out: inout [UInt8]) {
        guard !entries.isEmpty else {
            out += "<\(tag)/>\n".utf8
            return
        }
        out += "<\(tag)>\n".utf8
        for (key, value) in entries {
            if let key {
                tabs(indent + 1, &out)
                element("key", escaping: key, &out)
            }
            write(value, indent: indent + 1, to: &out)
        }
        tabs(indent, &out)
        out += "</\(tag)>\n".utf8
    }

    /// A real as CF writes it, so a file an earlier Gramophone wrote through Foundation does not
    /// change on a rewrite: its spellings of NaN, the infinities and zero (either sign), and
    /// otherwise 17 significant digits, which read back as the same double.
    static func realText(_ number: Double) -> String {
        if number.isNaN { return "nan" }
        if number.isInfinite { return number < 0 ? "-infinity" : "+infinity" }
        if number == 0 { return "0.0" }
        return String(format: "%.17g", number)
    }

    private static func element(_ tag: String, escaping text: String, _ out: inout [UInt8]) {
        out.append(UInt8(ascii: "<"))
        out += tag.utf8
        out.append(UInt8(ascii: ">"))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): out += "&amp;".utf8
            case UInt8(ascii: "<"): out += "&lt;".utf8
            case UInt8(ascii: ">"): out += "&gt;".utf8
            default: out.append(byte)
            }
        }
        out += "</".utf8
        out += tag.utf8
        out += ">\n".utf8
    }

    private static func tabs(_ count: Int, _ out: inout [UInt8]) {
        out.append(contentsOf: repeatElement(UInt8(ascii: "\t"), count: count))
    }
}
