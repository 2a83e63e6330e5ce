import Foundation
import Testing

@testable import Gramophone

/// `gramophone lint` on DVR cassettes: what DVR's writer did is not a defect of the file, what
/// would replay wrongly is reported.
@Suite struct DVRLintTests {
    @Test func lintAcceptsTheLengthOfJSONThatDVRReserialised() async throws {
        // DVR stores JSON bodies as values: the bytes read back are compact, the recorded
        // Content-Length counted the server's pretty-printed ones (635 in upload-data.json).
        let result = try await CLITests.run("lint", TestFiles.fixture("dvr/upload-data.json").path)
        #expect(!result.stdout.contains("Content-Length"), "\(result.stdout)")
    }

    @Test(arguments: ["br", "deflate"])
    func lintReportsACompressionClaimOverPlainText(_ encoding: String) async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = """
            {"name": "catty", "interactions": [{"recorded_at": 1500000000,
              "request": {"method": "GET", "url": "https://api.example.com/a"},
              "response": {"status": 200, "url": "https://api.example.com/a",
                "headers": {"Content-Type": "application/json", "Content-Encoding": "\(encoding)"}, "body": {"ok": true}}}]}
            """
        let file = try CLITests.write(json, to: "catty.json", in: folder)
        let result = try await CLITests.run("lint", file)
        #expect(result.status == 1)
        #expect(result.stdout.contains("interactions[0].response.headers: Content-Encoding says \(encoding) but the body is stored decoded"), "\(result.stdout)")
    }

    @Test func lintNamesTheInteractionWhoseBodyCouldNotBeDecoded() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try CLITests.write(DVRReadingTests.cassetteWithABadBody, to: "fail.json", in: folder)
        let result = try await CLITests.run("lint", file)
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("\(file): interactions[0].response.body: the body is not valid base64 (DVR read it as no body); served as an empty body") }, "\(lines)")
    }
}
