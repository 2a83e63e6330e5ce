import Foundation
import Testing

@testable import Gramophone

/// Inputs the fuzzers (scripts/fuzz) found that broke a property, kept so they stay fixed.
/// RELIABILITY.md lists each with the target and run that found it.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    /// GramophoneReader: `"recorded_at": 1e9991700000000` read as an infinite date, which the
    /// writer then wrote as text no reader accepts. Dates outside years 1-9999 are now errors.
    @Test func anInfiniteNumericDateIsAnError() throws {
        let text = #"[{"request":{"url":"http://h/p"},"error":{"domain":"NSURLErrorDomain","code":-1009},"recorded_at":1e9991700000000}]"#
        let error = try #require(throws: VinylError.self) { try Vinyl(data: Data(text.utf8), name: "fuzz", file: "fuzz.json") }
        #expect(error.place == "[0].recordedAt")
        #expect(error.file == "fuzz.json")
    }

    /// GramophoneReader: the largest and smallest dates that are accepted write back readably.
    @Test func datesAtTheEdgesOfTheRangeSurviveARewrite() throws {
        for seconds in [GramophoneFormat.dateRange.lowerBound, GramophoneFormat.dateRange.upperBound, 0] {
            let text = #"[{"request":{"url":"http://h/p"},"response":{"status":200},"recordedAt":\#(GramophoneFormat.formatSeconds(seconds))}]"#
            let vinyl = try Vinyl(data: Data(text.utf8), name: "edge")
            let again = try Vinyl(data: vinyl.encoded(), name: "edge")
            #expect(again.tracks[0].recordedAt == vinyl.tracks[0].recordedAt)
        }
    }

    /// GramophoneReader: an infinite `duration` was accepted and written back as `0`.
    @Test func anInfiniteDurationIsAnError() throws {
        let text = #"{"tracks":[{"request":{"url":"http://h/p"},"response":{"status":200},"duration":1e999}]}"#
        let error = try #require(throws: VinylError.self) { try Vinyl(data: Data(text.utf8), name: "fuzz", file: "fuzz.json") }
        #expect(error.place == "tracks[0].duration")
    }

    /// A huge duration set in code overflowed the writer's rounding into `inf`, invalid JSON.
    @Test func aHugeDurationStillWritesValidJSON() throws {
        let vinyl = Vinyl(name: "huge", tracks: [Track(request: "https://a.example/", outcome: .status(200), duration: 1e305)])
        let value = try JSONParser.parse(vinyl.encoded())
        #expect(value["tracks"]?.arrayValue?.first?["duration"] == .number("1e+305"))
    }

    /// Found while checking URLs for the hostile-input tests: `:://` has an empty scheme in
    /// Foundation and passed the "absolute URL" check.
    @Test func aURLWithAnEmptySchemeIsAnError() throws {
        let text = #"{"tracks":[{"request":{"url":":://"},"response":{"status":200}}]}"#
        let error = try #require(throws: VinylError.self) { try Vinyl(data: Data(text.utf8), name: "fuzz", file: "fuzz.json") }
        #expect(error.place == "tracks[0].request.url")
    }

    /// GramophoneReader, 775,364 executions in: a `recordedAt` with a fraction of a hundred
    /// digits killed the process with a floating-point exception inside ICU's date parser
    /// (reached through `DateFormatter`). Dates are now parsed by hand.
    @Test func aDateWithAHundredFractionDigitsDoesNotCrash() throws {
        let fraction = "123" + String(repeating: "2", count: 120)
        let text = #"{"tracks":[{"request":{"url":"https://a.example/"},"response":{"status":200},"recordedAt":"2026-11-23T09:00:00.\#(fraction)Z"}]}"#
        let vinyl = try Vinyl(data: Data(text.utf8), name: "fuzz")
        let date = try #require(vinyl.tracks[0].recordedAt)
        #expect(abs(date.timeIntervalSince1970 - 1_795_424_400.1232222) < 0.000_001)
    }

    /// The hand-written reader agrees with the forms the old formatter read and writes back.
    @Test(arguments: [
        ("2026-11-23T09:00:00Z", 1_795_424_400.0),
        ("2026-11-23T09:00:00.250Z", 1_795_424_400.25),
        ("2026-11-23T10:30:00+01:30", 1_795_424_400.0),
        ("2026-11-23T07:00:00.5-02:00", 1_795_424_400.5),
        ("2000-02-29T00:00:00Z", 951_782_400.0),
        ("1969-12-31T23:59:59.999Z", -0.001),
        ("0001-01-01T00:00:00Z", -62_135_596_800.0),
        ("9999-12-31T23:59:59Z", 253_402_300_799.0),
    ])
    func isoDatesReadAndWriteBack(text: String, seconds: Double) throws {
        let date = try #require(ISO8601.parse(text))
        #expect(abs(date.timeIntervalSince1970 - seconds) < 0.000_001)
        let again = try #require(ISO8601.parse(ISO8601.format(date)))
        #expect(abs(again.timeIntervalSince1970 - seconds) < 0.001)
    }

    @Test(arguments: [
        "2026-02-30T00:00:00Z", "2026-11-23T24:00:00Z", "2026-11-23T09:00:00", "2026-11-23 09:00:00Z",
        "2026-11-23T09:00:00.Z", "2026-11-23T09:00:00+1:00", "0000-01-01T00:00:00Z", "2026-11-23T09:00:00Zjunk", "+2026-11-23T09:00:00Z",
    ])
    func malformedISODatesAreRefused(text: String) {
        #expect(ISO8601.parse(text) == nil)
    }

    /// VinylWriters: 4379182340.254967 was written as `….254Z`, read back as the double just
    /// below .254, and written again as `….253Z`: every rewrite moved such a date a millisecond.
    @Test(arguments: [4_379_182_340.0, 0, -62_135_596_800, -1_000, 253_402_300_000, 1_763_000_000])
    func everyMillisecondWritesBackUnchanged(base: Double) throws {
        var moved: [String] = []
        for millisecond in 0..<1000 {
            let text = ISO8601.format(Date(timeIntervalSince1970: base + Double(millisecond) / 1000 + 0.000_4))
            let again = ISO8601.format(try #require(ISO8601.parse(text)))
            if again != text { moved.append("\(text) -> \(again)") }
        }
        #expect(moved.count == 0, "dates moved, e.g. \(moved.prefix(3))")
    }

    /// VinylWriters: a JSON body `null` was stored as `"body": null`, which reads as no body.
    @Test(arguments: VinylFormat.allCases.filter(\.isWritable))
    func aJSONNullBodySurvivesARewrite(format: VinylFormat) throws {
        let tracks = ["application/json", "application/vnd.api+json", "text/json"].map { type in
            Track(
                request: Track.Request(method: "POST", url: URL(string: "https://a.example/")!, headers: ["Content-Type": type], body: Data("null".utf8)),
                outcome: .response(Track.Response(headers: ["Content-Type": type], body: Data("null".utf8))))
        }
        let again = try Vinyl(data: try Vinyl(name: "null", tracks: tracks).encoded(as: format), name: "null", format: format)
        #expect(again.tracks.map { String(decoding: $0.request.body, as: UTF8.self) } == ["null", "null", "null"])
        #expect(again.tracks.map { String(decoding: $0.response?.body ?? Data(), as: UTF8.self) } == ["null", "null", "null"])
    }

    /// VCRReader (seeded with the httpbin captures): a relative response `url` was read, written
    /// as Gramophone's JSON, and refused there. It is now refused where it is read.
    @Test func aVCRResponseURLMustBeAbsolute() throws {
        let text = #"{"interactions": [{"request": {"uri": "https://a.example/", "method": "GET"}, "response": {"status": {"code": 200}, "url": "ht/gif/127.0.0.1:49257/json"}}]}"#
        let error = try #require(throws: VinylError.self) { try Vinyl(data: Data(text.utf8), name: "vcr", format: .vcr, file: "vcr.json") }
        #expect(error.place == "interactions[0].response.url")
        let absolute = text.replacingOccurrences(of: "ht/gif/127.0.0.1:49257/json", with: "https://a.example/moved")
        #expect(try Vinyl(data: Data(absolute.utf8), name: "vcr", format: .vcr).tracks[0].response?.url?.absoluteString == "https://a.example/moved")
    }

    /// GramophoneReader: a body under `application/json-TP` (an `application/json…` type that is
    /// not JSON to the writer) was written as base64 without saying so, and read back as text.
    @Test func aBase64BodyUnderAnApplicationJSONPrefixTypeSaysSo() throws {
        let text = #"[{"request":{"url":"http://h/p"},"response":{"status":200,"body":"\"s\"","headers":{"content-type":"application/json-TP"}}}]"#
        let vinyl = try Vinyl(data: Data(text.utf8), name: "fuzz", file: "fuzz.json")
        let again = try Vinyl(data: vinyl.encoded(), name: "fuzz")
        guard case .response(let before) = vinyl.tracks[0].outcome, case .response(let after) = again.tracks[0].outcome else {
            Issue.record("expected responses"); return
        }
        #expect(before.body == Data(#""s""#.utf8))
        #expect(after.body == before.body)
    }

    /// VCRReader: the same fault from a Ruby VCR cassette: a GIF under
    /// `Content-Type: application/jsonimage/gif…` was rewritten as Gramophone's JSON with an
    /// unmarked base64 body, which read back as the base64 text.
    @Test func aVCRBinaryBodyUnderAnApplicationJSONPrefixTypeSurvivesARewrite() throws {
        let text =
            #"{"http_interactions":[{"request":{"method":"get","uri":"http://example.com/logo.gif","headers":{}},"response":{"status":{"code":200},"headers":{"Content-Type":["application/jsonimage/gif"]},"body":{"encoding":"ASCII-8BIT","base64_string":"R0lGODlhAQABAAAAACw="}}}]}"#
        let vinyl = try Vinyl(data: Data(text.utf8), name: "fuzz", format: .vcr, file: "fuzz.json")
        let again = try Vinyl(data: vinyl.encoded(as: .gramophone), name: "fuzz", format: .gramophone)
        guard case .response(let before) = vinyl.tracks[0].outcome, case .response(let after) = again.tracks[0].outcome else {
            Issue.record("expected responses"); return
        }
        #expect(before.body.count == 14)
        #expect(after.body == before.body)
    }
}
