import Foundation
import Testing

@testable import Gramophone

/// Every string the vinyl writer stores reads back as it was: the writer skips runs of bytes that
/// need no escape eight at a time, so a quote, a backslash, a control character or a slash must be
/// found wherever it falls in such a run.
@Suite struct JSONWriterEscapingTests {
    /// Strings of 0 to 40 characters drawn from those that need escapes and those that do not
    /// (multi-byte ones too), the same each run.
    static let strings: [String] = {
        let pieces = ["a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{01}", "\u{1F}", "\u{7F}", "é", "€", "😀", "~"]
        var seed: UInt64 = 0x5EED
        func next() -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(seed >> 33)
        }
        return (0..<400).map { _ in String((0..<(next() % 41)).map { _ in pieces[next() % pieces.count] }.joined()) }
    }()

    @Test(arguments: ["", "escaped slashes"])
    func everyStringReadsBackAsWritten(layout spelling: String) throws {
        let layout = try #require(JSONLayout(spelling: spelling))
        for text in Self.strings {
            let written = JSONWriter.write(.string(text), in: layout)
            #expect(try JSONParser.parse(Data(written)) == .string(text), "\(text.debugDescription)")
            let unescapedSlash = zip(written, written.dropFirst()).contains { $0.0 != UInt8(ascii: "\\") && $0.1 == UInt8(ascii: "/") }
            if layout.escapedSlashes { #expect(!unescapedSlash, "\(text.debugDescription)") }
        }
    }

    @Test func aLongRunOfPlainBytesIsCopiedAndItsOneQuoteEscaped() throws {
        for position in 0..<24 {
            var text = String(repeating: "x", count: 23)
            text.insert("\"", at: text.index(text.startIndex, offsetBy: position))
            let written = String(decoding: JSONWriter.compact(.string(text)), as: UTF8.self)
            #expect(written == "\"" + text.replacingOccurrences(of: "\"", with: "\\\"") + "\"")
        }
    }
}
