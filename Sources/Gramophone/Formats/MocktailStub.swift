import Foundation

/// One Mocktail `.tail` file: which requests it answers and the response it gives.
///
/// The file is line based: a regular expression for the method (`GET`, `GET|POST`, `.*`),
/// one searched for in the full URL (`/users/[0-9]+`), the status, `Name: value` header lines
/// up to a blank line, then the body. A `Content-Type` ending in `;base64` marks a base64
/// body; the suffix is removed from the header the client sees. `{{ key }}` in a text body
/// is a placeholder filled when the collection answers (see `MocktailCollection.values`).
package struct MocktailStub: Sendable {
    /// The method pattern as written; it must match the whole method, ignoring case.
    package let methodPattern: String
    /// The URL pattern as written; it may match any part of the absolute URL.
    package let urlPattern: String
    package let status: Int
    /// Response headers, with any `;base64` marker taken off `Content-Type`.
    package let headers: Headers
    /// The body as stored: decoded from base64 when marked so, else the text with its placeholders.
    package let body: Data
    /// Whether the body was stored as base64 (placeholders are not filled in binary bodies).
    package let isBase64: Bool
    /// The file it was read from, if any.
    package let file: String?

    private let method: Pattern
    private let url: Pattern

    /// Parses the text of a `.tail` file.
    /// - Throws: `VinylError(.malformed)` naming the file, the line and the fix.
    package init(text: String, file: String? = nil) throws {
        // Tail files written on Windows end lines with CRLF; the body keeps its own bytes.
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: Self.endsLine)
        func line(_ index: Int) -> String {
            var value = String(lines[index])
            if value.hasSuffix("\r") { value.removeLast() }
            return value
        }
        func failure(_ number: Int, _ problem: String, _ fix: String) -> VinylError {
            VinylError(.malformed, file: file, place: "line \(number)", problem: problem, fix: fix)
        }
        guard lines.count >= 3 else {
            throw failure(
                lines.count + 1, "a .tail file needs at least a method line, a URL line and a status line",
                "Write the method regex, the URL regex and the status on the first three lines")
        }
        methodPattern = line(0).trimmingWhitespace()
        urlPattern = line(1).trimmingWhitespace()
        guard !methodPattern.isEmpty else { throw failure(1, "the method pattern is empty", "Write a method regex such as GET or .*") }
        guard !urlPattern.isEmpty else { throw failure(2, "the URL pattern is empty", "Write a URL regex such as /users/[0-9]+") }
        guard let method = try? Pattern("^(?:" + methodPattern + ")$", caseInsensitive: true) else {
            throw failure(1, "\"\(methodPattern)\" is not a valid regular expression", "Fix the method pattern, e.g. GET|POST")
        }
        guard let url = try? Pattern(urlPattern, caseInsensitive: false) else {
            throw failure(2, "\"\(urlPattern)\" is not a valid regular expression", "Fix the URL pattern; escape literal ? and . with a backslash")
        }
        self.method = method
        self.url = url
        guard let status = Int(line(2).trimmingWhitespace()), (100...999).contains(status) else {
            throw failure(3, "\"\(line(2).prefix(40))\" is not an HTTP status code", "Write the status as a number such as 200")
        }
        self.status = status
        var headers = Headers()
        var index = 3
        while index < lines.count, !line(index).trimmingWhitespace().isEmpty {
            let header = line(index)
            guard let colon = header.firstIndex(of: ":") else {
                throw failure(index + 1, "\"\(header.prefix(60))\" is not a header line", "Write headers as `Name: value`, then a blank line before the body")
            }
            let (name, value) = (String(header[..<colon]).trimmingWhitespace(), String(header[header.index(after: colon)...]).trimmingWhitespace())
            // A lone CR (lines end at LF) or NUL would start another header when the stub answers.
            guard !HeaderLineBreaks.isUnsafe(name), !HeaderLineBreaks.isUnsafe(value) else {
                throw failure(index + 1, "the header \"\(name.prefix(60))\" holds a carriage return or NUL", "Remove the stray CR or NUL from the header line")
            }
            headers.add(name: name, value: value)
            index += 1
        }
        // Everything after the blank line is the body, byte for byte.
        let bodyText = index + 1 < lines.count ? String(text[lines[index + 1].startIndex...]) : ""
        if let contentType = headers["Content-Type"], contentType.lowercased().replacingOccurrences(of: " ", with: "").hasSuffix(";base64"),
            let marker = contentType.lastIndex(of: ";")
        {
            headers["Content-Type"] = String(contentType[..<marker]).trimmingWhitespace()
            guard let data = Data(base64Encoded: bodyText.filter { !$0.isWhitespace }) else {
                throw failure(index + 2, "the body is not valid base64 though Content-Type ends in ;base64", "Encode the body as base64, or drop ;base64 from Content-Type")
            }
            body = data
            isBase64 = true
        } else {
            body = Data(bodyText.utf8)
            isBase64 = false
        }
        self.headers = headers
        self.file = file
    }

    /// Whether this stub answers `method` and `url`.
    package func matches(method: String, url: URL) -> Bool {
        self.method.matches(method) && self.url.matches(url.absoluteString)
    }

    /// The response with `{{ key }}` placeholders filled from `values`; unknown keys stay as written.
    package func response(values: [String: String] = [:], for url: URL? = nil) -> Track.Response {
        var body = self.body
        if !isBase64, !values.isEmpty, let text = String(data: body, encoding: .utf8), text.contains("{{") {
            body = Data(Self.fill(text, values: values).utf8)
        }
        var headers = self.headers
        if headers["Content-Length"] != nil { headers["Content-Length"] = String(body.count) }
        return Track.Response(status: status, headers: headers, body: body, url: url)
    }

    /// A line end: LF, or CRLF, which a Swift string holds as one `Character`, so splitting at
    /// "\n" alone left a Windows file one long line.
    private static func endsLine(_ character: Character) -> Bool {
        character == "\n" || character == "\r\n"
    }

    /// Replaces `{{ key }}` (spaces optional) with `values[key]`.
    static func fill(_ text: String, values: [String: String]) -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.range(of: "{{") {
            result += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].range(of: "}}") else {
                rest = rest[open.lowerBound...]
                break
            }
            let key = String(rest[open.upperBound..<close.lowerBound]).trimmingWhitespace()
            if let value = values[key] {
                result += value
            } else {
                result += rest[open.lowerBound..<close.upperBound]
            }
            rest = rest[close.upperBound...]
        }
        return result + rest
    }
}

/// A compiled regular expression. `NSRegularExpression` is immutable and documented as
/// safe to use from many threads, but Foundation does not mark it `Sendable`.
private struct Pattern: @unchecked Sendable {
    let expression: NSRegularExpression

    init(_ pattern: String, caseInsensitive: Bool) throws {
        expression = try NSRegularExpression(pattern: pattern, options: caseInsensitive ? [.caseInsensitive] : [])
    }

    func matches(_ text: String) -> Bool {
        expression.firstMatch(in: text, options: [], range: NSRange(text.startIndex..., in: text)) != nil
    }
}
