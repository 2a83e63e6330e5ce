import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

/// Issue 31: a vinyl loaded from a bundle and recorded was written into the build product,
/// which the next build replaced. Recording writes through to the source folder the bundle
/// copies (`Tests/<Target>/Vinyls`, found from the test file), or refuses naming it; a miss
/// names the source file, not the built copy.
@Suite("Recording a bundle's vinyl writes its source")
struct BundleRecordingTests {
    /// A package with `Tests/AppTests/Vinyls/`, and a "built bundle" holding a copy of that folder.
    struct Layout {
        let root: URL
        let sourceVinyls: URL
        let testFile: String
        let bundleResources: URL
        var store: VinylStore { VinylStore(place: .bundle(resources: bundleResources, path: bundleResources.deletingLastPathComponent().path)) }

        init(sourceFolder: Bool = true) throws {
            root = try makeTemporaryFolder(prefix: "gramophone-bundle-recording")
            let package = root.appendingPathComponent("MyPackage")
            try FileManager.default.createDirectory(at: package.appendingPathComponent("Tests/AppTests"), withIntermediateDirectories: true)
            try Data("// swift-tools-version:6.2".utf8).write(to: package.appendingPathComponent("Package.swift"))
            sourceVinyls = package.appendingPathComponent("Tests/AppTests/Vinyls")
            if sourceFolder { try FileManager.default.createDirectory(at: sourceVinyls, withIntermediateDirectories: true) }
            testFile = package.appendingPathComponent("Tests/AppTests/UsersTests.swift").path
            bundleResources = package.appendingPathComponent(".build/debug/MyPackage_AppTests.resources")
            try FileManager.default.createDirectory(at: bundleResources.appendingPathComponent("Vinyls"), withIntermediateDirectories: true)
        }
    }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func aRecordingLandsInTheSourceFolderNotTheBundle() async throws {
        let base = try HTTPBin.baseURL()
        let layout = try Layout()
        defer { try? FileManager.default.removeItem(at: layout.root) }
        // GRAMOPHONE_RECORD_MODE=once, as the bundle's missing-vinyl error advises.
        let recording = Recording(environment: ["GRAMOPHONE_RECORD_MODE": "once"])
        let turntable = try Turntable(vinylNamed: "users", from: layout.store, matching: .default, recording: recording, sourcePath: layout.testFile)
        _ = try await turntable.data(from: base.appendingPathComponent("uuid"))
        try turntable.eject()
        let written = layout.sourceVinyls.appendingPathComponent("users.json")
        #expect(turntable.playback.file?.path == written.path)
        #expect(try Vinyl(contentsOf: written).tracks.count == 1)
        #expect(!FileManager.default.fileExists(atPath: layout.bundleResources.appendingPathComponent("Vinyls/users.json").path))

        // The next run reads the source too: once, the file exists, so it replays and stays as it was.
        let again = try Turntable(vinylNamed: "users", from: layout.store, matching: .default, recording: recording, sourcePath: layout.testFile)
        #expect(again.vinyl.tracks.count == 1)
        #expect(again.playback.isWriteProtected)
    }

    @Test func withoutTheSourceFolderItRefusesNamingThePathToUse() throws {
        let layout = try Layout(sourceFolder: false)
        defer { try? FileManager.default.removeItem(at: layout.root) }
        let recording = Recording(mode: .once, session: OfflineSession(), environment: [:])
        let error = #expect(throws: VinylError.self) {
            try Turntable(vinylNamed: "users", from: layout.store, matching: .default, recording: recording, sourcePath: layout.testFile)
        }
        #expect(error?.kind == .unwritable)
        #expect(error?.problem.contains("would write a build product") == true)
        #expect(error?.fix.contains(layout.sourceVinyls.standardizedFileURL.path) == true)
        #expect(!FileManager.default.fileExists(atPath: layout.bundleResources.appendingPathComponent("Vinyls/users.json").path))

        // No project above the test file at all (a device): still refused, never written into the bundle.
        #expect(throws: VinylError.self) {
            try Turntable(vinylNamed: "users", from: layout.store, matching: .default, recording: recording, sourcePath: "/nonexistent/Tests/X/T.swift")
        }
    }

    /// Issue 45: a bundle's vinyl that exists replays under a recording mode without a source
    /// folder (DVR's `testBundle:` with its default `recordingEnabled`); only what it would
    /// record fails, naming where it would write, and nothing goes into the bundle.
    @Test func withoutTheSourceFolderAnExistingVinylReplaysAndOnlyARecordingFails() async throws {
        let layout = try Layout(sourceFolder: false)
        defer { try? FileManager.default.removeItem(at: layout.root) }
        let built = layout.bundleResources.appendingPathComponent("Vinyls/users.json")
        try Vinyl(name: "users", tracks: [Track("GET https://api.example.com/users", .text("alice"))]).write(to: built)
        let before = try Data(contentsOf: built)
        for mode in [RecordMode.once, .newEpisodes] {
            let recording = Recording(mode: mode, session: OfflineSession(), environment: [:])
            let turntable = try Turntable(vinylNamed: "users", from: layout.store, matching: .default, recording: recording, sourcePath: layout.testFile)
            let (data, _) = try await turntable.data(from: URL(string: "https://api.example.com/users")!)
            #expect(String(decoding: data, as: UTF8.self) == "alice")
            let miss = await #expect(throws: TurntableError.self) {
                _ = try await turntable.data(from: URL(string: "https://api.example.com/other")!)
            }
            if mode == .newEpisodes {
                // It would record this one: the miss says where it would write.
                #expect(miss.map { "\($0)" }?.contains(layout.sourceVinyls.standardizedFileURL.path) == true)
            }
            #expect(try turntable.eject() == nil)
            let refused = #expect(throws: VinylError.self) { try turntable.eject(evenIfUnchanged: true) }
            #expect(refused?.kind == .unwritable)
        }
        #expect(try Data(contentsOf: built) == before)
    }

    @Test func aMissNamesTheSourceFileNotTheBuiltCopy() async throws {
        let layout = try Layout()
        defer { try? FileManager.default.removeItem(at: layout.root) }
        let vinyl = Vinyl(name: "users", tracks: [Track("GET https://api.example.com/users/1", .json("{}"))])
        try vinyl.write(to: layout.sourceVinyls.appendingPathComponent("users.json"))
        try vinyl.write(to: layout.bundleResources.appendingPathComponent("Vinyls/users.json"))
        let turntable = try Turntable(vinylNamed: "users", from: layout.store, matching: .default, recording: nil, sourcePath: layout.testFile)
        let error = await #expect(throws: TurntableError.self) {
            try await turntable.data(from: URL(string: "https://api.example.com/users/2")!)
        }
        let text = try #require(error?.description)
        let source = layout.sourceVinyls.appendingPathComponent("users.json").standardizedFileURL.path
        #expect(text.contains("add a track for it to \(source)"))
        #expect(!text.contains(".build"))
    }
}
