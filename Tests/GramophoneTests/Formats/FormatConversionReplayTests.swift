import Foundation
import Testing

@testable import Gramophone

/// Every file other tools wrote replays the bytes it holds, as read and after conversion to
/// each format Gramophone writes.
@Suite struct FormatConversionReplayTests {
    static let fixtureFiles: [String] = ["dvr", "vinyl", "har"].flatMap { folder in
        ((try? TestFiles.fixtures(in: folder)) ?? []).map { "\(folder)/\($0.lastPathComponent)" }
    }

    @Test func everySharedFixtureIsListed() {
        // dvr 8, vinyl 5, har 2: a missing folder would make the tests below vacuous.
        #expect(Self.fixtureFiles.count == 15)
    }

    @Test(arguments: fixtureFiles)
    func fixtureReplaysAsRead(_ path: String) async throws {
        let file = TestFiles.fixture(path)
        let vinyl = try Vinyl(contentsOf: file)
        try await Replay.check(vinyl, against: try FixtureExpectations.tracks(in: file))
    }

    @Test(arguments: fixtureFiles, VinylFormat.allCases.filter(\.isWritable))
    func fixtureReplaysAfterConversion(_ path: String, to format: VinylFormat) async throws {
        let file = TestFiles.fixture(path)
        let data = try Vinyl(contentsOf: file).encoded(as: format)
        // Detection must recognise what we wrote, with the extension the format carries.
        #expect(try VinylFormat.detect(data: data, fileExtension: format.fileExtension) == format)
        let converted = try Vinyl(data: data, name: "converted")
        try await Replay.check(converted, against: try FixtureExpectations.tracks(in: file), headersDroppedByHAR: format == .har)
    }

    @Test func dvrFixtureFormatsAreDetected() throws {
        for path in Self.fixtureFiles {
            let file = TestFiles.fixture(path)
            let format = try VinylFormat.detect(data: try Data(contentsOf: file), fileExtension: file.pathExtension)
            let expected: VinylFormat = path.hasPrefix("har/") ? .har : (path.hasPrefix("dvr/") || path.contains("/dvr_")) ? .dvr : .gramophone
            #expect(format == expected, "\(path)")
        }
    }

    @Test func vendorJSONStringInDVRIsBase64() throws {
        // DVR stores a body under a JSON type that it could not embed as base64; the 401 here is one.
        let vinyl = try Vinyl(contentsOf: TestFiles.fixture("dvr/failed-request-example.json"))
        let body = try #require(vinyl.tracks.first?.response?.body)
        let object = try JSONSerialization.jsonObject(with: body) as? [String: Any]
        #expect(object?["sys"] != nil)
    }
}
