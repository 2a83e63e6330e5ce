import Foundation
import Gramophone
import GramophoneTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Files the tests read.
enum TestFiles {
    /// Files written by other tools (copied from shared/fixtures; see its README for sources and licenses).
    static var fixtures: URL {
        // `.copy("Resources")` keeps the folder; ask the bundle rather than assume its layout.
        Bundle.module.url(forResource: "Fixtures", withExtension: nil, subdirectory: "Resources")
            ?? Bundle.module.bundleURL.appendingPathComponent("Resources/Fixtures")
    }

    static func fixture(_ path: String) -> URL { fixtures.appendingPathComponent(path) }

    static func fixtures(in folder: String) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: fixtures.appendingPathComponent(folder), includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" || $0.pathExtension == "har" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// The repository's own `Vinyls` folder, which the README's first command reads
    /// (`swift run gramophone inspect Vinyls/example.json`): a CLI path, not the default store
    /// of these tests (that is this target's `Vinyls` folder, beside `Support/`).
    static var repositoryVinyls: VinylStore {
        .folder(URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Vinyls"))
    }

    /// A fresh temporary folder, removed by the caller.
    static func temporaryFolder() throws -> URL { try makeTemporaryFolder(prefix: "gramophone-tests") }
}
