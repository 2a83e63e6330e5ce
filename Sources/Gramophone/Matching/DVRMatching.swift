import Foundation

/// How DVR's `Session` found the interaction for a request (`Cassette.interactionForRequest`),
/// so cassettes DVR recorded replay as they did under DVR.
///
/// An interaction agrees with the request when the method is the same, the URL is the same
/// text (`URL ==`: `http://example.com` is not `http://example.com/`, query order counts),
/// except parameters named in `parametersToIgnore`, and the body is the same as DVR reads it
/// (`Interaction.encodeBody`, by each side's exact `Content-Type` key: text under `text/…`,
/// a JSON value under `application/json…`, base64 otherwise; bytes when that reading fails).
/// Of the interactions that agree, the first answers, unless a later one also has the same
/// values for `headersToCheck` (names as written, as DVR looked them up): then the last such
/// one does. With no headers to check, the last agreeing interaction answers.
struct DVRMatching: Sendable {
    var headersToCheck: [String]
    var parametersToIgnore: [String]

    /// What the track index keys (the method) and checks within a bucket (the URL and body).
    var matchers: [Matcher] {
        let ignored = parametersToIgnore
        return [
            .method,
            .custom("url ==") { live, recorded in Self.urlsAgree(live.url, recorded.url, ignoring: ignored) },
            .custom("body as DVR reads it") { live, recorded in Self.bodiesAgree(live, recorded) },
        ]
    }

    /// For miss reports and `description`.
    var description: String {
        var text = "DVR's (method, URL ==, body as DVR reads it; the last agreeing interaction answers"
        if !headersToCheck.isEmpty { text += ", or the last that also agrees on headers \(headersToCheck.joined(separator: ", "))" }
        if !parametersToIgnore.isEmpty { text += "; query parameters ignored: \(parametersToIgnore.joined(separator: ", "))" }
        return text + ")"
    }

    /// The track DVR would have answered with, among those the index found agreeing.
    func select(from candidates: [Int], live: Track.Request, tracks: [Track]) -> Int? {
        var match: Int?
        for candidate in candidates where match == nil || headersAgree(live, tracks[candidate].request) {
            match = candidate
        }
        return match
    }

    /// DVR compared `allHTTPHeaderFields[name]`: a dictionary lookup by the name as written.
    func headersAgree(_ a: Track.Request, _ b: Track.Request) -> Bool {
        headersToCheck.allSatisfy { a.headers.value(exactlyNamed: $0) == b.headers.value(exactlyNamed: $0) }
    }

    static func urlsAgree(_ a: URL, _ b: URL, ignoring parameters: [String]) -> Bool {
        if a.absoluteString == b.absoluteString { return true }
        guard !parameters.isEmpty else { return false }
        return withoutParameters(a, parameters) == withoutParameters(b, parameters)
    }

    /// DVR's `createRequest(withoutKeys:)`: the URL with those query items removed.
    private static func withoutParameters(_ url: URL, _ names: [String]) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.absoluteString }
        components.queryItems = components.queryItems?.filter { !names.contains($0.name) }
        return components.url?.absoluteString ?? url.absoluteString
    }

    /// A body as `Interaction.encodeBody` turns it into a value DVR compares with `isEqual`.
    enum Reading: Equatable {
        /// A string: the text under `text/…`, the base64 otherwise (two strings compare as strings).
        case string(Data)
        /// A JSON array or object, by its canonical text (key order and number spelling aside).
        case json(String)
    }

    /// Nil where DVR's reading gives nil: text that is not UTF-8, JSON that is not an array or object.
    static func reading(_ body: Data, _ headers: Headers) -> Reading? {
        if let type = headers.value(exactlyNamed: "Content-Type") {
            if type.hasPrefix("text/") { return UTF8Validation.isValid(body) ? .string(body) : nil }
            if type.hasPrefix("application/json") {
                guard let value = try? JSONParser.parse(body), value.arrayValue != nil || value.objectMembers != nil else { return nil }
                return .json(BodyComparison().json.canonicalText(value))
            }
        }
        return .string(Data(body.base64EncodedString().utf8))
    }

    /// `hasHTTPBodyEqualToThatOfRequest`: both read, the readings; else the bytes. (DVR's nil
    /// body and an empty one differed; a request here has no way to tell them apart.)
    static func bodiesAgree(_ a: Track.Request, _ b: Track.Request) -> Bool {
        guard !a.body.isEmpty, !b.body.isEmpty, let x = reading(a.body, a.headers), let y = reading(b.body, b.headers) else {
            return a.body == b.body
        }
        return x == y
    }

    /// One line per differing part, live value first; two sides never print alike.
    static func differences(live: Track.Request, recorded: Track.Request, parametersToIgnore: [String]) -> [String] {
        var lines: [String] = []
        if live.method != recorded.method { lines.append("method: \(live.method) vs \(recorded.method)") }
        if !urlsAgree(live.url, recorded.url, ignoring: parametersToIgnore) {
            lines.append("url: \(live.url.absoluteString) vs \(recorded.url.absoluteString) (DVR compares URLs as written)")
        }
        if !bodiesAgree(live, recorded) {
            lines.append(
                BodyComparison.bytesDifference(
                    live.body, recorded.body, sameBytes: "read by DVR as \(readingName(live)) vs \(readingName(recorded)) (each side's Content-Type decides)"))
        }
        return lines
    }

    private static func readingName(_ request: Track.Request) -> String {
        let type = request.headers.value(exactlyNamed: "Content-Type")
        switch reading(request.body, request.headers) {
        case .json: return "JSON (\(type ?? ""))"
        case .string where type?.hasPrefix("text/") == true: return "text (\(type ?? ""))"
        case .string: return "base64 (\(type.map { "Content-Type \($0)" } ?? "no Content-Type"))"
        case nil: return "bytes (\(type ?? "")), unreadable as its type says"
        }
    }
}
