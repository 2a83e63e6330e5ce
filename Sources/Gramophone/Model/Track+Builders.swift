import Foundation

// One-line tracks for tests and stubs:
//
//     Track("GET https://api.example.com/users/42", .json(#"{"id":42}"#))
//     Track("POST https://api.example.com/users", .json(#"{"id":43}"#, status: 201))
//     Track("https://api.example.com/logo.png", .data(png, contentType: "image/png"))
//     Track("https://api.example.com/feed", .error(.notConnectedToInternet))

extension Track {
    public init(_ request: Request, _ outcome: Outcome) {
        self.init(request: request, outcome: outcome)
    }
}

extension Track.Request: ExpressibleByStringLiteral {
    /// `"METHOD URL"` or just `"URL"` (GET). A literal is written by the test's author, so an
    /// unparsable one stops at once with the literal in the message, like `URL(string:)!` would.
    public init(stringLiteral value: StaticString) {
        let text = value.description
        let parts = text.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        let method = parts.count == 2 ? String(parts[0]) : "GET"
        let urlText = parts.count == 2 ? String(parts[1]) : text
        guard let url = URL(string: urlText.trimmingWhitespace()), url.scheme != nil else {
            preconditionFailure("Track.Request literal \"\(text)\" is not \"METHOD URL\" with an absolute URL")
        }
        self.init(method: method, url: url)
    }

    /// The same request with a header added.
    public func header(_ name: String, _ value: String) -> Self {
        var copy = self
        copy.headers.add(name: name, value: value)
        return copy
    }

    /// The same request with a JSON body (and its content type).
    public func json(_ body: String) -> Self {
        var copy = self
        copy.body = Data(body.utf8)
        copy.headers["Content-Type"] = "application/json"
        return copy
    }

    /// The same request with a body.
    public func body(_ body: Data, contentType: String? = nil) -> Self {
        var copy = self
        copy.body = body
        if let contentType { copy.headers["Content-Type"] = contentType }
        return copy
    }
}

extension Track.Outcome {
    /// A JSON response from its text.
    public static func json(_ body: String, status: Int = 200, headers: Headers = [:]) -> Self {
        .response(Track.Response(status: status, headers: headers.setting("Content-Type", "application/json"), body: Data(body.utf8)))
    }

    /// A JSON response encoding `value` (sorted keys, so the bytes are stable).
    public static func json<Value: Encodable>(encoding value: Value, status: Int = 200, headers: Headers = [:]) throws -> Self {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return .response(Track.Response(status: status, headers: headers.setting("Content-Type", "application/json"), body: try encoder.encode(value)))
    }

    /// A text response (`text/plain; charset=utf-8` unless `contentType` says otherwise).
    public static func text(_ body: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8", headers: Headers = [:]) -> Self {
        .response(Track.Response(status: status, headers: headers.setting("Content-Type", contentType), body: Data(body.utf8)))
    }

    /// A response with raw bytes.
    public static func data(_ body: Data, status: Int = 200, contentType: String? = "application/octet-stream", headers: Headers = [:]) -> Self {
        var headers = headers
        if let contentType { headers["Content-Type"] = contentType }
        return .response(Track.Response(status: status, headers: headers, body: body))
    }

    /// A response with no body, e.g. `.status(204)`.
    public static func status(_ status: Int, headers: Headers = [:]) -> Self {
        .response(Track.Response(status: status, headers: headers))
    }

    /// A transport error, replayed as `URLError(code)`.
    public static func error(_ code: URLError.Code) -> Self {
        .failure(Track.Failure(code))
    }
}

extension Headers {
    func setting(_ name: String, _ value: String) -> Headers {
        guard !contains(name) else { return self }
        var copy = self
        copy[name] = value
        return copy
    }
}
