import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a stub answers: a response, an error, a response computed from the request, or the
/// request echoed back; plus how it travels (`NetworkCondition`) and may be cached.
///
/// Build one with a static constructor and adjust it with the modifiers:
///
/// ```swift
/// try .json(User(id: 7)).status(201).header("Location", "/users/7").delivered(.throughput(.edge))
/// ```
public struct StubResponse: Sendable {
    enum Kind: Sendable {
        case fixed(Track.Response)
        case failure(Track.Failure)
        case dynamic(@Sendable (StubRequest) async throws -> StubResponse)
        case echo(status: Int)
    }

    var kind: Kind
    /// How the response travels.
    public var condition: NetworkCondition = .immediate
    /// What a `URLCache` may do with the response (URLSession paths only; the default is not to store it).
    public var cachePolicy: URLCache.StoragePolicy = .notAllowed

    init(kind: Kind) { self.kind = kind }

    // MARK: Responses

    /// A response with this status, headers and body.
    public static func response(status: Int = 200, headers: [String: String] = [:], body: Data = Data()) -> StubResponse {
        StubResponse(kind: .fixed(Track.Response(status: status, headers: Headers(headers), body: body)))
    }

    /// An empty response with this status.
    public static func status(_ status: Int) -> StubResponse { response(status: status) }

    /// A response with these bytes as its body.
    public static func data(_ body: Data, status: Int = 200, contentType: String? = nil) -> StubResponse {
        response(status: status, body: body).contentType(contentType)
    }

    /// A response with this text as its body, UTF-8 encoded (`text/plain` unless you say otherwise).
    public static func text(_ body: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8") -> StubResponse {
        data(Data(body.utf8), status: status, contentType: contentType)
    }

    /// A response with `value` encoded as its JSON body and `Content-Type: application/json`.
    /// - Throws: `StubError.unencodable` when `value` cannot be encoded.
    public static func json(_ value: some Encodable, status: Int = 200, encoder: JSONEncoder = JSONEncoder()) throws(StubError) -> StubResponse {
        do {
            return data(try encoder.encode(value), status: status, contentType: "application/json")
        } catch {
            throw StubError.unencodable("\(type(of: value))", problem: "\(error)")
        }
    }

    /// A response with a dictionary (or array) of JSON-compatible values as its JSON body.
    /// - Throws: `StubError.unencodable` when the object holds values JSON cannot express.
    public static func json(object: Any, status: Int = 200) throws(StubError) -> StubResponse {
        // JSONSerialization traps on invalid objects instead of throwing: ask first.
        guard JSONSerialization.isValidJSONObject(object), let body = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
            throw StubError.unencodable("\(type(of: object))", problem: "it is not a dictionary or array of strings, numbers, booleans, nulls, arrays and dictionaries")
        }
        return data(body, status: status, contentType: "application/json")
    }

    /// A response with a file's content as its body, read now.
    /// - Throws: `StubError.unreadableFile` when the file cannot be read.
    public static func file(_ url: URL, status: Int = 200, contentType: String? = nil) throws(StubError) -> StubResponse {
        do {
            return data(try Data(contentsOf: url), status: status, contentType: contentType ?? Self.contentType(forExtension: url.pathExtension))
        } catch {
            throw StubError.unreadableFile(url.path, problem: (error as NSError).localizedDescription)
        }
    }

    /// The request fails with this `URLError` (e.g. `.notConnectedToInternet`, `.timedOut`).
    public static func error(_ code: URLError.Code) -> StubResponse {
        StubResponse(kind: .failure(Track.Failure(code)))
    }

    /// The request fails with this error (kept as its domain, code and description).
    public static func error(_ error: any Error) -> StubResponse {
        StubResponse(kind: .failure(Track.Failure(error)))
    }

    /// A response computed for each request, from the request and the variables the stub's
    /// matchers captured. An error thrown by `provider` fails the request.
    public static func dynamic(_ provider: @escaping @Sendable (StubRequest) async throws -> StubResponse) -> StubResponse {
        StubResponse(kind: .dynamic(provider))
    }

    /// The request sent back as JSON: `{"method", "url", "headers", "body"}` (`bodyBase64`
    /// instead of `body` when the body is not UTF-8). Handy to check what a client sends.
    public static func echo(status: Int = 200) -> StubResponse { StubResponse(kind: .echo(status: status)) }

    // MARK: Modifiers

    /// The same response with another status.
    public func status(_ status: Int) -> StubResponse {
        changingFixed { $0.status = status }
    }

    /// The same response with the header `name` set to `value`.
    public func header(_ name: String, _ value: String) -> StubResponse {
        changingFixed { $0.headers[name] = value }
    }

    /// The same response with these headers set.
    public func headers(_ headers: [String: String]) -> StubResponse {
        changingFixed { response in for (name, value) in headers.sorted(by: { $0.key < $1.key }) { response.headers[name] = value } }
    }

    /// The same response with `Content-Type` set (nil leaves it as it is).
    public func contentType(_ contentType: String?) -> StubResponse {
        guard let contentType else { return self }
        return header("Content-Type", contentType)
    }

    /// The same response, travelling as `condition` says.
    public func delivered(_ condition: NetworkCondition) -> StubResponse {
        var copy = self
        copy.condition = condition
        return copy
    }

    /// The same response, arriving after `seconds`.
    public func delayed(by seconds: TimeInterval) -> StubResponse { delivered(.delayed(seconds)) }

    /// The same response, with this cache storage policy.
    public func cachePolicy(_ policy: URLCache.StoragePolicy) -> StubResponse {
        var copy = self
        copy.cachePolicy = policy
        return copy
    }

    private func changingFixed(_ change: (inout Track.Response) -> Void) -> StubResponse {
        var copy = self
        switch kind {
        case .fixed(var response):
            change(&response)
            copy.kind = .fixed(response)
        case .echo(let status):
            // An echo's status can change; its headers and body are the request's.
            var response = Track.Response(status: status)
            change(&response)
            copy.kind = .echo(status: response.status)
        case .failure, .dynamic:
            break
        }
        return copy
    }

    private static func contentType(forExtension ext: String) -> String? {
        switch ext.lowercased() {
        case "json": return "application/json"
        case "txt": return "text/plain; charset=utf-8"
        case "html", "htm": return "text/html; charset=utf-8"
        case "xml": return "application/xml"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "pdf": return "application/pdf"
        default: return nil
        }
    }
}

/// The request a dynamic stub response is computed from.
public struct StubRequest: Sendable {
    /// The request as sent.
    public var request: Track.Request
    /// Values captured by the stub's matchers: `{id}` in a path pattern or URI template, or a
    /// named group of a URL regex.
    public var variables: [String: String]

    /// The body decoded as JSON into `type`.
    public func decodeJSON<T: Decodable>(_ type: T.Type, decoder: JSONDecoder = JSONDecoder()) throws -> T {
        try decoder.decode(type, from: request.body)
    }
}
