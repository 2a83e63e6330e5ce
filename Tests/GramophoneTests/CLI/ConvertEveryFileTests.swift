import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

/// `gramophone convert` of every file other tools wrote (../shared/fixtures beside the
/// repository, as CI clones it) and every test resource, to every writable format: it converts
/// or says why not (exit 0 or 1), never dies by a signal (issue 19: a Set-Cookie crashed it).
@Suite struct ConvertEveryFileTests {
    /// The repository's root, from this file's place in it.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func files(under folder: URL) -> [URL] {
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        var files: [URL] = []
        while let url = walker?.nextObject() as? URL {
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true { files.append(url) }
        }
        return files.sorted { $0.path < $1.path }
    }

    static var shared: URL { root.deletingLastPathComponent().appendingPathComponent("shared/fixtures") }

    // The project's own CI clones shared/ beside the repository; a clone on its own (GitHub's
    // macOS jobs, a user's checkout) has the test resources only, and this test says it was skipped.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: shared.path), "shared/fixtures is not beside the repository"))
    func everySharedFixtureAndTestResourceConvertsToEveryWritableFormatWithoutASignal() async throws {
        let shared = Self.shared
        let resources = Self.root.appendingPathComponent("Tests/GramophoneTests/Resources")
        let sharedFiles = Self.files(under: shared), resourceFiles = Self.files(under: resources)
        #expect(sharedFiles.count >= 10 && resourceFiles.count >= 10, "\(sharedFiles.count) shared files, \(resourceFiles.count) resources")
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var converted = 0
        for (number, file) in (sharedFiles + resourceFiles).enumerated() {
            // Redacted as by default, and with every header kept so all of it reaches the writers.
            for (format, keep) in VinylFormat.allCases.filter(\.isWritable).flatMap({ format in [(format, false), (format, true)] }) {
                let output = folder.appendingPathComponent("\(number).\(format.description)\(keep ? ".kept" : "").\(format.fileExtension)")
                let child = try await ChildProcess.run(
                    try CLITests.binary(), ["convert", file.path, output.path, "--to", format.description] + (keep ? ["--keep-secrets"] : []))
                #expect(!child.killedBySignal, "\(file.path) to \(format): killed by signal \(child.status)")
                #expect([0, 1].contains(child.status), "\(file.path) to \(format): exit \(child.status)")
                if !child.killedBySignal, child.status == 0 {
                    converted += 1
                    // What was written reads back as that format.
                    #expect(throws: Never.self, "\(file.path) to \(format)") { _ = try Vinyl(contentsOf: output, format: format) }
                }
            }
        }
        // Most inputs are vinyls; READMEs, an upload body and .tail stubs exit 1.
        #expect(converted >= 2 * 4 * 25, "only \(converted) conversions succeeded")
    }
}
