import Foundation
import Testing

@testable import Gramophone

/// Vinyl files come from other machines, browsers and proxies: whatever is in them, reading
/// gives a vinyl or a `VinylError` naming the file and the place, never a crash or a hang.
@Suite("Hostile vinyl files")
struct HostileInputTests {
    static let file = "/vinyls/hostile.json"

    /// Reads `text` and returns the error it must give.
    func readError(_ bytes: Data, format: VinylFormat? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> VinylError {
        let error = try #require(throws: VinylError.self, sourceLocation: sourceLocation) {
            try Vinyl(data: bytes, name: "hostile", format: format, file: Self.file)
        }
        #expect(error.kind == .malformed, sourceLocation: sourceLocation)
        #expect(error.file == Self.file, sourceLocation: sourceLocation)
        #expect(error.place != nil, sourceLocation: sourceLocation)
        #expect(error.description.hasPrefix(Self.file + ": "), sourceLocation: sourceLocation)
        return error
    }

    func readError(_ text: String, format: VinylFormat? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> VinylError {
        try readError(Data(text.utf8), format: format, sourceLocation: sourceLocation)
    }

    /// A one-track vinyl with `request` and `response` spliced in as raw JSON.
    func track(request: String = #""url": "https://api.example.com/a""#, response: String = #""status": 200"#) -> String {
        #"{"tracks": [{"request": {\#(request)}, "response": {\#(response)}}]}"#
    }

    // MARK: Depth and size

    @Test func hundredThousandNestedArraysAreAnErrorNotAStackOverflow() throws {
        let depth = 100_000
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let error = try readError(text)
        #expect(error.problem.contains("nested deeper than 512"))
        #expect(error.place == "line 1, column 513")
    }

    @Test func hundredThousandNestedObjectsAreAnErrorNotAStackOverflow() throws {
        let depth = 100_000
        let text = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
        let error = try readError(text)
        #expect(error.problem.contains("nested deeper than 512"))
    }

    @Test func nestingWithinTheLimitReads() throws {
        // 500 levels inside a body are legitimate JSON and must not be refused.
        let body = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        let vinyl = try Vinyl(data: Data(track(response: #""status": 200, "headers": {"Content-Type": "application/json"}, "body": \#(body)"#).utf8), name: "deep")
        #expect(vinyl.tracks[0].response?.body == Data(body.utf8))
    }

    @Test func aHugeUnterminatedStringIsAnErrorAtItsStart() throws {
        let text = #"{"tracks": [{"request": {"url": ""# + String(repeating: "x", count: 16 << 20)
        let error = try readError(text)
        #expect(error.problem.contains("string never closed"))
        #expect(error.place == "line 1, column 33")
    }

    @Test func aHugeStringBodyReadsWhole() throws {
        let body = String(repeating: "0123456789abcdef", count: 1 << 20)  // 16 MB
        let vinyl = try Vinyl(data: Data(track(response: #""status": 200, "headers": {"Content-Type": "text/plain"}, "body": "\#(body)""#).utf8), name: "big")
        #expect(vinyl.tracks[0].response?.body.count == 16 << 20)
    }

    // MARK: Bytes that are not text

    @Test func invalidUTF8InAStringNamesLineAndColumn() throws {
        var bytes = Data("{\"tracks\": [\n  {\"request\": {\"url\": \"https://a.example/".utf8)
        bytes.append(contentsOf: [0xC3, 0x28])  // a lead byte followed by a non-continuation
        bytes.append(contentsOf: Data("\"}, \"response\": {\"status\": 200}}]}".utf8))
        let error = try readError(bytes)
        #expect(error.problem.contains("invalid UTF-8"))
        #expect(error.place == "line 2, column 42")
    }

    @Test func overlongAndSurrogateEncodingsAreInvalidUTF8() throws {
        for sequence: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xFF]] {
            var bytes = Data(#"{"name": "x"#.utf8)
            bytes.append(contentsOf: sequence)
            bytes.append(contentsOf: Data(#"", "tracks": []}"#.utf8))
            let error = try readError(bytes)
            #expect(error.problem.contains("invalid UTF-8"), "\(sequence)")
        }
    }

    @Test func aRawNULInsideAStringIsAnError() throws {
        var bytes = Data(#"{"tracks": [], "name": "a"#.utf8)
        bytes.append(0)
        bytes.append(contentsOf: Data(#"b"}"#.utf8))
        let error = try readError(bytes)
        #expect(error.problem.contains("control character byte 0x0"))
        #expect(error.place == "line 1, column 26")
    }

    @Test func aNULBetweenValuesIsAnError() throws {
        var bytes = Data(#"{"tracks": []}"#.utf8)
        bytes.append(0)
        let error = try readError(bytes)
        #expect(error.problem.contains("byte 0x0 after the end of the document"))
    }

    @Test func anEmptyFileIsAnError() throws {
        let error = try readError(Data())
        #expect(error.problem.contains("unexpected end of file"))
    }

    // MARK: Structure

    @Test func duplicateKeysNameTheKey() throws {
        let error = try readError(track(request: #""url": "https://a.example/", "url": "https://b.example/""#))
        #expect(error.problem.contains(#"duplicate key "url""#))
        #expect(error.place?.hasPrefix("line 1, column ") == true)
    }

    @Test func duplicateKeysInLargeObjectsAreFound() throws {
        // Past 16 members the parser switches from a scan to a set; both must catch repeats.
        let members = (0..<40).map { #""k\#($0)": \#($0)"# }.joined(separator: ", ")
        let error = try readError(#"{"tracks": [], "extra": {\#(members), "k3": 0}}"#)
        #expect(error.problem.contains(#"duplicate key "k3""#))
    }

    @Test func aNumberWhereTheURLBelongsNamesThePath() throws {
        let error = try readError(track(request: #""url": 42"#))
        #expect(error.place == "tracks[0].request.url")
        #expect(error.problem == "expected a string, found a number")
    }

    @Test func aNumberWhereTheMethodBelongsNamesThePath() throws {
        let error = try readError(track(request: #""url": "https://a.example/", "method": 7"#))
        #expect(error.place == "tracks[0].request.method")
    }

    @Test func aStringWhereTheStatusBelongsNamesThePath() throws {
        let error = try readError(track(response: #""status": "200""#))
        #expect(error.place == "tracks[0].response.status")
    }

    @Test(arguments: ["-1", "0", "99", "1000", "99999999999999999999", "1e300", "2.5", "-1e400"])
    func absurdStatusCodesAreErrors(status: String) throws {
        let error = try readError(track(response: #""status": \#(status)"#))
        #expect(error.place == "tracks[0].response.status")
    }

    @Test(arguments: ["http://exa mple.com/", "http://[::1", "ht tp://x", "not a url", "/relative/path", "://", ":://", "", "http://x:-1/"])
    func urlsFoundationCannotUseAreErrors(url: String) throws {
        let error = try readError(track(request: #""url": "\#(url)""#))
        #expect(error.place == "tracks[0].request.url")
        #expect(error.problem.contains("is not an absolute URL"))
    }

    @Test func aBadResponseURLNamesTheResponse() throws {
        let error = try readError(track(response: #""status": 200, "url": "http://[::1""#))
        #expect(error.place == "tracks[0].response.url")
    }

    @Test(arguments: ["-1", "1e999", "-1e999", "86401", "\"soon\""])
    func absurdDurationsAreErrors(duration: String) throws {
        let text = #"{"tracks": [{"request": {"url": "https://a.example/"}, "response": {"status": 200}, "duration": \#(duration)}]}"#
        let error = try readError(text)
        #expect(error.place == "tracks[0].duration")
    }

    @Test(arguments: ["1e999", "-1e20", "253402300800", "\"yesterday\"", "true"])
    func absurdDatesAreErrors(date: String) throws {
        let text = #"{"tracks": [{"request": {"url": "https://a.example/"}, "response": {"status": 200}, "recordedAt": \#(date)}]}"#
        let error = try readError(text)
        #expect(error.place == "tracks[0].recordedAt")
    }

    @Test func aBadBase64BodyInADVRCassetteNamesTheInteraction() throws {
        // DVR read such a body as nil (issue 38): the cassette loads, the issue names the place.
        let text = #"{"name": "c", "interactions": [{"request": {"url": "https://a.example/", "body": "***"}, "response": {"status": 200}}]}"#
        let vinyl = try Vinyl(data: Data(text.utf8), name: "c", format: .dvr)
        #expect(vinyl.issues.first?.place == "interactions[0].request.body")
        #expect(vinyl.issues.first?.problem.contains("base64") == true)
        #expect(vinyl.tracks.first?.request.body.isEmpty == true)
    }

    @Test func aDVRInteractionWithoutAResponseNamesIt() throws {
        let text = #"{"name": "c", "interactions": [{"request": {"url": "https://a.example/"}}, {"request": {"url": "https://a.example/"}, "response": {"status": -5}}]}"#
        let error = try readError(text, format: .dvr)
        #expect(error.place == "interactions[0]")
    }
}

/// Big vinyls and long arrays load whole. How long they take is measured in Benchmarks/
/// (load time against bare JSONSerialization, RELIABILITY.md's 200 MB runs), not asserted here:
/// a timing ratio in a test suite fails on a busy machine or passes a slow parser.
@Suite("Large vinyls")
struct LargeVinylTests {
    /// A vinyl of about `kilobytes` KB: tracks with distinct URLs and 1 KB text bodies.
    static func vinylText(kilobytes: Int) -> Data {
        let body = String(repeating: "lorem ipsum ", count: 85)
        var data = Data(#"{"gramophone": 1, "name": "big", "tracks": ["#.utf8)
        data.reserveCapacity(kilobytes << 10 + 4096)
        var index = 0
        while data.count < kilobytes << 10 {
            if index > 0 { data.append(UInt8(ascii: ",")) }
            data.append(
                contentsOf: Data(
                    #"""
                    {"request": {"method": "GET", "url": "https://api.example.com/items/\#(index)?page=\#(index % 7)", "headers": {"Accept": "text/plain"}},
                     "response": {"status": 200, "headers": {"Content-Type": "text/plain", "X-Index": "\#(index)"}, "body": "\#(body)"}}
                    """#.utf8))
            index += 1
        }
        data.append(contentsOf: Data("]}\n".utf8))
        return data
    }

    @Test func aFourMegabyteVinylLoadsEveryTrack() throws {
        let data = Self.vinylText(kilobytes: 4096)
        let vinyl = try Vinyl(data: data, name: "big")
        #expect(vinyl.tracks.count > 3_000)
        #expect(vinyl.tracks.last?.response?.headers["X-Index"] == String(vinyl.tracks.count - 1))
    }

    @Test func aLongFlatArrayParsesWhole() throws {
        let count = 320_000
        let value = try JSONParser.parse(Data(("[" + String(repeating: "1,", count: count) + "1]").utf8))
        #expect(value.arrayValue?.count == count + 1)
    }
}
