import Foundation
import Testing

@testable import Gramophone

/// The format comes from the extension, then from the content; unknown formats say which are known.
@Suite struct FormatDetectionTests {
    static func detect(_ text: String, _ ext: String? = "json") throws -> VinylFormat {
        try VinylFormat.detect(data: Data(text.utf8), fileExtension: ext)
    }

    @Test func jsonContentDecides() throws {
        #expect(try Self.detect(#"{"log": {"entries": []}}"#) == .har)
        #expect(try Self.detect(#"{"interactions": [{"request": {"uri": "https://a.example/"}}]}"#) == .vcr)
        #expect(try Self.detect(#"{"http_interactions": []}"#) == .vcr)
        #expect(try Self.detect(#"{"interactions": [{"request": {"url": "https://a.example/"}}]}"#) == .dvr)
        #expect(try Self.detect(#"{"name": "x", "interactions": []}"#) == .dvr)
        #expect(try Self.detect(#"{"name": "x", "tracks": []}"#) == .gramophone)
        #expect(try Self.detect("[]") == .gramophone)
    }

    @Test func extensionDecidesForHARAndPlist() throws {
        // Even a HAR file whose content would sniff otherwise is HAR by its extension.
        #expect(try Self.detect(#"{"tracks": []}"#, "har") == .har)
        #expect(try Self.detect("<?xml version=\"1.0\"?><plist/>", "plist") == .plist)
        #expect(try Self.detect("<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict/></plist>", nil) == .plist)
    }

    @Test func unknownShapesListTheSupportedFormats() {
        for (text, ext) in [(#"{"foo": 1}"#, "json"), ("42", "json"), ("hello", "txt"), ("a: b", "yaml"), ("GET\n/x\n200\n", "tail")] {
            #expect("\(text) .\(ext)") {
                try Self.detect(text, ext)
            } throws: { error in
                let error = error as? VinylError
                return error?.kind == .unknownFormat && error?.fix.contains("har (.har)") == true && error?.fix.contains("plist (.plist)") == true
            }
        }
    }

    @Test func brokenJSONReportsLineAndColumn() {
        #expect {
            try Self.detect("{\n  \"tracks\": [,]\n}")
        } throws: { error in
            (error as? VinylError)?.kind == .malformed && (error as? VinylError)?.place == "line 2, column 14"
        }
    }

    @Test func contentsOfPicksTheFormatFromExtensionAndContent() throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let vinyl = Vinyl(name: "users", tracks: [Track("https://api.example.com/users/1", .json(#"{"id":1}"#))])
        for format in VinylFormat.allCases where format.isWritable {
            let file = folder.appendingPathComponent("users-\(format).\(format.fileExtension)")
            try vinyl.write(to: file, format: format)
            let read = try Vinyl(contentsOf: file)
            #expect(read.tracks.first?.response?.body == Data(#"{"id":1}"#.utf8), "\(format)")
        }
        // A plist vinyl saved under .json is still recognised by its content.
        let disguised = folder.appendingPathComponent("plist.json")
        try vinyl.write(to: disguised, format: .plist)
        #expect(try Vinyl(contentsOf: disguised).tracks.count == 1)
    }

    @Test func formatNamesPeopleType() {
        #expect(VinylFormat(name: "json") == .gramophone)
        #expect(VinylFormat(name: "HAR") == .har)
        #expect(VinylFormat(name: "vcrpy") == .vcr)
        #expect(VinylFormat(name: "yaml") == nil)
    }
}
