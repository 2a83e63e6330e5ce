import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

/// Where vinyls are found when no store is named: from the test's source file, not the working
/// directory (Xcode runs tests elsewhere), and the variables Xcode passes with a prefix.
@Suite("Default vinyl folder and Xcode's environment")
struct DefaultFolderTests {
    @Test func theFolderIsFoundFromTheSourceFileUpToThePackageRoot() throws {
        let root = try makeTemporaryFolder(prefix: "gramophone-default-folder")
        defer { try? FileManager.default.removeItem(at: root) }
        let package = root.appendingPathComponent("MyPackage")
        let tests = package.appendingPathComponent("Tests/AppTests/Nested")
        try FileManager.default.createDirectory(at: tests, withIntermediateDirectories: true)
        try Data("// swift-tools-version:6.2".utf8).write(to: package.appendingPathComponent("Package.swift"))
        let source = tests.appendingPathComponent("UsersTests.swift").path
        #expect(
            VinylLocation.defaultFolder(near: source, environment: [:]).standardizedFileURL.path
                == package.appendingPathComponent("Vinyls").standardizedFileURL.path)

        let app = root.appendingPathComponent("App")
        try FileManager.default.createDirectory(at: app.appendingPathComponent("App.xcodeproj"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: app.appendingPathComponent("AppTests"), withIntermediateDirectories: true)
        #expect(
            VinylLocation.defaultFolder(near: app.appendingPathComponent("AppTests/T.swift").path, environment: [:]).standardizedFileURL.path
                == app.appendingPathComponent("Vinyls").standardizedFileURL.path)
    }

    @Test func theVariableWinsWithOrWithoutTheTestRunnerPrefix() {
        let here = "\(#filePath)"
        #expect(VinylLocation.defaultFolder(near: here, environment: ["GRAMOPHONE_VINYLS": "/tmp/v"]).path == "/tmp/v")
        #expect(VinylLocation.defaultFolder(near: here, environment: ["TEST_RUNNER_GRAMOPHONE_VINYLS": "/tmp/w"]).path == "/tmp/w")
    }

    @Test func thisPackagesVinylsAreFoundFromThisFile() throws {
        // Tests/GramophoneTests/DefaultFolderTests.swift → <repository>/Vinyls, wherever the process runs.
        let expected = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Vinyls")
        #expect(VinylLocation.defaultFolder(near: "\(#filePath)", environment: [:]).standardizedFileURL.path == expected.standardizedFileURL.path)
        // The README's first command plays Vinyls/example.json; a Turntable finds it by name alone.
        let turntable = try Turntable(vinylNamed: "example")
        #expect(!turntable.vinyl.tracks.isEmpty)
    }

    @Test(arguments: [["TEST_RUNNER_CI": "1"], ["CI": "true"], ["TEST_RUNNER_GRAMOPHONE_RECORD_MODE": "never"]])
    func prefixedVariablesCountAsTheirPlainNames(environment: [String: String]) throws {
        #expect(try Recording(environment: environment).resolvedMode() == .never)
    }
}
