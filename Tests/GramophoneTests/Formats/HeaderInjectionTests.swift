import Foundation
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A header name or value holding CR, LF or NUL would start another header (or the body) once
/// written on a wire. Readers refuse it with its place (HAR splits a browser's line-joined
/// repeats into repeated headers), writers refuse to write it, and a vinyl built in code that
/// holds one still replays as one header, never as extra ones (Gramophone.docc/VinylFileFormat.md).
@Suite struct HeaderInjectionTests {
    static let injected = "a\\r\\nX-Injected: 1\\r\\n\\r\\nbody"

    static func refusal(_ text: String, format: VinylFormat? = nil) -> VinylError? {
        do {
            _ = try Vinyl(data: Data(text.utf8), name: "injected", format: format, file: "injected.json")
            return nil
        } catch let error as VinylError {
            return error
        } catch {
            return nil
        }
    }

    @Test(arguments: [
        (
            #"{"tracks": [{"request": {"url": "https://a.example/"}, "response": {"status": 200, "headers": {"X": "\#(injected)"}}}]}"#,
            #"tracks[0].response.headers "X""#
        ),
        (
            #"{"tracks": [{"request": {"url": "https://a.example/", "headers": {"Set-Cookie": ["ok", "b\nc"]}}, "response": {"status": 200}}]}"#,
            #"tracks[0].request.headers "Set-Cookie""#
        ),
        (
            #"{"tracks": [{"request": {"url": "https://a.example/"}, "response": {"status": 200, "headers": [{"name": "X\r\nY", "value": "1"}]}}]}"#,
            #"tracks[0].response.headers "X\r\nY""#
        ),
        (
            #"{"tracks": [{"request": {"url": "https://a.example/"}, "response": {"status": 200, "headers": {"X": "a\u0000b"}}}]}"#,
            #"tracks[0].response.headers "X""#
        ),
        (
            #"{"name": "d", "interactions": [{"request": {"url": "https://a.example/"}, "response": {"status": 200, "headers": {"Location": "/x\r\nSet-Cookie: s=1"}}}]}"#,
            #"interactions[0].response.headers "Location""#
        ),
        (
            #"{"interactions": [{"request": {"uri": "https://a.example/", "method": "GET"}, "response": {"status": {"code": 200}, "headers": {"X": ["\#(injected)"]}}}]}"#,
            #"interactions[0].response.headers "X""#
        ),
    ])
    func jsonReadersRefuseLineBreaksNamingThePlace(_ text: String, place: String) throws {
        let error = try #require(Self.refusal(text))
        #expect(error.kind == .malformed)
        #expect(error.file == "injected.json")
        #expect(error.place == place)
        #expect(error.problem.contains("line break"))
        #expect(error.fix.contains("Remove the line break"))
    }

    @Test func thePropertyListReaderRefusesLineBreaks() throws {
        let vinyl = Vinyl(name: "p", tracks: [Track(request: Track.Request(url: URL(string: "https://a.example/")!), outcome: .status(200, headers: ["X": "safe"]))])
        let plist = String(decoding: try vinyl.encoded(as: .plist), as: UTF8.self).replacingOccurrences(of: "safe", with: "a&#13;&#10;X-Injected: 1")
        let error = try #require(Self.refusal(plist, format: .plist))
        #expect(error.place == #"tracks[0].response.headers "X""#)
    }

    @Test func aMocktailHeaderWithAStrayCarriageReturnIsRefused() {
        #expect(throws: VinylError.self) { try MocktailStub(text: "GET\n/x\n200\nX: a\rInjected: 1\n\nbody", file: "x.tail") }
        // A CRLF line ending is not a stray CR.
        #expect((try? MocktailStub(text: "GET\r\n/x\r\n200\r\nX: a\r\n\r\nbody", file: "x.tail"))?.headers["X"] == "a")
    }

    @Test func harSplitsLineJoinedRepeatsIntoRepeatedHeaders() throws {
        // Firefox exports several Set-Cookie headers as one value joined by line breaks.
        let har = #"{"log": {"entries": [{"request": {"url": "https://a.example/"}, "response": {"status": 200, "headers": [{"name": "Set-Cookie", "value": "a=1\nb=2\r\n\r\nc=3"}]}}]}}"#
        let vinyl = try Vinyl(data: Data(har.utf8), name: "h", format: .har)
        #expect(vinyl.tracks[0].response?.headers.values(for: "Set-Cookie") == ["a=1", "b=2", "c=3"])
        let nul = #"{"log": {"entries": [{"request": {"url": "https://a.example/"}, "response": {"status": 200, "headers": [{"name": "X", "value": "a\n\u0000"}]}}]}}"#
        #expect(Self.refusal(nul, format: .har)?.place == #"log.entries[0].response.headers "X""#)
        let mime = #"{"log": {"entries": [{"request": {"url": "https://a.example/"}, "response": {"status": 200, "content": {"mimeType": "text/plain\r\nX: 1", "text": "hi"}}}]}}"#
        #expect(Self.refusal(mime, format: .har)?.place == #"log.entries[0].response.content.mimeType "Content-Type""#)
    }

    static let injectedVinyl = Vinyl(
        name: "code",
        tracks: [
            Track(request: Track.Request(url: URL(string: "https://a.example/ok")!), outcome: .status(204)),
            Track(
                request: Track.Request(url: URL(string: "https://a.example/x")!),
                outcome: .response(Track.Response(status: 200, headers: ["Content-Type": "text/plain", "X-Note": "a\r\nX-Injected: 1\r\n\r\nsmuggled"], body: Data("body".utf8)))),
        ])

    @Test(arguments: VinylFormat.allCases.filter(\.isWritable))
    func writersRefuseLineBreaksNamingThePlace(_ format: VinylFormat) throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("code.\(format.fileExtension)")
        let error = try #require(throws: VinylError.self) { try Self.injectedVinyl.write(to: file, format: format) }
        #expect(error.kind == .unwritable)
        #expect(error.file == file.path)
        #expect(error.place == "\(format.place(ofTrack: 1)).response.headers \"X-Note\"")
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test func aVinylBuiltInCodeReplaysTheValueAsOneHeader() async throws {
        let turntable = Turntable(vinyl: Self.injectedVinyl)
        let url = URL(string: "https://a.example/x")!
        let session = turntable.makeURLSession()
        defer { session.finishTasksAndInvalidate() }
        for (data, response) in [try await turntable.data(from: url), try await session.data(from: url)] {
            let http = try #require(response as? HTTPURLResponse)
            #expect(data == Data("body".utf8))
            let names = http.allHeaderFields.keys.compactMap { ($0 as? String)?.lowercased() }
            #expect(!names.contains("x-injected"))
            #expect(!names.contains { $0.contains("\r") || $0.contains("\n") })
        }
    }

    /// The same through the other ways a request is answered: a stub whose header holds the
    /// line break, and a task's completion handler.
    @Test func aStubOrATaskNeverYieldsExtraHeaders() async throws {
        let turntable = Turntable(vinyl: Self.injectedVinyl)
        turntable.stubs.add(Stub().matching(try .path("/stubbed")).responding(with: .text("body").header("X", Self.injected)))
        let stubbed = URL(string: "https://a.example/stubbed")!
        let session = turntable.makeURLSession()
        defer { session.finishTasksAndInvalidate() }
        let viaTask: (Data?, URLResponse?) = await withCheckedContinuation { continuation in
            turntable.dataTask(with: URLRequest(url: URL(string: "https://a.example/x")!)) { data, response, _ in
                continuation.resume(returning: (data, response))
            }.resume()
        }
        let answers = [try await turntable.data(from: stubbed), try await session.data(from: stubbed), (viaTask.0 ?? Data(), try #require(viaTask.1))]
        for (data, response) in answers {
            let http = try #require(response as? HTTPURLResponse)
            #expect(data == Data("body".utf8))
            let names = http.allHeaderFields.keys.compactMap { ($0 as? String)?.lowercased() }
            #expect(!names.contains("x-injected"))
            #expect(!names.contains { $0.contains("\r") || $0.contains("\n") })
        }
    }
}
