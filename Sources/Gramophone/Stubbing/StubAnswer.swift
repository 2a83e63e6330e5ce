import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A stub's response made concrete for one request: dynamic responses computed, echoes
/// built, placeholders filled in; plus how it is to be delivered.
struct StubAnswer: Sendable {
    var outcome: Result<(HTTPURLResponse, Data), any Error>
    var condition: NetworkCondition
    var cachePolicy: URLCache.StoragePolicy
    /// The chunks of a streaming stub (`.events`, `.chunks`).
    var stream: TrackStream?
    /// The response's fields as the stub gives them, repeats apart (the `HTTPURLResponse` joins them).
    var headers: Headers?

    /// Dynamic providers may return dynamic responses; a chain this long is a mistake.
    private static let maximumDynamicDepth = 16

    nonisolated(nonsending) static func make(_ response: StubResponse, for request: StubRequest, placeholders: [String: String], condition override: NetworkCondition?) async -> StubAnswer {
        var current = response
        var condition = response.condition
        func failed(_ error: any Error) -> StubAnswer { StubAnswer(outcome: .failure(error), condition: condition, cachePolicy: .notAllowed) }
        var depth = 0
        while case .dynamic(let provider) = current.kind {
            depth += 1
            guard depth <= maximumDynamicDepth else {
                return failed(URLError(.badServerResponse, userInfo: [NSLocalizedDescriptionKey: "a dynamic stub response returned dynamic responses \(maximumDynamicDepth) times in a row"]))
            }
            do {
                current = try await provider(request)
            } catch {
                return failed(error)
            }
            // The computed response's own condition wins over the provider's.
            if current.condition != .immediate { condition = current.condition }
        }
        if let override { condition = override }
        let url = request.request.url
        if condition == .down { return failed(Track.Failure(.notConnectedToInternet).makeError(for: url)) }
        let answered: Track.Response
        switch current.kind {
        case .fixed(.response(var fixed)):
            // A stream's chunks are its own bytes: placeholders would move their boundaries.
            if fixed.stream == nil {
                let filled = Placeholders.fill(fixed.body, variables: request.variables, values: placeholders)
                if filled != fixed.body, fixed.headers["Content-Length"] != nil { fixed.headers["Content-Length"] = String(filled.count) }
                fixed.body = filled
            }
            answered = fixed
        case .fixed(.failure(let failure)):
            return failed(failure.makeError(for: url))
        case .echo(let status):
            answered = Track.Response(status: status, headers: ["Content-Type": "application/json"], body: echoBody(request.request))
        case .dynamic:
            // The loop above leaves no dynamic response behind.
            return failed(URLError(.unknown))
        }
        return StubAnswer(
            outcome: .success((answered.httpURLResponse(for: url), answered.body)), condition: condition, cachePolicy: current.cachePolicy,
            stream: answered.stream, headers: answered.headers)
    }

    static func echoBody(_ request: Track.Request) -> Data {
        var headers: [String: String] = [:]
        for field in request.headers.fields { headers[field.name] = request.headers[field.name] }
        var object: [String: Any] = ["method": request.method, "url": request.url.absoluteString, "headers": headers]
        if UTF8Validation.isValid(request.body) {
            object["body"] = String(decoding: request.body, as: UTF8.self)
        } else {
            object["bodyBase64"] = request.body.base64EncodedString()
        }
        // Only strings and string dictionaries: always a valid JSON object.
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    }
}

/// Mocktail-style `{{ name }}` placeholders in stub bodies.
///
/// Values come from the variables the stub's matchers captured, then from the placeholders
/// set on the stubber or Turntable. A placeholder with no value is left as written, so a body
/// that happens to contain `{{` is not damaged.
enum Placeholders {
    private static let pattern = (try? NSRegularExpression(pattern: "\\{\\{\\s*([A-Za-z0-9_.-]+)\\s*\\}\\}", options: [])).map(RegexBox.init)

    static func fill(_ body: Data, variables: [String: String], values: [String: String]) -> Data {
        if variables.isEmpty && values.isEmpty { return body }
        // Cheap test first: most bodies have no "{{" at all.
        guard let pattern, body.range(of: Data("{{".utf8)) != nil, UTF8Validation.isValid(body) else { return body }
        let text = String(decoding: body, as: UTF8.self)
        let matches = pattern.value.matches(in: text, options: [], range: NSRange(text.startIndex..., in: text))
        guard !matches.isEmpty else { return body }
        var result = ""
        var cursor = text.startIndex
        for match in matches {
            guard let whole = Range(match.range, in: text), let nameRange = Range(match.range(at: 1), in: text) else { continue }
            let name = String(text[nameRange])
            result += text[cursor..<whole.lowerBound]
            result += variables[name] ?? values[name] ?? String(text[whole])
            cursor = whole.upperBound
        }
        result += text[cursor...]
        return Data(result.utf8)
    }
}
