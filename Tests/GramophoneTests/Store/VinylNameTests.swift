import Foundation
import Testing

@testable import Gramophone

/// Vinyl names come from test names and environment variables: a name must never lead a read
/// or a write outside the vinyl folder, and a bad one is refused before any file is touched.
@Suite("Vinyl names")
struct VinylNameTests {
    static let hostileNames: [String] = [
        "..", "../secret", "a/../../secret", "a/..", "./secret", "a/./b",
        "/etc/passwd", "/tmp/secret", "~/secret", "~root/secret",
        "a\\b", "..\\secret", "C:\\Windows\\secret",
        "a\0b", "secret\0.json",
        "a//b", "a/", "",
        "line\nbreak", "tab\there",
        String(repeating: "a", count: 256),
        "ok/" + String(repeating: "b", count: 256),
        String(repeating: "abc/", count: 300) + "x",
    ]

    /// A vinyl folder with a valid vinyl called `secret.json` right beside it, outside it.
    struct Sandbox {
        let root: URL
        let vinyls: URL
        let canary: URL
        let canaryBytes: Data

        init() throws {
            root = try TestFiles.temporaryFolder()
            vinyls = root.appendingPathComponent("Vinyls", isDirectory: true)
            try FileManager.default.createDirectory(at: vinyls, withIntermediateDirectories: true)
            canary = root.appendingPathComponent("secret.json")
            canaryBytes = try Vinyl(name: "secret", tracks: [Track("https://secret.example/", .text("canary"))]).encoded()
            try canaryBytes.write(to: canary)
        }

        /// Every file under the sandbox with its size and content, to prove nothing changed.
        func snapshot() throws -> [String: Data] {
            var result: [String: Data] = [:]
            let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
            while let url = enumerator?.nextObject() as? URL {
                let values = try url.resourceValues(forKeys: [.isRegularFileKey])
                result[url.path] = values.isRegularFile == true ? try Data(contentsOf: url) : Data()
            }
            return result
        }

        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    @Test(arguments: hostileNames)
    func hostileNamesAreRejected(name: String) throws {
        let error = try #require(throws: VinylError.self) { try VinylLocation.validate(name) }
        #expect(error.kind == .invalidName)
        #expect(error.problem.contains("is not allowed"))
    }

    @Test(arguments: ["users", "UsersTests/fetchesUser", "a.b.c", "deep/er/still", "caf\u{E9}", "x.har", String(repeating: "a", count: 255)])
    func ordinaryNamesAreAccepted(name: String) throws {
        let folder = URL(fileURLWithPath: "/vinyls", isDirectory: true)
        let file = try VinylLocation.file(for: name, in: folder)
        #expect(file.path.hasPrefix("/vinyls/"))
    }

    @Test func theNameInTheMessageShowsControlCharacters() throws {
        let error = try #require(throws: VinylError.self) { try VinylLocation.validate("a\u{0}b") }
        #expect(error.problem.contains(#""a\u{0}b""#))
    }

    @Test func hostileNamesNeitherReadNorWriteAnything() throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let before = try sandbox.snapshot()
        let vinyl = Vinyl(name: "intruder", tracks: [Track("https://evil.example/", .text("overwritten"))])
        for name in Self.hostileNames {
            // Reading: the canary is a valid vinyl, so a name that reached it would load it.
            #expect(throws: VinylError.self, "reading \(name.debugDescription)") { _ = try Turntable(vinylNamed: name, from: .folder(sandbox.vinyls)) }
            let turntable = Turntable(vinyl: Vinyl(name: "empty"))
            #expect(throws: VinylError.self, "loading \(name.debugDescription)") { try turntable.load(vinylNamed: name, from: .folder(sandbox.vinyls)) }
            // Writing: the path a recorder would write to is refused before the write.
            #expect(throws: VinylError.self, "writing \(name.debugDescription)") {
                try vinyl.write(to: VinylLocation.file(for: name, in: sandbox.vinyls))
            }
        }
        #expect(try sandbox.snapshot() == before)
    }

    @Test func aSymlinkedSubfolderCannotLeadOutside() throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        try FileManager.default.createSymbolicLink(at: sandbox.vinyls.appendingPathComponent("escape"), withDestinationURL: sandbox.root)
        let before = try sandbox.snapshot()
        let error = try #require(throws: VinylError.self) { _ = try Turntable(vinylNamed: "escape/secret", from: .folder(sandbox.vinyls)) }
        #expect(error.kind == .invalidName)
        #expect(error.problem.contains("symbolic link"))
        #expect(throws: VinylError.self) {
            try Vinyl(name: "x").write(to: VinylLocation.file(for: "escape/secret", in: sandbox.vinyls))
        }
        #expect(throws: VinylError.self) {
            try Vinyl(name: "x").write(to: VinylLocation.file(for: "escape/new/deeper", in: sandbox.vinyls))
        }
        #expect(try sandbox.snapshot() == before)
    }

    @Test func aSymlinkedVinylFileCannotBeReadThrough() throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        try FileManager.default.createSymbolicLink(at: sandbox.vinyls.appendingPathComponent("link.json"), withDestinationURL: sandbox.canary)
        let error = try #require(throws: VinylError.self) { _ = try Turntable(vinylNamed: "link", from: .folder(sandbox.vinyls)) }
        #expect(error.kind == .invalidName)
        #expect(try Data(contentsOf: sandbox.canary) == sandbox.canaryBytes)
    }

    @Test func anAtomicWriteReplacesADanglingLinkInsteadOfFollowingIt() throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let target = sandbox.root.appendingPathComponent("planted.json")
        let link = sandbox.vinyls.appendingPathComponent("dangling.json")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let file = try VinylLocation.file(for: "dangling", in: sandbox.vinyls)
        try Vinyl(name: "dangling").write(to: file)
        #expect(!FileManager.default.fileExists(atPath: target.path), "the write followed the link out of the folder")
        #expect(try Vinyl(contentsOf: file).name == "dangling")
    }

    @Test func theVinylFolderItselfMayBeASymlink() throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let linked = sandbox.root.appendingPathComponent("LinkedVinyls")
        try FileManager.default.createSymbolicLink(at: linked, withDestinationURL: sandbox.vinyls)
        let file = try VinylLocation.file(for: "Suite/ok", in: linked)
        try Vinyl(name: "ok", tracks: [Track("https://a.example/", .status(204))]).write(to: file)
        #expect(try Turntable(vinylNamed: "Suite/ok", from: .folder(linked)).vinyl.tracks.count == 1)
        #expect(FileManager.default.fileExists(atPath: sandbox.vinyls.appendingPathComponent("Suite/ok.json").path))
    }
}
