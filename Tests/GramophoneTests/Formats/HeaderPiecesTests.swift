import Foundation
import Testing

@testable import Gramophone

/// Header values as real servers send them: empty pieces between semicolons, pieces without
/// `=`, trailing separators. Issue 19: `Set-Cookie: session=abc; ; Secure` crashed HAR export.
@Suite struct HeaderPiecesTests {
    static let cookieVinyl = """
        [{"request": {"url": "https://api.example.com/login", "method": "POST"},
          "response": {"status": 200, "headers": {"Set-Cookie": "session=abc; ; Secure", "Content-Type": "text/plain"}, "body": "ok"}}]
        """

    @Test func aSetCookieWithAnEmptyAttributeConvertsToHARThroughTheCLI() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try CLITests.write(Self.cookieVinyl, to: "cookie.json", in: folder)
        let output = folder.appendingPathComponent("cookie.har")
        // As the issue's user ran it: converted, the cookie redacted as a recording would be.
        let redacted = try await CLITests.run("convert", input, output.path)
        #expect(redacted.status == 0, "\(redacted.stderr)")
        #expect(try Vinyl(contentsOf: output).tracks.first?.response?.headers["Set-Cookie"] == nil)
        // Kept, the header reaches the HAR writer's cookie parsing, which trapped.
        let result = try await CLITests.run("convert", input, output.path, "--keep-secrets")
        #expect(result.status == 0, "\(result.stderr)")
        let har = try Vinyl(contentsOf: output)
        #expect(har.tracks.first?.response?.headers["Set-Cookie"] == "session=abc; ; Secure")
        let written = try JSONParser.parse(try Data(contentsOf: output))
        let cookies = written["log"]?["entries"]?.arrayValue?.first?["response"]?["cookies"]?.arrayValue
        #expect(cookies == [.object([("name", .string("session")), ("value", .string("abc")), ("secure", .bool(true))])])
    }

    @Test(arguments: [
        ("session=abc; ; Secure", "session", "abc", ["secure"]),
        ("a=1;;;Path=/x;", "a", "1", ["path"]),
        ("a=; HttpOnly; =; ;", "a", "", ["httpOnly"]),
        ("token=x=y; Domain=example.com ; Expires=Wed, 21 Oct 2026 07:28:00 GMT", "token", "x=y", ["domain", "expires"]),
    ])
    func setCookieAttributesSkipEmptyPieces(_ line: String, name: String, value: String, attributes: [String]) throws {
        let cookie = try #require(HARFormat.responseCookies(["Set-Cookie": line]).first?.objectMembers)
        #expect(cookie.count >= 2 && cookie[0].value == .string(name) && cookie[1].value == .string(value))
        #expect(cookie.dropFirst(2).map(\.key) == attributes)
    }

    @Test(arguments: ["", ";", " ; ; ", "=abc; Secure", "; session=abc", "=;"])
    func aSetCookieWithoutACookieNameGivesNoHARCookie(_ line: String) {
        #expect(HARFormat.responseCookies(["Set-Cookie": line]).isEmpty)
    }

    @Test func aContentTypeWithAnEmptyTypeHasAnEmptyMediaType() {
        #expect(Headers(["Content-Type": ";charset=utf-8"]).mediaType == "")
        #expect(Headers(["Content-Type": " application/JSON ; ; charset=utf-8"]).mediaType == "application/json")
    }

    @Test func harDropsAContentEncodingWhosePiecesAreEmptyOrCompressions() throws {
        let har =
            #"{"log": {"entries": [{"request": {"url": "https://a.example/"}, "response": {"status": 200, "headers": [{"name": "Content-Encoding", "value": "gzip, , br,"}], "content": {"text": "plain"}}}]}}"#
        let vinyl = try Vinyl(data: Data(har.utf8), name: "h", format: .har)
        #expect(vinyl.tracks[0].response?.headers["Content-Encoding"] == nil)
    }

    @Test func requestCookiesSkipEmptyAndNamelessPieces() {
        let cookies = HARFormat.requestCookies(["Cookie": "a=1; ; =x;b; c=3;"])
        #expect(cookies.map { $0["name"]?.stringValue ?? "?" } == ["a", "b", "c"])
        #expect(cookies.map { $0["value"]?.stringValue ?? "?" } == ["1", "", "3"])
    }

    @Test func aFormFieldWithAnEmptyNameIsNotReadAsItsValue() {
        // `=token=abc` is a field with an empty name whose value is `token=abc`, not a field `token`.
        let vinyl = Vinyl(
            name: "form",
            tracks: [
                Track(
                    request: Track.Request(
                        method: "POST", url: URL(string: "https://h.example/login")!,
                        headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data("=token=abcdef&password=&x=1".utf8)),
                    outcome: .status(200))
            ])
        #expect(vinyl.likelySecrets().filter { $0.place.contains("form field") }.isEmpty)
    }
}
