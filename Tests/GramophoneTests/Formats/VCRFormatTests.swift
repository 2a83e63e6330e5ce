import Foundation
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// VCR.py and Ruby VCR JSON cassettes read unchanged and replay what they recorded.
@Suite struct VCRFormatTests {
    @Test func vcrPyCassetteReadsAndReplays() async throws {
        let file = FormatFiles.resource("VCR/vcrpy.json")
        #expect(try VinylFormat.detect(data: try Data(contentsOf: file), fileExtension: "json") == .vcr)
        let vinyl = try Vinyl(contentsOf: file)
        #expect(vinyl.tracks.count == 2)
        #expect(vinyl.tracks[0].request.headers["User-Agent"] == "python-requests/2.31.0")
        #expect(vinyl.tracks[0].response?.headers.values(for: "Set-Cookie") == ["a=1", "b=2"])
        #expect(vinyl.tracks[1].request.body == Data("name=Grace".utf8))

        let turntable = Turntable(vinyl: vinyl)
        let (body, response) = try await turntable.data(from: try #require(URL(string: "https://api.example.com/users/42?fields=name")))
        #expect(body == Data(#"{"id": 42, "name": "Ada"}"#.utf8))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        var post = URLRequest(url: try #require(URL(string: "https://api.example.com/users")))
        post.httpMethod = "POST"
        post.httpBody = Data("name=Grace".utf8)
        let (created, createdResponse) = try await turntable.data(for: post)
        #expect(created.isEmpty)
        #expect((createdResponse as? HTTPURLResponse)?.statusCode == 201)
        #expect((createdResponse as? HTTPURLResponse)?.value(forHTTPHeaderField: "Location") == "https://api.example.com/users/43")
    }

    @Test func rubyCassetteReadsBase64BodiesAndLowercaseMethods() throws {
        let vinyl = try Vinyl(contentsOf: FormatFiles.resource("VCR/ruby-vcr.json"))
        let track = try #require(vinyl.tracks.first)
        #expect(track.request.method == "GET")
        #expect(track.response?.body.prefix(6) == Data("GIF89a".utf8))
        #expect(track.response?.httpVersion == "HTTP/1.1")
        #expect(track.recordedAt == Date(timeIntervalSince1970: 1_320_123_524))
    }

    @Test func vcrConvertsToEveryWritableFormat() throws {
        let vinyl = try Vinyl(contentsOf: FormatFiles.resource("VCR/vcrpy.json"))
        for format in VinylFormat.allCases where format.isWritable {
            let read = try Vinyl(data: try vinyl.encoded(as: format), name: "x")
            #expect(read.tracks.map(\.response?.body) == vinyl.tracks.map(\.response?.body), "\(format)")
        }
    }

    @Test func vcrIsReadOnly() {
        #expect(throws: VinylError.self) { try Vinyl(name: "x").encoded(as: .vcr) }
    }

    @Test func missingStatusCodeNamesItsPlace() {
        let text = #"{"interactions": [{"request": {"uri": "https://a.example/", "method": "GET"}, "response": {"status": {"message": "OK"}}}]}"#
        #expect {
            try Vinyl(data: Data(text.utf8), name: "bad", file: "bad.json")
        } throws: { error in
            (error as? VinylError)?.place == "interactions[0].response.status"
        }
    }
}
