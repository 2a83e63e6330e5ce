import Foundation
import Testing

@testable import Gramophone

/// Plain URLs are taken apart without URLComponents on the replay path; matching must not
/// change, so the fast reader has to agree with URLComponents on every URL it accepts.
@Suite struct RequestPartsReaderTests {
    static func viaComponents(_ url: URL) -> RequestParts? {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return nil }
        let scheme = (components.scheme ?? "").lowercased()
        let port = components.port == RequestParts.defaultPort(for: scheme) ? nil : components.port
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        return RequestParts(
            method: "GET", scheme: scheme, host: (components.host ?? "").lowercased(), port: port, path: path,
            query: (components.queryItems ?? []).map { .init(name: $0.name, value: $0.value) }.sorted())
    }

    @Test(arguments: [
        "https://api.example.com/users/42", "https://API.Example.COM/Users/42", "http://example.com", "http://example.com:80/a",
        "https://example.com:443", "https://example.com:8443/x/y/", "HTTPS://example.com/?b=2&a=1", "https://example.com/p?a=1&a=0&b",
        "https://example.com/p?a=&b==c&=v", "https://example.com/p#frag", "https://example.com/p?q=1#frag", "ws://host:81/socket",
        "https://example.com/a+b?x=y+z", "https://example.com/~user/file.json?x=a/b:c", "custom-scheme.v2://thing/path?k=v",
    ])
    func plainReaderAgreesWithURLComponents(_ text: String) throws {
        let url = try #require(URL(string: text))
        let plain = try #require(RequestParts.plainParts(of: url.absoluteString), "\(text) should take the fast path")
        let expected = try #require(Self.viaComponents(url))
        // The replay's key takes the URL's own text when the reader says it prints as `urlText`.
        #expect(plain.isURLText == (expected.urlText == url.absoluteString), "\(text)")
        #expect(RequestParts(method: "GET", url: url).urlText == expected.urlText)
        #expect(plain.scheme == expected.scheme)
        #expect(plain.host == expected.host)
        #expect(plain.port == expected.port)
        #expect(plain.path == expected.path)
        #expect(plain.query == expected.query)
    }

    @Test(arguments: [
        "https://example.com/caf%C3%A9?name=%41", "https://user:pw@example.com/", "http://[::1]:8080/x", "https://example.com/p?",
        "https://example.com/p?a=1&&b=2", "https://example.com/p;params", "file:///tmp/x.json", "mailto:someone@example.com",
    ])
    func unusualURLsGoToURLComponents(_ text: String) throws {
        let url = try #require(URL(string: text))
        #expect(RequestParts.plainParts(of: url.absoluteString) == nil)
        let parts = RequestParts(method: "get", url: url)
        let expected = try #require(Self.viaComponents(url))
        #expect(parts.method == "GET")
        #expect(parts.host == expected.host && parts.path == expected.path && parts.query == expected.query && parts.port == expected.port)
    }
}
