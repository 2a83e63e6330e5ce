import Foundation
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Mocktail `.tail` folders answer requests as Mocktail does: regex matching, the longest
/// URL pattern wins, base64 bodies, `{{ key }}` placeholders.
@Suite struct MocktailTests {
    static func collection() throws -> MocktailCollection {
        try MocktailCollection(contentsOf: FormatFiles.resource("Mocktail"))
    }

    static func request(_ method: String, _ url: String) throws -> Track.Request {
        Track.Request(method: method, url: try #require(URL(string: url)))
    }

    @Test func loadsEveryTailFileInNameOrder() throws {
        let stubs = try Self.collection().stubs
        #expect(stubs.map { URL(fileURLWithPath: $0.file ?? "").lastPathComponent } == ["catchall.tail", "create.tail", "logo.tail", "user.tail", "user42.tail"])
    }

    @Test func methodAndURLPatternsAreRegularExpressions() throws {
        let mocktail = try Self.collection()
        #expect(mocktail.response(for: try Self.request("POST", "https://api.example.com/users"))?.status == 201)
        // The method pattern must match the whole method: POST is not GET|HEAD.
        #expect(mocktail.response(for: try Self.request("POST", "https://api.example.com/other")) == nil)
        #expect(mocktail.response(for: try Self.request("HEAD", "https://api.example.com/other"))?.status == 404)
        // The URL pattern may match any part of the URL.
        #expect(mocktail.stub(method: "GET", url: try #require(URL(string: "http://localhost:8080/v2/users/7?x=1")))?.urlPattern == "/users/[0-9]+")
    }

    @Test func longestMatchingURLPatternWins() throws {
        let mocktail = try Self.collection()
        // /users/42 matches `.*`, `/users/[0-9]+` and `api\.example\.com/users/42$`: the longest wins.
        let specific = try #require(mocktail.response(for: try Self.request("GET", "https://api.example.com/users/42")))
        #expect(specific.headers["X-Stub"] == "specific")
        let general = try #require(mocktail.response(for: try Self.request("GET", "https://api.example.com/users/7")))
        #expect(general.headers["X-Stub"] == nil)
        #expect(mocktail.response(for: try Self.request("GET", "https://api.example.com/nothing"))?.status == 404)
    }

    @Test func equallyLongPatternsKeepFileOrder() throws {
        let first = try MocktailStub(text: "GET\n/a.\n200\n\nfirst")
        let second = try MocktailStub(text: "GET\n/.b\n200\n\nsecond")
        let mocktail = MocktailCollection(stubs: [first, second])
        #expect(mocktail.response(for: try Self.request("GET", "https://x.example/ab"))?.body == Data("first".utf8))
    }

    @Test func base64BodiesAreDecodedAndTheMarkerRemoved() throws {
        let logo = try #require(try Self.collection().response(for: try Self.request("GET", "https://cdn.example.com/logo.png")))
        #expect(logo.body == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        #expect(logo.headers["Content-Type"] == "image/png")
    }

    @Test func placeholdersAreFilledFromValuesTheTestSets() throws {
        var mocktail = try Self.collection()
        mocktail["id"] = "7"
        mocktail["name"] = "Grace"
        let body = try #require(mocktail.response(for: try Self.request("GET", "https://api.example.com/users/7"))?.body)
        // An unknown key stays as written, so a missing value is visible in the output.
        #expect(String(decoding: body, as: UTF8.self) == #"{"id": 7, "name": "Grace", "missing": "{{ nothing }}"}"# + "\n")
        mocktail["id"] = nil
        let unfilled = try #require(mocktail.response(for: try Self.request("GET", "https://api.example.com/users/7"))?.body)
        #expect(String(decoding: unfilled, as: UTF8.self).hasPrefix(#"{"id": {{ id }}"#))
    }

    @Test func urlRequestsAreAnsweredToo() throws {
        var request = URLRequest(url: try #require(URL(string: "https://api.example.com/users")))
        request.httpMethod = "POST"
        let response = try #require(try Self.collection().response(for: Track.Request(request)))
        #expect(response.body == Data(#"{"created": true}"#.utf8) + Data("\n".utf8))
        #expect(response.url == request.url)
    }

    @Test(arguments: [
        ("GET\n/x\n", "line 3"),
        ("GET\n/x\nabc\n\n", "line 3"),
        ("GET\n(unclosed\n200\n\n", "line 2"),
        ("GET\n/x\n200\nNo colon here\n\n", "line 4"),
        ("GET\n/x\n200\nContent-Type: image/png;base64\n\n@@@not base64@@@", "line 6"),
    ])
    func malformedFilesNameTheLine(_ text: String, _ place: String) {
        #expect {
            try MocktailStub(text: text, file: "bad.tail")
        } throws: { error in
            let error = error as? VinylError
            return error?.kind == .malformed && error?.place == place && error?.file == "bad.tail"
        }
    }

    @Test func folderWithoutTailFilesIsAClearError() throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: VinylError.self) { try MocktailCollection(contentsOf: folder) }
    }
}
