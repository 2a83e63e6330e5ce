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
}
