import Foundation

/// The rule for compressed bodies: a vinyl's headers describe the body it stores.
///
/// Clients decompress as they read (URLSession always, AsyncHTTPClient when configured to), yet
/// leave `Content-Encoding` and the compressed `Content-Length` in the headers. A body stored
/// decoded under such headers is what the recorder rewrites (unless
/// `Recording.keepsContentEncoding`) and what `gramophone lint` reports. Whether a body is still
/// compressed is judged by its bytes: gzip, zlib and zstd data have a signature; a body of
/// plain text under `br`, `compress` or a raw `deflate` was decoded.
package enum ContentCoding {
    /// The coding applied last (`Content-Encoding: gzip, br` is br over gzip), lower-cased; nil
    /// when the headers name none, or only `identity`.
    package static func outermost(_ headers: Headers) -> String? {
        guard let value = headers["Content-Encoding"] else { return nil }
        return value.split(separator: ",").map { String($0).trimmingWhitespace().lowercased() }.last { !$0.isEmpty && $0 != "identity" }
    }

    /// The compression `headers` name, when `body` is not compressed that way: it was stored
    /// as the client handed it over, decoded. Nil when there is nothing to say (no compression
    /// named, an empty body, bytes that are compressed or cannot be told apart from it).
    package static func decodedCoding(of body: Data, headers: Headers) -> String? {
        guard !body.isEmpty, let coding = outermost(headers) else { return nil }
        switch coding {
        case "gzip", "x-gzip":
            return body.starts(with: [0x1F, 0x8B]) ? nil : coding
        // Compressed data with a signature; a raw deflate stream (no zlib header) has none.
        case "zstd" where body.starts(with: [0x28, 0xB5, 0x2F, 0xFD]), "deflate" where hasZlibHeader(body):
            return nil
        default:
            return isPlainText(body) ? coding : nil
        }
    }

    /// zlib's two-byte header (RFC 1950), which HTTP's `deflate` names.
    private static func hasZlibHeader(_ body: Data) -> Bool {
        body.count >= 2 && body[body.startIndex] & 0x0F == 8 && (UInt16(body[body.startIndex]) << 8 | UInt16(body[body.startIndex + 1])) % 31 == 0
    }

    /// UTF-8 text without control characters other than tab and line breaks: what no
    /// compressor's output is, past a few bytes.
    package static func isPlainText(_ body: Data) -> Bool {
        body.allSatisfy { $0 >= 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D } && UTF8Validation.isValid(body)
    }
}

extension Track.Response {
    /// The response with headers that describe its stored body, when the client decoded a
    /// compressed one: `Content-Encoding` removed, `Content-Length` set to the body's length.
    /// The places changed, spelled as the recording report spells them; empty when nothing was.
    mutating func describeStoredBody() -> [String] {
        guard ContentCoding.decodedCoding(of: body, headers: headers) != nil else { return [] }
        headers.remove("Content-Encoding")
        if headers.contains("Content-Length") { headers["Content-Length"] = String(body.count) }
        return [#"response.headers "Content-Encoding""#]
    }
}
