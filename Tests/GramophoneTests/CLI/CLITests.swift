import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

/// The built `gramophone` binary, run as a user runs it: stdout, stderr and exit codes.
@Suite struct CLITests {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The binary `swift build --build-tests` builds, or the one `GRAMOPHONE_CLI` names.
    static func binary() throws -> URL {
        if let path = ProcessInfo.processInfo.environment["GRAMOPHONE_CLI"] { return URL(fileURLWithPath: path) }
        return try BuiltProducts.executable("gramophone")
    }

    /// Runs the binary with `arguments`, on a thread of its own (see `ChildProcess`).
    static func run(_ arguments: String...) async throws -> Run {
        let child = try await ChildProcess.run(try binary(), arguments)
        return Run(status: child.status, stdout: child.stdout, stderr: child.stderr)
    }

    static func write(_ text: String, to name: String, in folder: URL) throws -> String {
        let file = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file.path
    }

    // MARK: Help and usage

    @Test func topLevelHelpListsCommandsAndExitCodes() async throws {
        let result = try await Self.run("--help")
        #expect(result.status == 0)
        for command in ["inspect", "convert", "lint"] { #expect(result.stdout.contains("  \(command) ")) }
        #expect(result.stdout.contains("EXIT CODES: 0 success, 1 bad input or problems found, 2 bad usage"))
        #expect(result.stderr.isEmpty)
    }

    @Test(arguments: ["inspect", "convert", "lint"])
    func everyCommandHasHelp(_ command: String) async throws {
        let result = try await Self.run(command, "--help")
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE: gramophone \(command)"))
        #expect(result.stdout.contains("EXIT CODES:"))
        #expect(try await Self.run(command, "-h").stdout == result.stdout)
    }

    @Test func badUsageExitsWithTwo() async throws {
        let none = try await Self.run()
        #expect(none.status == 2 && none.stdout.isEmpty && none.stderr.contains("USAGE"))
        let unknown = try await Self.run("frobnicate")
        #expect(unknown.status == 2 && unknown.stderr.contains("unknown command 'frobnicate'"))
        let option = try await Self.run("inspect", "--colour", "x.json")
        #expect(option.status == 2 && option.stderr.contains("unknown option --colour"))
        let missingValue = try await Self.run("convert", "a.har", "b.json", "--to")
        #expect(missingValue.status == 2 && missingValue.stderr.contains("--to needs a value"))
        for command in ["inspect", "lint"] {
            let empty = try await Self.run(command)
            #expect(empty.status == 2 && empty.stderr.contains("needs at least one FILE"))
        }
    }

    @Test func doubleDashEndsOptions() async throws {
        // After `--`, a name starting with a dash is a file, not an unknown option.
        let result = try await Self.run("inspect", "--", "-not-an-option.json")
        #expect(result.status == 1)
        #expect(result.stderr.contains("-not-an-option.json: no such file"))
        let inline = try await Self.run("inspect", "--json=yes", "x.json")
        #expect(inline.status == 2 && inline.stderr.contains("--json takes no value"))
    }

    // MARK: inspect

    @Test func inspectListsTracksOfEveryFormat() async throws {
        let har = try await Self.run("inspect", TestFiles.fixture("har/fetchPosts.har").path)
        #expect(har.status == 0 && har.stderr.isEmpty)
        #expect(har.stdout.contains("har vinyl \"fetchPosts\", 2 tracks"))
        #expect(har.stdout.contains("POST  https://api.example.com/posts  →  201"))
        let dvr = try await Self.run("inspect", TestFiles.fixture("dvr/example.json").path, FormatFiles.resource("VCR/vcrpy.json").path)
        #expect(dvr.status == 0)
        #expect(dvr.stdout.contains("dvr vinyl \"example\"") && dvr.stdout.contains("vcr vinyl \"vcrpy\", 2 tracks"))
        let mocktail = try await Self.run("inspect", FormatFiles.resource("Mocktail").path)
        #expect(mocktail.status == 0 && mocktail.stdout.contains("Mocktail folder, 5 stubs"))
    }

    @Test func inspectJSONIsMachineReadable() async throws {
        let result = try await Self.run("inspect", "--json", TestFiles.fixture("har/fetchUser.har").path)
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["format"] as? String == "har")
        let tracks = try #require(object["tracks"] as? [[String: Any]])
        #expect(tracks.first?["status"] as? Int == 200 && tracks.first?["bodyBytes"] as? Int == 52)
    }

    @Test func inspectReportsMalformedAndMissingFilesOnStderr() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = try Self.write("{\"tracks\": [\n  {\"request\": }\n]}", to: "broken.json", in: folder)
        let good = TestFiles.fixture("dvr/example.json").path
        let result = try await Self.run("inspect", broken, good, folder.appendingPathComponent("missing.json").path)
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(broken): line 2, column 15: invalid JSON"))
        #expect(result.stderr.contains("missing.json: no such file"))
        // The good file in between is still listed, on stdout.
        #expect(result.stdout.contains("dvr vinyl \"example\""))
        #expect(!result.stdout.contains("broken"))
    }

    @Test func inspectOfAFolderOfVinylsListsEach() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A test target's Vinyls folder: a vinyl at the top and a suite's vinyls in a subfolder.
        try Vinyl(name: "users", tracks: [Track("GET https://api.example.com/users/42", .json(#"{"id":42}"#))]).write(to: folder.appendingPathComponent("users.json"))
        let suite = folder.appendingPathComponent("UsersTests")
        try Vinyl(name: "posts", tracks: [Track("POST https://api.example.com/posts", .status(201))]).write(to: suite.appendingPathComponent("posts.json"))
        try Data("notes".utf8).write(to: folder.appendingPathComponent("README.md"))
        let result = try await Self.run("inspect", folder.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let headers = result.stdout.split(separator: "\n").filter { !$0.hasPrefix("  ") }
        #expect(headers == ["\(suite.path)/posts.json: gramophone vinyl \"posts\", 1 track", "\(folder.path)/users.json: gramophone vinyl \"users\", 1 track"])
        let json = try await Self.run("inspect", "--json", folder.path)
        #expect(json.stdout.split(separator: "\n").count == 2)
        let empty = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: empty) }
        let none = try await Self.run("inspect", empty.path)
        #expect(none.status == 1 && none.stderr.contains("the folder holds no vinyl files"))
    }

    @Test func inspectAlignsItsColumns() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let vinyl = Vinyl(
            name: "mixed",
            tracks: [
                Track("GET https://api.example.com/a", .json(#"{"id":1}"#)),
                Track("DELETE https://api.example.com/a/very/long/path", .status(204)),
                Track("POST https://api.example.com/b", .text(String(repeating: "x", count: 1200))),
                Track("GET https://api.example.com/c", .error(.notConnectedToInternet)),
            ] + (0..<8).map { Track(Track.Request(url: URL(string: "https://api.example.com/n/\($0)")!), .status(200)) })
        let file = folder.appendingPathComponent("mixed.json")
        try vinyl.write(to: file)
        let result = try await Self.run("inspect", file.path)
        #expect(result.status == 0)
        let rows = result.stdout.split(separator: "\n").dropFirst().map(String.init)
        #expect(rows.count == 12)
        // The URL, the arrow and the status start in the same column on every row; sizes end in one.
        let urlColumns = Set(rows.map { $0.distance(from: $0.startIndex, to: $0.range(of: "https://")!.lowerBound) })
        let arrowColumns = Set(rows.map { $0.distance(from: $0.startIndex, to: $0.range(of: "→")!.lowerBound) })
        #expect(urlColumns.count == 1 && arrowColumns.count == 1, "\(rows)")
        let sizeEnds = Set(rows.filter { $0.contains(" B ") }.map { $0.distance(from: $0.startIndex, to: $0.range(of: " B ")!.lowerBound) })
        #expect(sizeEnds.count == 1, "\(rows)")
        #expect(rows[0].hasPrefix("   #0  GET     https://api.example.com/a  "))
        #expect(rows[10].hasPrefix("  #10  GET     "))
    }

    // MARK: convert

    @Test func convertWritesTheFormatOfTheOutputExtension() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = TestFiles.fixture("har/fetchPosts.har")
        let original = try Vinyl(contentsOf: source)
        for (name, format) in [("out.plist", VinylFormat.plist), ("out.json", .gramophone), ("out.har", .har)] {
            let output = folder.appendingPathComponent(name)
            let result = try await Self.run("convert", source.path, output.path)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains("(\(format), 2 tracks)"))
            #expect(try VinylFormat.detect(data: try Data(contentsOf: output), fileExtension: output.pathExtension) == format)
            #expect(try Vinyl(contentsOf: output).tracks.map(\.response?.body) == original.tracks.map(\.response?.body))
        }
        let dvr = folder.appendingPathComponent("cassette.json")
        #expect(try await Self.run("convert", "--to=dvr", source.path, dvr.path).status == 0)
        #expect(try VinylFormat.detect(data: try Data(contentsOf: dvr), fileExtension: "json") == .dvr)
    }

    @Test func convertToStdoutPrintsOnlyTheData() async throws {
        let result = try await Self.run("convert", TestFiles.fixture("dvr/text.json").path, "-", "--to", "har")
        // The report goes to stderr: stdout is the vinyl alone.
        #expect(result.status == 0 && result.stderr.hasPrefix("converted ") && result.stderr.contains(" → stdout (har, 1 track)"), "\(result.stderr)")
        let vinyl = try Vinyl(data: Data(result.stdout.utf8), name: "stdout", format: .har)
        #expect(vinyl.tracks.count == 1)
    }

    @Test func convertUsageErrors() async throws {
        let source = TestFiles.fixture("dvr/text.json").path
        let readOnly = try await Self.run("convert", source, "out.json", "--to", "vcr")
        #expect(readOnly.status == 2 && readOnly.stderr.contains("vcr is read, not written"))
        let unknown = try await Self.run("convert", source, "out.json", "--to", "yaml")
        #expect(unknown.status == 2 && unknown.stderr.contains("unknown format 'yaml'"))
        let noExtension = try await Self.run("convert", source, "out.txt")
        #expect(noExtension.status == 2 && noExtension.stderr.contains("use --to FORMAT"))
        let oneArgument = try await Self.run("convert", source)
        #expect(oneArgument.status == 2 && oneArgument.stderr.contains("convert needs IN and OUT"))
    }

    @Test func convertOfBadInputExitsOneAndLeavesTheOutputAlone() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = try Self.write(#"{"log": {"entries": [{"request": {"url": "not a url"}, "response": {"status": 200}}]}}"#, to: "broken.har", in: folder)
        let output = try Self.write("previous", to: "out.json", in: folder)
        let result = try await Self.run("convert", broken, output)
        #expect(result.status == 1)
        #expect(result.stderr.contains("log.entries[0].request.url"))
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "previous")
        let unknown = try Self.write(#"{"hello": "world"}"#, to: "mystery.json", in: folder)
        let mystery = try await Self.run("convert", unknown, output)
        #expect(mystery.status == 1 && mystery.stderr.contains("Supported formats: gramophone (.json)"))
    }

    // MARK: lint

    @Test func lintPassesCleanFiles() async throws {
        let result = try await Self.run("lint", TestFiles.fixture("har/fetchUser.har").path, TestFiles.fixture("dvr/text.json").path)
        #expect(result.status == 0)
        #expect(result.stdout.contains("fetchUser.har: ok") && result.stdout.contains("text.json: ok"))
        #expect(result.stderr.contains("2 files checked, no problems"))
    }

    @Test func lintReportsEveryProblemWithItsPlace() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let vinyl = Vinyl(
            name: "problems",
            tracks: [
                Track("GET https://api.example.com/a", .json(#"{"ok":true}"#)),
                Track("GET https://api.example.com/a", .json(#"{"ok":false}"#)),
                Track("GET https://api.example.com/b", .data(Data("raw".utf8), contentType: nil)),
                Track("GET https://api.example.com/c", .json("{not json")),
                Track(request: "GET https://api.example.com/d", response: Track.Response(status: 200, url: URL(string: "https://evil.example.net/d"))),
                Track("GET https://api.example.com/e", .status(204)),
            ])
        let har = folder.appendingPathComponent("problems.har")
        try vinyl.write(to: har, format: .har)
        let broken = try Self.write("[{\"request\": {\"url\": 3}}]", to: "broken.json", in: folder)
        let result = try await Self.run("lint", har.path, broken)
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("\(har.path): log.entries[2].response.headers: a 3-byte body has no Content-Type") })
        #expect(lines.contains { $0.hasPrefix("\(har.path): log.entries[3].response.body: Content-Type is application/json but the body is not valid JSON") })
        #expect(lines.contains { $0.hasPrefix("\(har.path): log.entries[4].response.url: the response came from host evil.example.net") })
        #expect(lines.contains { $0.hasPrefix("\(broken): [0].request.url: expected a string") })
        #expect(lines.count == 4, "\(lines)")
        #expect(result.stderr.contains("4 problems in 2 of 2 files"))
    }

    /// A request recorded twice is two occurrences, each replayed in its turn: no problem,
    /// unless the file is replayed as DVR did, where the last copy answers and the first is dead.
    @Test func lintTakesRepeatsAsOccurrencesUnlessToldTheVinylIsMatchedAsDVR() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let vinyl = Vinyl(
            name: "visits",
            tracks: [Track("GET https://api.example.com/a", .json(#"{"visit":1}"#)), Track("GET https://api.example.com/a", .json(#"{"visit":2}"#))])
        let file = folder.appendingPathComponent("visits.json")
        try vinyl.write(to: file)
        let occurrences = try await Self.run("lint", file.path)
        #expect(occurrences.status == 0, "\(occurrences.stdout)")
        let asDVR = try await Self.run("lint", file.path, "--matching", "dvr")
        #expect(asDVR.status == 1)
        #expect(asDVR.stdout.contains("tracks[1]: the same request as track #0"), "\(asDVR.stdout)")
        let wrong = try await Self.run("lint", file.path, "--matching", "first")
        #expect(wrong.status == 2)
    }

    @Test func lintReportsEveryStructuralErrorOfAFile() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Three broken tracks among good ones: each is reported at its place in the file.
        let har = try Self.write(
            #"""
            {"log": {"version": "1.2", "entries": [
              {"request": {"method": "GET", "url": "https://api.example.com/a", "headers": []}, "response": {"status": 200, "headers": [], "content": {"text": ""}}},
              {"request": {"method": "GET", "url": "not a url", "headers": []}, "response": {"status": 200, "headers": [], "content": {"text": ""}}},
              {"request": {"method": "GET", "url": "https://api.example.com/c", "headers": []}, "response": {"status": "ok", "headers": [], "content": {"text": ""}}},
              {"request": {"method": "GET", "url": "https://api.example.com/d", "headers": []}, "response": {"status": 200, "headers": [], "content": {"text": ""}}},
              {"request": {"method": "GET", "headers": []}, "response": {"status": 200, "headers": [], "content": {"text": ""}}}
            ]}}
            """#, to: "three.har", in: folder)
        let array = try Self.write(
            #"[{"request": {"url": 3}}, {"request": {"method": "GET", "url": "https://a.example/"}, "response": {"status": 200}}, {"request": {"url": 4}}]"#,
            to: "array.json", in: folder)
        let syntax = try Self.write("{\"tracks\": [\n  {\"request\": }\n]}", to: "syntax.json", in: folder)
        let result = try await Self.run("lint", har, array, syntax)
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("\(har): log.entries[1].request.url") }.count == 1, "\(lines)")
        #expect(lines.filter { $0.hasPrefix("\(har): log.entries[2].response.status") }.count == 1, "\(lines)")
        #expect(lines.filter { $0.hasPrefix("\(har): log.entries[4].request") }.count == 1, "\(lines)")
        #expect(lines.filter { $0.hasPrefix("\(array): [0].request.url: expected a string") }.count == 1, "\(lines)")
        #expect(lines.filter { $0.hasPrefix("\(array): [2].request.url: expected a string") }.count == 1, "\(lines)")
        // A syntax error is one problem: nothing after it can be read.
        #expect(lines.filter { $0.hasPrefix(syntax) }.count == 1, "\(lines)")
        #expect(lines.count == 6, "\(lines)")
        #expect(result.stderr.contains("6 problems in 3 of 3 files"))
    }

    @Test func lintOfMissingFileIsAProblem() async throws {
        let result = try await Self.run("lint", "--quiet", "/nonexistent/vinyl.json", TestFiles.fixture("dvr/text.json").path)
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("/nonexistent/vinyl.json: no such file"))
        #expect(result.stdout.split(separator: "\n").count == 1)
    }
}
