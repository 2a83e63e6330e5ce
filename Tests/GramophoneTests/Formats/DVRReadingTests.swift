import Foundation
import Testing

@testable import Gramophone

/// A DVR cassette reads as DVR read it (`Interaction.init?(dictionary:)`, `dencodeBody`), and
/// goes DVR → Gramophone → DVR without losing what DVR would read back.
@Suite struct DVRReadingTests {
    /// Two interactions; the first's response body is plain text where DVR's format wants
    /// base64 (no `Content-Type`), as a cassette edited by hand holds it.
    static let cassetteWithABadBody = """
        {"name": "fail", "interactions": [
          {"recorded_at": 1500000000, "request": {"method": "GET", "url": "https://api.example.com/fail"},
           "response": {"status": 200, "url": "https://api.example.com/fail", "headers": {}, "body": "This is not JSON"}},
          {"recorded_at": 1500000001, "request": {"method": "GET", "url": "https://api.example.com/ok"},
           "response": {"status": 200, "url": "https://api.example.com/ok", "headers": {"Content-Type": "text/plain"}, "body": "fine"}}
        ]}
        """

    @Test func oneUndecodableBodyLeavesTheRestReadable() throws {
        let vinyl = try Vinyl(data: Data(Self.cassetteWithABadBody.utf8), name: "fail")
        #expect(vinyl.tracks.count == 2)
        // DVR read the body as nil: served as no body.
        #expect(vinyl.tracks[0].response?.body == Data())
        #expect(vinyl.tracks[0].response?.status == 200)
        #expect(vinyl.tracks[1].response?.body == Data("fine".utf8))
    }

    @Test func theUndecodableBodyIsNamedWithHowItIsServed() throws {
        let vinyl = try Vinyl(data: Data(Self.cassetteWithABadBody.utf8), name: "fail")
        #expect(vinyl.issues.count == 1)
        let issue = try #require(vinyl.issues.first)
        #expect(issue.place == "interactions[0].response.body")
        #expect(issue.description.contains("not valid base64"))
        #expect(issue.description.contains("served as an empty body"))
    }

    @Test func aBrokenBodyOutsideDVRIsStillAnError() throws {
        // Gramophone's own format says what its bodies are: a bad one is the file's mistake.
        let json = #"[{"request": {"url": "https://a.example/x"}, "response": {"status": 200, "body": "%%", "bodyEncoding": "base64"}}]"#
        #expect(throws: VinylError.self) { try Vinyl(data: Data(json.utf8), name: "x") }
    }

    @Test func aLowerCaseContentTypeDecidesTheBodyAsDVRDid() throws {
        // DVR looks up the exact key "Content-Type": under `content-type` a string is base64.
        let json = """
            {"name": "lower", "interactions": [{"recorded_at": 1500000000,
              "request": {"method": "GET", "url": "https://api.example.com/a"},
              "response": {"status": 200, "url": "https://api.example.com/a", "headers": {"content-type": "text/plain"}, "body": "aGVsbG8="}}]}
            """
        let vinyl = try Vinyl(data: Data(json.utf8), name: "lower")
        #expect(vinyl.tracks[0].response?.body == Data("hello".utf8))
        // And it is written back as DVR would read it.
        let written = try JSONSerialization.jsonObject(with: vinyl.encoded(as: .dvr)) as? [String: Any]
        let interaction = try #require((written?["interactions"] as? [[String: Any]])?.first)
        #expect((interaction["response"] as? [String: Any])?["body"] as? String == "aGVsbG8=")
    }

    @Test func recordedAtIsRoundedToTheMillisecondThroughGramophone() throws {
        let dvr = try Vinyl(contentsOf: TestFiles.fixture("dvr/different-headers.json"))
        let throughGramophone = try Vinyl(data: dvr.encoded(as: .gramophone), name: "x")
        let back = try JSONSerialization.jsonObject(with: throughGramophone.encoded(as: .dvr)) as? [String: Any]
        let interaction = try #require((back?["interactions"] as? [[String: Any]])?.first)
        // 1434688721.440751 is nearer .441 than .440.
        #expect(interaction["recorded_at"] as? Double == 1434688721.441)
    }

    @Test func anEmptyBase64BodyStaysAnEmptyBody() throws {
        let json = """
            {"name": "empty", "interactions": [{"recorded_at": 1500000000,
              "request": {"method": "GET", "url": "https://api.example.com/a"},
              "response": {"status": 200, "url": "https://api.example.com/a", "headers": {"Content-Type": "application/octet-stream"}, "body": ""}}]}
            """
        let dvr = try Vinyl(data: Data(json.utf8), name: "empty")
        let throughGramophone = try Vinyl(data: dvr.encoded(as: .gramophone), name: "empty")
        let back = try JSONSerialization.jsonObject(with: throughGramophone.encoded(as: .dvr)) as? [String: Any]
        let interaction = try #require((back?["interactions"] as? [[String: Any]])?.first)
        // DVR reads `"body": ""` as an empty body and a missing body as none (nil data).
        #expect((interaction["response"] as? [String: Any])?["body"] as? String == "")
    }
}

extension DVRReadingTests {
    @Test func aTurntableWarnsOnceAboutTheIssuesOfAFile() throws {
        let vinyl = try Vinyl(data: Data(Self.cassetteWithABadBody.utf8), name: "fail")
        let file = URL(fileURLWithPath: "/cassettes/\(UUID().uuidString)/fail.json")
        let warning = try #require(VinylIssue.claimWarning(about: vinyl, file: file))
        #expect(warning.hasPrefix("Gramophone: vinyl \"fail\" (\(file.path)) was read with 1 issue:"))
        #expect(warning.contains("interactions[0].response.body: the body is not valid base64 (DVR read it as no body); served as an empty body. To fix:"))
        #expect(VinylIssue.claimWarning(about: vinyl, file: file) == nil)
    }
}
