import Foundation
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

    static func run(_ arguments: String...) throws -> Run {
        let process = Process()
        process.executableURL = try binary()
        process.arguments = arguments
        // Files, not pipes: a chatty process cannot fill a pipe and hang the test.
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out"), err = folder.appendingPathComponent("err")
        try Data().write(to: out)
        try Data().write(to: err)
        let outHandle = try FileHandle(forWritingTo: out), errHandle = try FileHandle(forWritingTo: err)
        process.standardOutput = outHandle
        process.standardError = errHandle
        try process.run()
        process.waitUntilExit()
        try outHandle.close()
        try errHandle.close()
        return Run(
            status: process.terminationStatus,
            stdout: try String(contentsOf: out, encoding: .utf8), stderr: try String(contentsOf: err, encoding: .utf8))
    }

    static func write(_ text: String, to name: String, in folder: URL) throws -> String {
        let file = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file.path
    }

    // MARK: Help and usage

    @Test func topLevelHelpListsCommandsAndExitCodes() throws {
        let result = try Self.run("--help")
        #expect(result.status == 0)
        for command in ["inspect", "convert", "lint"] { #expect(result.stdout.contains("  \(command) ")) }
        #expect(result.stdout.contains("EXIT CODES: 0 success, 1 bad input or problems found, 2 bad usage"))
        #expect(result.stderr.isEmpty)
    }

    @Test(arguments: ["inspect", "convert", "lint"])
    func everyCommandHasHelp(_ command: String) throws {
        let result = try Self.run(command, "--help")
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE: gramophone \(command)"))
        #expect(result.stdout.contains("EXIT CODES:"))
        #expect(try Self.run(command, "-h").stdout == result.stdout)
    }

    @Test func badUsageExitsWithTwo() throws {
        let none = try Self.run()
        #expect(none.status == 2 && none.stdout.isEmpty && none.stderr.contains("USAGE"))
        let unknown = try Self.run("frobnicate")
        #expect(unknown.status == 2 && unknown.stderr.contains("unknown command 'frobnicate'"))
        let option = try Self.run("inspect", "--colour", "x.json")
        #expect(option.status == 2 && option.stderr.contains("unknown option --colour"))
        let missingValue = try Self.run("convert", "a.har", "b.json", "--to")
        #expect(missingValue.status == 2 && missingValue.stderr.contains("--to needs a value"))
        for command in ["inspect", "lint"] {
            let empty = try Self.run(command)
            #expect(empty.status == 2 && empty.stderr.contains("needs at least one FILE"))
        }
    }

    @Test func doubleDashEndsOptions() throws {
        // After `--`, a name starting with a dash is a file, not an unknown option.
        let result = try Self.run("inspect", "--", "-not-an-option.json")
        #expect(result.status == 1)
        #expect(result.stderr.contains("-not-an-option.json: no such file"))
        let inline = try Self.run("inspect", "--json=yes", "x.json")
        #expect(inline.status == 2 && inline.stderr.contains("--json takes no value"))
    }

    // MARK: inspect

    @Test func inspectListsTracksOfEveryFormat() throws {
        let har = try Self.run("inspect", TestFiles.fixture("har/fetchPosts.har").path)
        #expect(har.status == 0 && har.stderr.isEmpty)
        #expect(har.stdout.contains("har vinyl \"fetchPosts\", 2 tracks"))
        #expect(har.stdout.contains("POST    https://api.example.com/posts  →  201"))
        let dvr = try Self.run("inspect", TestFiles.fixture("dvr/example.json").path, FormatFiles.resource("VCR/vcrpy.json").path)
        #expect(dvr.status == 0)
        #expect(dvr.stdout.contains("dvr vinyl \"example\"") && dvr.stdout.contains("vcr vinyl \"vcrpy\", 2 tracks"))
        let mocktail = try Self.run("inspect", FormatFiles.resource("Mocktail").path)
        #expect(mocktail.status == 0 && mocktail.stdout.contains("Mocktail folder, 5 stubs"))
    }

    @Test func inspectJSONIsMachineReadable() throws {
        let result = try Self.run("inspect", "--json", TestFiles.fixture("har/fetchUser.har").path)
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["format"] as? String == "har")
        let tracks = try #require(object["tracks"] as? [[String: Any]])
        #expect(tracks.first?["status"] as? Int == 200 && tracks.first?["bodyBytes"] as? Int == 52)
    }

    @Test func inspectReportsMalformedAndMissingFilesOnStderr() throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = try Self.write("{\"tracks\": [\n  {\"request\": }\n]}", to: "broken.json", in: folder)
        let good = TestFiles.fixture("dvr/example.json").path
        let result = try Self.run("inspect", broken, good, folder.appendingPathComponent("missing.json").path)
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(broken): line 2, column 15: invalid JSON"))
        #expect(result.stderr.contains("missing.json: no such file"))
        // The good file in between is still listed, on stdout.
        #expect(result.stdout.contains("dvr vinyl \"example\""))
        #expect(!result.stdout.contains("broken"))
    }

    // MARK: convert

    @Test func convertWritesTheFormatOfTheOutputExtension() throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = TestFiles.fixture("har/fetchPosts.har")
        let original = try Vinyl(contentsOf: source)
        for (name, format) in [("out.plist", VinylFormat.plist), ("out.json", .gramophone), ("out.har", .har)] {
            let output = folder.appendingPathComponent(name)
            let result = try Self.run("convert", source.path, output.path)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains("(\(format), 2 tracks)"))
            #expect(try VinylFormat.detect(data: try Data(contentsOf: output), fileExtension: output.pathExtension) == format)
            #expect(try Vinyl(contentsOf: output).tracks.map(\.response?.body) == original.tracks.map(\.response?.body))
        }
        let dvr = folder.appendingPathComponent("cassette.json")
        #expect(try Self.run("convert", "--to=dvr", source.path, dvr.path).status == 0)
        #expect(try VinylFormat.detect(data: try Data(contentsOf: dvr), fileExtension: "json") == .dvr)
    }

    @Test func convertToStdoutPrintsOnlyTheData() throws {
        let result = try Self.run("convert", TestFiles.fixture("dvr/text.json").path, "-", "--to", "har")
        #expect(result.status == 0 && result.stderr.isEmpty)
        let vinyl = try Vinyl(data: Data(result.stdout.utf8), name: "stdout", format: .har)
        #expect(vinyl.tracks.count == 1)
    }

    @Test func convertUsageErrors() throws {
        let source = TestFiles.fixture("dvr/text.json").path
        let readOnly = try Self.run("convert", source, "out.json", "--to", "vcr")
        #expect(readOnly.status == 2 && readOnly.stderr.contains("vcr is read, not written"))
        let unknown = try Self.run("convert", source, "out.json", "--to", "yaml")
        #expect(unknown.status == 2 && unknown.stderr.contains("unknown format 'yaml'"))
        let noExtension = try Self.run("convert", source, "out.txt")
        #expect(noExtension.status == 2 && noExtension.stderr.contains("use --to FORMAT"))
        let oneArgument = try Self.run("convert", source)
        #expect(oneArgument.status == 2 && oneArgument.stderr.contains("convert needs IN and OUT"))
    }

    @Test func convertOfBadInputExitsOneAndLeavesTheOutputAlone() throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = try Self.write(#"{"log": {"entries": [{"request": {"url": "not a url"}, "response": {"status": 200}}]}}"#, to: "broken.har", in: folder)
        let output = try Self.write("previous", to: "out.json", in: folder)
        let result = try Self.run("convert", broken, output)
        #expect(result.status == 1)
        #expect(result.stderr.contains("log.entries[0].request.url"))
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "previous")
        let unknown = try Self.write(#"{"hello": "world"}"#, to: "mystery.json", in: folder)
        let mystery = try Self.run("convert", unknown, output)
        #expect(mystery.status == 1 && mystery.stderr.contains("Supported formats: gramophone (.json)"))
    }

    // MARK: lint

    @Test func lintPassesCleanFiles() throws {
        let result = try Self.run("lint", TestFiles.fixture("har/fetchUser.har").path, TestFiles.fixture("dvr/text.json").path)
        #expect(result.status == 0)
        #expect(result.stdout.contains("fetchUser.har: ok") && result.stdout.contains("text.json: ok"))
        #expect(result.stderr.contains("2 files checked, no problems"))
    }

    @Test func lintReportsEveryProblemWithItsPlace() throws {
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
        let result = try Self.run("lint", har.path, broken)
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("\(har.path): log.entries[1]: the same request as track #0") })
        #expect(lines.contains { $0.hasPrefix("\(har.path): log.entries[2].response.headers: a 3-byte body has no Content-Type") })
        #expect(lines.contains { $0.hasPrefix("\(har.path): log.entries[3].response.body: Content-Type is application/json but the body is not valid JSON") })
        #expect(lines.contains { $0.hasPrefix("\(har.path): log.entries[4].response.url: the response came from host evil.example.net") })
        #expect(lines.contains { $0.hasPrefix("\(broken): [0].request.url: expected a string") })
        #expect(lines.count == 5, "\(lines)")
        #expect(result.stderr.contains("5 problems in 2 of 2 files"))
    }

    @Test func lintOfMissingFileIsAProblem() throws {
        let result = try Self.run("lint", "--quiet", "/nonexistent/vinyl.json", TestFiles.fixture("dvr/text.json").path)
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("/nonexistent/vinyl.json: no such file"))
        #expect(result.stdout.split(separator: "\n").count == 1)
    }
}
