import Foundation
import Testing

@testable import Gramophone

/// Base64 bodies are read as their UTF-8 bytes (issue 46): lines wrapped by the writer (LF or
/// CRLF, as Ruby's VCR and some DVR cassettes wrap them) give the same bytes as one line, and
/// what is not base64 is still an error naming the body.
@Suite struct WrappedBase64Tests {
    let bytes = Data((0..<300).map { UInt8(truncatingIfNeeded: $0 &* 37) })

    func body(_ stored: String) throws -> Data {
        let text = #"[{"request": {"url": "https://e.com"}, "response": {"status": 200, "headers": {"Content-Type": "image/png"}, "body": "\#(stored)"}}]"#
        let vinyl = try Vinyl(data: Data(text.utf8), name: "wrapped")
        guard case .response(let response) = try #require(vinyl.tracks.first).outcome else {
            Issue.record("expected a response")
            return Data()
        }
        return response.body
    }

    func wrapped(_ base64: String, every width: Int, with lineBreak: String) -> String {
        var lines: [Substring] = []
        var rest = Substring(base64)
        while !rest.isEmpty {
            lines.append(rest.prefix(width))
            rest = rest.dropFirst(width)
        }
        return lines.joined(separator: lineBreak)
    }

    @Test func wrappedLinesGiveTheSameBytesAsOneLine() throws {
        let base64 = bytes.base64EncodedString()
        #expect(try body(base64) == bytes)
        #expect(try body(wrapped(base64, every: 60, with: "\\n")) == bytes)
        #expect(try body(wrapped(base64, every: 76, with: "\\r\\n")) == bytes)
        #expect(try body(base64 + "\\n") == bytes)
    }

    /// HAR and VCR dropped line breaks Character by Character, and "\r\n" is one Character that
    /// is neither "\n" nor "\r": CRLF-wrapped base64 was an error there until they read it as the
    /// JSON format does.
    @Test func harAndVCRReadCRLFWrappedBase64Too() throws {
        let stored = wrapped(bytes.base64EncodedString(), every: 76, with: "\\r\\n")
        let har = #"{"log": {"entries": [{"request": {"url": "https://e.com"}, "response": {"status": 200, "content": {"mimeType": "image/png", "encoding": "base64", "text": "\#(stored)"}}}]}}"#
        let vcr = #"{"interactions": [{"request": {"uri": "https://e.com"}, "response": {"status": {"code": 200}, "body": {"base64_string": "\#(stored)"}}}]}"#
        for text in [har, vcr] {
            #expect(try Vinyl(data: Data(text.utf8), name: "wrapped").tracks.first?.response?.body == bytes)
        }
    }

    @Test func whatIsNotBase64IsStillAnError() {
        for stored in ["not base64!", "QUJD\\nRA=é", "QUJ\\tD"] {
            #expect(throws: VinylError.self, "\(stored)") { try body(stored) }
        }
    }
}
