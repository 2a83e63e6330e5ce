import Foundation

// One-line tracks for tests and stubs:
//
//     Track("GET https://api.example.com/users/42", .json(#"{"id":42}"#))
//     Track("POST https://api.example.com/users", .json(#"{"id":43}"#, status: 201))
//     Track("https://api.example.com/logo.png", .data(png, contentType: "image/png"))
//     Track("https://api.example.com/feed", .error(.notConnectedToInternet))
//     Track("https://api.example.com/feed", .status(200).failing(with: URLError(.networkConnectionLost)))

extension Track {
    /// A track that answers `request` with `outcome`: `Track("GET https://api.example.com/users/42", .json(#"{"id":42}"#))`.
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
    public func json(_ body: String) -> Self { self.body(Data(body.utf8), contentType: "application/json") }

    /// The same request with a body.
    public func body(_ body: Data, contentType: String? = nil) -> Self {
        var copy = self
        copy.body = body
        if let contentType { copy.headers["Content-Type"] = contentType }
        return copy
    }
}

extension Track.Outcome {
    // The response vocabulary. `StubResponse` has the same factories with the same parameters
    // and defaults, and builds on these, so a track and a stub are written alike.

    /// A JSON response from its text, served byte for byte (`.json(#"{"id":42}"#)`).
    public static func json(_ text: String, status: Int = 200, headers: Headers = [:]) -> Self {
        .response(Track.Response(status: status, headers: headers.setting("Content-Type", "application/json"), body: Data(text.utf8)))
    }

    /// A JSON response encoding `value`; by default with sorted keys and unescaped slashes,
    /// so the bytes are stable from run to run.
    /// - Throws: `EncodingError` when `value` cannot be encoded.
    public static func json(encoding value: some Encodable, status: Int = 200, headers: Headers = [:], encoder: JSONEncoder? = nil) throws -> Self {
        .response(Track.Response(status: status, headers: headers.setting("Content-Type", "application/json"), body: try Self.encode(value, with: encoder)))
    }

    /// A text response, UTF-8 encoded (`text/plain; charset=utf-8` unless `contentType` says otherwise).
    public static func text(_ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8", headers: Headers = [:]) -> Self {
        .response(Track.Response(status: status, headers: headers.setting("Content-Type", contentType), body: Data(text.utf8)))
    }

    /// A response with these bytes as its body (`application/octet-stream` unless
    /// `contentType` says otherwise; nil sends no `Content-Type`).
    public static func data(_ body: Data, status: Int = 200, contentType: String? = "application/octet-stream", headers: Headers = [:]) -> Self {
        .response(Track.Response(status: status, headers: contentType.map { headers.setting("Content-Type", $0) } ?? headers, body: body))
    }

    /// A response with no body, e.g. `.status(204)`.
    public static func status(_ status: Int, headers: Headers = [:]) -> Self {
        .response(Track.Response(status: status, headers: headers))
    }

    /// A transport error, replayed as `URLError(code)`.
    public static func error(_ code: URLError.Code) -> Self {
        .failure(Track.Failure(code))
    }

    /// The same response, then `error`: the transfer failed after the response arrived, as
    /// `.status(400).failing(with: URLError(.networkConnectionLost))`. Sets
    /// ``Track/Response/failure``; an `NSError` of any domain keeps its domain, code and
    /// description. On an outcome that is already an error, the error becomes `error`.
    public func failing(with error: any Error) -> Self {
        switch self {
        case .response(var response):
            response.failure = Track.Failure(error)
            return .response(response)
        case .failure:
            return .failure(Track.Failure(error))
        }
    }

    static func encode(_ value: some Encodable, with encoder: JSONEncoder?) throws -> Data {
        if let encoder { return try encoder.encode(value) }
        let stable = JSONEncoder()
        stable.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try stable.encode(value)
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
