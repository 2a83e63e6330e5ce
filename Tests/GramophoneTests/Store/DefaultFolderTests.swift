import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

/// Where vinyls are found when no store is named: the `Vinyls` folder of the test's target
/// (`Tests/<Target>/Vinyls`, the folder the README's `resources: [.copy("Vinyls")]` names),
/// found from the source file, not the working directory (Xcode runs tests elsewhere).
@Suite("Default vinyl folder and Xcode's environment")
struct DefaultFolderTests {
    static func folder(near source: URL) -> String {
        VinylLocation.defaultFolder(near: source.path, environment: [:]).standardizedFileURL.path
    }

    @Test func theFolderIsTheTestTargetsVinylsFoundFromTheSourceFile() throws {
        let root = try makeTemporaryFolder(prefix: "gramophone-default-folder")
        defer { try? FileManager.default.removeItem(at: root) }
        let package = root.appendingPathComponent("MyPackage")
        try FileManager.default.createDirectory(at: package.appendingPathComponent("Tests/AppTests/Nested"), withIntermediateDirectories: true)
        try Data("// swift-tools-version:6.2".utf8).write(to: package.appendingPathComponent("Package.swift"))
        let targetVinyls = package.appendingPathComponent("Tests/AppTests/Vinyls").standardizedFileURL.path
        // A test file in the target, or in a subfolder of it: the target's Vinyls.
        #expect(Self.folder(near: package.appendingPathComponent("Tests/AppTests/UsersTests.swift")) == targetVinyls)
        #expect(Self.folder(near: package.appendingPathComponent("Tests/AppTests/Nested/UsersTests.swift")) == targetVinyls)
        // Code in a library target: that target's folder, by the same rule.
        #expect(Self.folder(near: package.appendingPathComponent("Sources/App/Debug.swift")) == package.appendingPathComponent("Sources/App/Vinyls").standardizedFileURL.path)
        // A target at a custom path directly under the root, and a file in the root.
        #expect(Self.folder(near: package.appendingPathComponent("IntegrationTests/A.swift")) == package.appendingPathComponent("IntegrationTests/Vinyls").standardizedFileURL.path)
        #expect(Self.folder(near: package.appendingPathComponent("main.swift")) == package.appendingPathComponent("Vinyls").standardizedFileURL.path)

        // An Xcode project: the test target's folder next to the .xcodeproj.
        let app = root.appendingPathComponent("App")
        try FileManager.default.createDirectory(at: app.appendingPathComponent("App.xcodeproj"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: app.appendingPathComponent("AppTests"), withIntermediateDirectories: true)
        #expect(Self.folder(near: app.appendingPathComponent("AppTests/T.swift")) == app.appendingPathComponent("AppTests/Vinyls").standardizedFileURL.path)
    }

    @Test func withoutASourceTreeItIsTheWorkingDirectorysVinyls() {
        // A binary run where its sources are not (a device, another machine).
        let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("Vinyls").standardizedFileURL.path
        #expect(Self.folder(near: URL(fileURLWithPath: "/nonexistent-\(UUID())/Tests/X/T.swift")) == here)
    }

    @Test func theVariableWinsWithOrWithoutTheTestRunnerPrefix() {
        let here = "\(#filePath)"
        #expect(VinylLocation.defaultFolder(near: here, environment: ["GRAMOPHONE_VINYLS": "/tmp/v"]).path == "/tmp/v")
        #expect(VinylLocation.defaultFolder(near: here, environment: ["TEST_RUNNER_GRAMOPHONE_VINYLS": "/tmp/w"]).path == "/tmp/w")
    }

    @Test func thisTargetsVinylsAreFoundFromThisFile() throws {
        // Tests/GramophoneTests/Store/DefaultFolderTests.swift → the target's folder's Vinyls
        // (Tests/GramophoneTests then Vinyls), wherever the process runs and however deep the file sits.
        let expected = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Vinyls")
        #expect(VinylLocation.defaultFolder(near: "\(#filePath)", environment: [:]).standardizedFileURL.path == expected.standardizedFileURL.path)
        #expect(VinylStore.defaultFolder().description == expected.path)
        // The README's first command reads the repository's Vinyls/example.json: a CLI path, named as a folder here.
        let turntable = try Turntable(vinylNamed: "example", from: TestFiles.repositoryVinyls)
        #expect(!turntable.vinyl.tracks.isEmpty)
    }

    @Test(arguments: [["TEST_RUNNER_CI": "1"], ["CI": "true"], ["TEST_RUNNER_GRAMOPHONE_RECORD_MODE": "never"]])
    func prefixedVariablesCountAsTheirPlainNames(environment: [String: String]) throws {
        #expect(try Recording(environment: environment).resolvedMode() == .never)
    }
}
