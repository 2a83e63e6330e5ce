import Foundation
import Testing

@testable import Gramophone

/// A bad vinyl is a typed error that names the file, the place and the fix; never a crash.
@Suite struct MalformedVinylTests {
    func error(reading text: String, file: String = "Vinyls/bad.json") -> VinylError? {
        do {
            _ = try Vinyl(data: Data(text.utf8), name: "bad", file: file)
            return nil
        } catch let error as VinylError {
            return error
        } catch {
            Issue.record("expected a VinylError, got \(error)")
            return nil
        }
    }

    @Test func truncatedJSONNamesLineAndColumn() throws {
        let error = try #require(self.error(reading: "[\n  {\"request\": {\"url\": \"https://e.com\"},\n   \"response\": {\"status\": 2"))
        #expect(error.kind == .malformed)
        #expect(error.file == "Vinyls/bad.json")
        #expect(error.place == "line 3, column 28")
        #expect(error.description.hasPrefix("Vinyls/bad.json: line 3, column 28: invalid JSON"))
    }

    @Test func wrongTypeNamesThePath() throws {
        let error = try #require(self.error(reading: #"{"tracks": [{"request": {"url": "https://e.com"}, "response": {"status": "200"}}]}"#))
        #expect(error.place == "tracks[0].response.status")
        #expect(error.problem.contains("expected a whole number, found a string"))
    }

    @Test func missingURLNamesTheRequest() throws {
        let error = try #require(self.error(reading: #"[{"request": {"method": "GET"}, "response": {"status": 200}}, {}]"#))
        #expect(error.place == "[0].request")
        #expect(error.problem == "missing \"url\"")
        #expect(!error.fix.isEmpty)
    }

    @Test func badBase64NamesTheBody() throws {
        let error = try #require(self.error(reading: #"[{"request": {"url": "https://e.com"}, "response": {"status": 200, "headers": {"Content-Type": "image/png"}, "body": "not base64!"}}]"#))
        #expect(error.place == "[0].response.body")
        #expect(error.problem.contains("base64"))
    }

    @Test func unparsableURLIsAnError() throws {
        let error = try #require(self.error(reading: #"[{"request": {"url": "not a url"}, "response": {"status": 200}}]"#))
        #expect(error.place == "[0].request.url")
    }

    @Test func absurdStatusIsAnError() throws {
        for status in ["-1", "0", "99", "1000", "1e400", "2.5"] {
            let error = try #require(self.error(reading: #"[{"request": {"url": "https://e.com"}, "response": {"status": \#(status)}}]"#), "status \(status)")
            #expect(error.place == "[0].response.status", "status \(status)")
        }
    }

    @Test func otherShapesAreErrorsNotCrashes() {
        let documents = [
            "", "null", "42", "\"text\"", "{}", "[1]", "[[]]", #"{"tracks": {}}"#, #"[{"request": 1}]"#,
            #"[{"request": {"url": "https://e.com"}}]"#, #"[{"request": {"url": "https://e.com", "headers": []}, "response": {"status": 200, "headers": {"A": {}}}}]"#,
            #"[{"request": {"url": "https://e.com", "method": "G E T"}, "response": {"status": 200}}]"#,
            #"{"a": 1, "a": 2}"#, "[\u{0}]", "{\"tracks\": [], }x",
        ]
        for document in documents {
            #expect(error(reading: document) != nil, "should be rejected: \(document.debugDescription)")
        }
    }

    @Test func missingFileSaysWhereItLooked() throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            _ = try Turntable(vinylNamed: "absent", from: .folder(folder))
            Issue.record("expected notFound")
        } catch let error as VinylError {
            #expect(error.kind == .notFound)
            #expect(error.file == folder.appendingPathComponent("absent.json").path)
            #expect(error.description.contains("Record it"))
        }
    }

    @Test func namesThatLeaveTheFolderAreRejectedBeforeAnyFileIsTouched() {
        for name in ["../secrets", "/etc/passwd", "a/../../b", "a\\b", "nul\u{0}byte", "", "a//b", String(repeating: "x", count: 256)] {
            #expect(throws: VinylError.self, "\(name.debugDescription)") { try VinylLocation.validate(name) }
        }
        #expect(throws: Never.self) { try VinylLocation.validate("UsersTests/fetchesUser") }
    }
}

@Suite struct JSONParserTests {
    func parse(_ text: String) throws -> JSONValue { try JSONParser.parse(Data(text.utf8)) }

    @Test func keepsKeyOrderAndNumberText() throws {
        let value = try parse(#"{"b": 1.50, "a": [1e3, -0, true, null, "x"]}"#)
        #expect(String(decoding: JSONWriter.compact(value), as: UTF8.self) == #"{"b":1.50,"a":[1e3,-0,true,null,"x"]}"#)
    }

    @Test func acceptsTrailingCommasLikeJSONSerialization() throws {
        #expect(try parse("[1, 2, ]") == .array([.number("1"), .number("2")]))
        #expect(try parse(#"{"a": 1,}"#)["a"] == .number("1"))
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        #expect(try parse(#""\u00e9\ud83d\ude00\n\"\/""#) == .string("é😀\n\"/"))
    }

    @Test func rejectsWhatWouldCorruptARecording() {
        for text in [#""\ud800""#, "\"\u{1}\"", "[1 2]", "01", "1.", "-", "tru", #"{"a" 1}"#, "[", "{\"a\":"] {
            #expect(throws: JSONSyntaxError.self, "\(text.debugDescription)") { try parse(text) }
        }
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(Data([0x22, 0xFF, 0x22])) }
    }

    @Test func deepNestingIsAnErrorNotAStackOverflow() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        do {
            _ = try parse(deep)
            Issue.record("expected the depth limit")
        } catch let error as JSONSyntaxError {
            #expect(error.message.contains("nested deeper than 512"))
        }
        let fine = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        _ = try parse(fine)
    }
}
