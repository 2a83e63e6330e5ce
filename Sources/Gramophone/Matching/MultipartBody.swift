import Foundation

/// A `multipart/form-data` body taken apart (RFC 7578), so two uploads compare part by part
/// whatever boundary each was sent with.
struct MultipartBody: Sendable, Hashable {
    struct Part: Sendable, Hashable {
        var name: String
        var filename: String?
        var contentType: String?
        var content: Data
    }

    var parts: [Part]

    /// Nil when the body is not multipart as its headers say. The declared boundary is used
    /// when the body holds it; else (no boundary parameter, or one the body does not use, as
    /// in DVR's upload cassettes) the boundary on the body's first line.
    init?(_ body: Data, headers: Headers) {
        guard let type = headers.mediaType, type.hasPrefix("multipart/") else { return nil }
        let bytes = Array(body)
        let declared = Self.boundary(headers["Content-Type"] ?? "")
        // The declared boundary first, then the one the body opens with, each tried once.
        let boundaries = [{ declared }, { Self.sniffedBoundary(body).flatMap { $0 == declared ? nil : $0 } }].lazy.compactMap { $0() }
        guard let parts = boundaries.compactMap({ Self.parts(bytes, boundary: Array($0.utf8)) }).first else { return nil }
        self.parts = parts
    }

    /// The `boundary` parameter, quoted or not.
    static func boundary(_ contentType: String) -> String? {
        parameters(contentType)["boundary"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `--boundary` on the body's first line.
    private static func sniffedBoundary(_ body: Data) -> String? {
        guard body.starts(with: [0x2D, 0x2D]), let end = body.firstIndex(of: 0x0D) ?? body.firstIndex(of: 0x0A) else { return nil }
        let line = body[body.startIndex + 2..<end]
        return line.isEmpty ? nil : String(decoding: line, as: UTF8.self)
    }

    private static func parts(_ bytes: [UInt8], boundary: [UInt8]) -> [Part]? {
        let dash: [UInt8] = [0x2D, 0x2D]
        let delimiter = dash + boundary
        // The first delimiter may open the body; later ones follow a line break.
        guard var start = bytes.firstRange(of: delimiter)?.lowerBound else { return nil }
        var parts: [Part] = []
        while true {
            var position = start + delimiter.count
            if bytes[position...].starts(with: dash) { return parts }  // the closing delimiter
            // Transport padding, then the line break that ends the delimiter line.
            while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x09 { position += 1 }
            position = skipLineBreak(bytes, position)
            guard let next = lineBreaks.lazy.compactMap({ bytes[position...].firstRange(of: $0 + delimiter)?.lowerBound }).first else {
                return nil  // a body cut short is not multipart: compare it byte for byte
            }
            guard let part = part(bytes[position..<next]) else { return nil }
            parts.append(part)
            start = skipLineBreak(bytes, next)
        }
    }

    private static func part(_ slice: ArraySlice<UInt8>) -> Part? {
        // Headers end at the first empty line; a part with no headers starts with one.
        let bounds =
            lineBreaks.first { slice.starts(with: $0) }.map { (slice.startIndex, slice.startIndex + $0.count) }
            ?? lineBreaks.lazy.compactMap { lineBreak in slice.firstRange(of: lineBreak + lineBreak).map { ($0.lowerBound, $0.upperBound) } }.first
        guard let (headerEnd, contentStart) = bounds else { return nil }
        var headers = Headers()
        for line in String(decoding: slice[slice.startIndex..<headerEnd], as: UTF8.self).split(whereSeparator: \.isNewline) {
            let pair = line.split(separator: ":", maxSplits: 1)
            if pair.count == 2 { headers[String(pair[0]).trimmingWhitespace()] = String(pair[1]).trimmingWhitespace() }
        }
        let disposition = headers["Content-Disposition"].map(parameters) ?? [:]
        return Part(
            name: disposition["name"] ?? "", filename: disposition["filename"],
            contentType: headers["Content-Type"], content: Data(slice[contentStart..<slice.endIndex]))
    }

    /// `form-data; name="avatar"; filename="a b.png"` → name, filename (quotes and `\` escapes undone);
    /// a `Content-Type`'s parameters alike.
    private static func parameters(_ disposition: String) -> [String: String] {
        var result: [String: String] = [:]
        var characters = Substring(disposition)
        // Skip the disposition type.
        guard let firstSemicolon = characters.firstIndex(of: ";") else { return result }
        characters = characters[characters.index(after: firstSemicolon)...]
        while !characters.isEmpty {
            characters = characters.drop { $0 == " " || $0 == "\t" || $0 == ";" }
            guard let equals = characters.firstIndex(of: "=") else { break }
            let name = String(characters[..<equals]).trimmingWhitespace().lowercased()
            characters = characters[characters.index(after: equals)...].drop { $0 == " " }
            var value = ""
            if characters.first == "\"" {
                characters = characters.dropFirst()
                var escaped = false
                while let character = characters.first {
                    characters = characters.dropFirst()
                    if escaped { value.append(character); escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { break } else { value.append(character) }
                }
            } else {
                let end = characters.firstIndex(of: ";") ?? characters.endIndex
                value = String(characters[..<end]).trimmingWhitespace()
                characters = characters[end...]
            }
            result[name] = value
        }
        return result
    }

    /// CRLF, as RFC 7578 writes it, or a bare LF, as some clients do; CRLF first.
    private static let lineBreaks: [[UInt8]] = [[0x0D, 0x0A], [0x0A]]

    private static func skipLineBreak(_ bytes: [UInt8], _ position: Int) -> Int {
        position + (lineBreaks.first { bytes[position...].starts(with: $0) }?.count ?? 0)
    }
}
