import Foundation
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every file other tools wrote loads unchanged, and replays what the file says.
@Suite struct FixtureReplayTests {
    static let files: [String] = {
        let vinyl = (try? TestFiles.fixtures(in: "vinyl")) ?? []
        let dvr = (try? TestFiles.fixtures(in: "dvr")) ?? []
        return (vinyl + dvr).map { $0.pathComponents.suffix(2).joined(separator: "/") }
    }()

    @Test func fixturesArePresent() {
        #expect(Self.files.count == 13, "expected the 5 Vinyl and 8 DVR fixtures, found \(Self.files)")
    }

    @Test(arguments: files)
    func fixtureReplaysWhatTheFileSays(_ path: String) async throws {
        let url = TestFiles.fixture(path)
        let vinyl = try Vinyl(contentsOf: url)
        let expected = try IndependentReading.tracks(of: url)
        #expect(vinyl.tracks.count == expected.count)
        // Play every track through a Turntable as client code would, and compare with an
        // independent reading of the file (JSONSerialization and the fixtures' documented rules).
        let turntable = Turntable(vinyl: vinyl, matching: .attributes([.method, .url, .headers("Foo")], playOnce: true))
        for entry in expected {
            var request = URLRequest(url: entry.url)
            request.httpMethod = entry.method
            for (name, value) in entry.requestHeaders { request.setValue(value, forHTTPHeaderField: name) }
            let (body, response) = try await turntable.data(for: request)
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.statusCode == entry.status, "\(path)")
            switch entry.body {
            case .bytes(let bytes):
                #expect(body == bytes, "\(path): body bytes differ")
            case .json(let canonical):
                // The file holds a JSON value: the replayed bytes must be that JSON.
                let replayed = try JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
                #expect(try JSONSerialization.data(withJSONObject: replayed, options: [.sortedKeys]) == canonical, "\(path): JSON body differs")
            }
            for (name, value) in entry.responseHeaders {
                #expect(http.value(forHTTPHeaderField: name) == value, "\(path): header \(name)")
            }
        }
        #expect(turntable.playback.allPlayed)
    }

    @Test func dvrFixtureWithUploadBodyKeepsRequestBody() throws {
        let vinyl = try Vinyl(contentsOf: TestFiles.fixture("dvr/upload-data.json"))
        let body = String(decoding: vinyl.tracks[0].request.body, as: UTF8.self)
        #expect(body.contains("Content-Disposition: form-data; name=\"file\""))
        #expect(body.contains("test file"))
    }

    @Test func vinylRequestWithoutMethodMeansGET() throws {
        let vinyl = try Vinyl(contentsOf: TestFiles.fixture("vinyl/vinyl_single.json"))
        #expect(vinyl.tracks[0].request.method == "GET")
    }

    @Test func turntableDetectsADVRCassetteByName() async throws {
        let turntable = try Turntable(vinylNamed: "example", from: .folder(TestFiles.fixture("dvr")))
        let (body, _) = try await turntable.data(from: URL(string: "http://example.com")!)
        #expect(String(decoding: body, as: UTF8.self) == "hello")
    }
}

/// Reads a fixture the way its writer documented, without any Gramophone code.
enum IndependentReading {
    struct Entry {
        var method: String
        var url: URL
        var requestHeaders: [String: String]
        var status: Int
        var responseHeaders: [String: String]
        var body: Body
    }

    enum Body {
        case bytes(Data)
        /// A JSON value, canonicalised with sorted keys.
        case json(Data)
    }

    static func tracks(of url: URL) throws -> [Entry] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url), options: [.fragmentsAllowed])
        let isDVR: Bool
        let items: [[String: Any]]
        if let dictionary = object as? [String: Any], let interactions = dictionary["interactions"] as? [[String: Any]] {
            isDVR = true
            items = interactions
        } else {
            isDVR = false
            items = try #require(object as? [[String: Any]])
        }
        return try items.map { item in
            let request = try #require(item["request"] as? [String: Any])
            let response = try #require(item["response"] as? [String: Any])
            let headers = response["headers"] as? [String: String] ?? [:]
            let urlText = try #require(request["url"] as? String)
            return Entry(
                method: request["method"] as? String ?? "GET",
                url: try #require(URL(string: urlText)),
                requestHeaders: request["headers"] as? [String: String] ?? [:],
                status: try #require(response["status"] as? Int),
                responseHeaders: headers,
                body: try body(response["body"], contentType: headers.first { $0.key.lowercased() == "content-type" }?.value, isDVR: isDVR))
        }
    }

    static func body(_ value: Any?, contentType: String?, isDVR: Bool) throws -> Body {
        guard let value else { return .bytes(Data()) }
        if let text = value as? String {
            if let contentType {
                if contentType.hasPrefix("text/") { return .bytes(Data(text.utf8)) }
                return .bytes(try #require(Data(base64Encoded: text)))
            }
            return .bytes(isDVR ? try #require(Data(base64Encoded: text)) : Data(text.utf8))
        }
        return .json(try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]))
    }
}
