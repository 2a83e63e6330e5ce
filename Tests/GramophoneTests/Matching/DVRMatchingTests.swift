import Foundation
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// DVR's cassettes answer as DVR's `Session` answered them.
///
/// What DVR does is read from its source, not from ours: `Cassette.interactionForRequest`
/// keeps every interaction whose method, `URL ==` and body (`hasHTTPBodyEqualToThatOfRequest`,
/// through `Interaction.encodeBody`) agree, the first of them unless a later one also agrees on
/// `headersToCheck`, so the last agreeing one answers. The requests below are those of DVR's
/// own `SessionTests` and `SessionUploadTests`, sent as a current Swift builds them.
@Suite struct DVRMatchingTests {
    static let store = VinylStore.folder(TestFiles.fixture("dvr"))

    private func text(_ turntable: Turntable, _ request: URLRequest) async throws -> (String, Int) {
        let (data, response) = try await turntable.data(for: request)
        return (String(decoding: data, as: UTF8.self), try #require(response as? HTTPURLResponse).statusCode)
    }

    // MARK: The 8 fixtures

    @Test func differentHeadersAnswersWithTheLastMatchAsDVRDid() async throws {
        // DVR's SessionTests has headersToCheck: ["Foo"]; without it, every request gets the last.
        let turntable = try Turntable(vinylNamed: "different-headers", from: Self.store)
        var request = URLRequest(url: URL(string: "http://example.com")!)
        request.setValue("Bar1", forHTTPHeaderField: "Foo")
        #expect(try await text(turntable, request).0 == "hello again")
        request.setValue("Bar2", forHTTPHeaderField: "Foo")
        #expect(try await text(turntable, request).0 == "hello again")
    }

    @Test func differentHeadersWithHeadersToCheckAnswersByFoo() async throws {
        let turntable = try Turntable(vinylNamed: "different-headers", from: Self.store, matching: .dvr(headersToCheck: ["Foo"]))
        var request = URLRequest(url: URL(string: "http://example.com")!)
        request.setValue("Bar1", forHTTPHeaderField: "Foo")
        #expect(try await text(turntable, request) == ("hello", 200))
        request.setValue("Bar2", forHTTPHeaderField: "Foo")
        #expect(try await text(turntable, request) == ("hello again", 200))
        // No interaction agrees on Foo: DVR keeps the first that agrees on the rest.
        request.setValue("Bar3", forHTTPHeaderField: "Foo")
        #expect(try await text(turntable, request).0 == "hello")
    }

    @Test func exampleAnswersAGetOfExampleCom() async throws {
        let turntable = try Turntable(vinylNamed: "example", from: Self.store)
        #expect(try await text(turntable, URLRequest(url: URL(string: "http://example.com")!)) == ("hello", 200))
    }

    @Test func exampleMissesAnotherURLSpelling() async throws {
        // DVR compares URLs with `==`: the response's trailing slash is not the request's URL.
        let turntable = try Turntable(vinylNamed: "example", from: Self.store)
        await #expect(throws: TurntableError.self) { try await turntable.data(from: URL(string: "http://example.com/")!) }
    }

    @Test func textMatchesTheBodyAsDVRDid() async throws {
        let turntable = try Turntable(vinylNamed: "text", from: Self.store)
        var request = URLRequest(url: URL(string: "http://example.com")!)
        request.httpMethod = "POST"
        request.httpBody = Data("Some text.".utf8)
        request.setValue("text/plain", forHTTPHeaderField: "Content-Type")
        #expect(try await text(turntable, request) == ("hello", 200))
        // Another body is another request to DVR: no answer.
        request.httpBody = Data("Other text.".utf8)
        let error = await #expect(throws: TurntableError.self) { try await turntable.data(for: request) }
        #expect("\(error.map(String.init(describing:)) ?? "")".contains("body"))
    }

    @Test func jsonExampleAnswersTheDownload() async throws {
        let turntable = try Turntable(vinylNamed: "json-example", from: Self.store)
        let (data, response) = try await turntable.data(from: URL(string: "https://www.howsmyssl.com/a/check")!)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(json["tls_version"] as? String == "TLS 1.2")
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
    }

    @Test func multipleAnswersAppleThenGoogle() async throws {
        let turntable = try Turntable(vinylNamed: "multiple", from: Self.store)
        #expect(try await text(turntable, URLRequest(url: URL(string: "http://apple.com")!)).1 == 200)
        #expect(try await text(turntable, URLRequest(url: URL(string: "http://google.com")!)).1 == 200)
    }

    @Test func failedRequestExampleAnswers401() async throws {
        let turntable = try Turntable(vinylNamed: "failed-request-example", from: Self.store)
        let request = URLRequest(url: URL(string: "http://cdn.contentful.com/spaces/cfexampleapi/entries")!)
        #expect(try await text(turntable, request).1 == 401)
    }

    /// DVR's upload test: the body as `encodeMultipartBody` builds it today (a `Data` boundary
    /// interpolates as "65 bytes"), the Content-Type from the same interpolation.
    static func uploadRequest() throws -> URLRequest {
        let boundary = "\(Data("---------------------------3klfenalksjflkjoi9auf89eshajsnl3kjnwal".utf8))"
        var request = URLRequest(url: URL(string: "https://httpbin.org/post")!)
        request.httpMethod = "POST"
        request.addValue("multipart/form-data; boundary=\(boundary)", forHTTPHeaderField: "Content-Type")
        let file = try Data(contentsOf: TestFiles.fixture("dvr/testfile.txt"))
        var body = Data("--\(boundary)\r\n".utf8)
        body += Data("Content-Disposition: form-data; name=\"file\"\r\n\r\n".utf8)
        body += file
        body += Data("\r\n--\(boundary)--\r\n".utf8)
        request.httpBody = body
        return request
    }

    @Test(arguments: ["upload-data", "upload-file"])
    func uploadAnswersTheMultipartBody(_ name: String) async throws {
        let turntable = try Turntable(vinylNamed: name, from: Self.store)
        let (data, response) = try await turntable.data(for: try Self.uploadRequest())
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect((json["form"] as? [String: Any])?["file"] as? String == "test file\n")
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
    }

    @Test(arguments: ["upload-data", "upload-file"])
    func uploadMatchesItsBodyUnderTheBodyMatcher(_ name: String) async throws {
        // The cassette declares `boundary=<2d2d…>` but its body uses another boundary: the
        // bytes are the same as the live request's, which must match.
        let turntable = try Turntable(vinylNamed: name, from: Self.store, matching: [.method, .url, .body])
        let (_, response) = try await turntable.data(for: try Self.uploadRequest())
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
    }

    @Test func aMultipartMissNeverShowsTwoIdenticalSides() async throws {
        let turntable = try Turntable(vinylNamed: "upload-data", from: Self.store, matching: [.method, .url, .body])
        var request = try Self.uploadRequest()
        request.httpBody = request.httpBody.map { Data(String(decoding: $0, as: UTF8.self).replacingOccurrences(of: "test file", with: "test pile").utf8) }
        do {
            _ = try await turntable.data(for: request)
            Issue.record("expected a miss")
        } catch let error as TurntableError {
            let lines = String(describing: error).split(separator: "\n").map(String.init)
            for line in lines where line.contains(" vs ") {
                let sides = line.components(separatedBy: " vs ")
                #expect(sides.count != 2 || !sides[0].hasSuffix(sides[1]), "\(line)")
            }
            #expect(lines.contains { $0.contains("multipart part \"file\": test pile") }, "\(lines)")
        }
    }

    // MARK: Choosing the strategy

    @Test func aDVRCassetteIsMatchedAsDVRDidAndSaysSo() throws {
        let turntable = try Turntable(vinylNamed: "example", from: Self.store)
        #expect(turntable.matching.description.contains("DVR"))
        #expect(turntable.vinyl.format == .dvr)
        // A strategy named in code is kept.
        let named = try Turntable(vinylNamed: "different-headers", from: Self.store, matching: .default)
        #expect(!named.matching.description.contains("DVR"))
    }

    @Test func aNamedStrategyIsKeptForADVRCassette() async throws {
        let turntable = try Turntable(vinylNamed: "different-headers", from: Self.store, matching: .default)
        #expect(try await text(turntable, URLRequest(url: URL(string: "http://example.com")!)).0 == "hello")
    }

    @Test func aMissOfADVRCassetteSaysHowItWasMatched() async throws {
        let turntable = try Turntable(vinylNamed: "text", from: Self.store)
        var request = URLRequest(url: URL(string: "http://example.com")!)
        request.httpMethod = "POST"
        request.httpBody = Data("Other text.".utf8)
        request.setValue("text/plain", forHTTPHeaderField: "Content-Type")
        do {
            _ = try await turntable.data(for: request)
            Issue.record("expected a miss")
        } catch {
            let report = String(describing: error)
            #expect(report.contains("DVR"))
            #expect(report.contains("chosen for a DVR cassette"))
            #expect(report.contains("body: Other text. vs Some text."))
        }
    }
}
