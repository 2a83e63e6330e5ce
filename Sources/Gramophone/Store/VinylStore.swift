import Foundation

/// Where vinyls are read from and recorded to: a folder, a bundle's resources, or the default folder.
///
/// ```swift
/// let turntable = try Turntable(vinylNamed: "users", from: .bundle(.module))
/// let recorder = try Turntable(vinylNamed: "users", from: .folder(vinyls), recording: Recording())
/// ```
///
/// **The default.** Without a store (`Turntable(vinylNamed:)`, the `.vinyl` trait,
/// `VinylTestCase`), vinyls live in the `Vinyls` folder of the target the calling source file
/// belongs to: `Tests/MyAPITests/Vinyls/` for a test in `Tests/MyAPITests/`, the folder the
/// README's `resources: [.copy("Vinyls")]` names. It is found from the file's `#filePath`, so
/// `swift test` and Xcode find the same folder whatever the working directory. In an Xcode
/// project it is `MyAppTests/Vinyls/` next to the test files. `GRAMOPHONE_VINYLS` (or
/// `TEST_RUNNER_GRAMOPHONE_VINYLS`) overrides it. Where the source tree cannot be read (a
/// device), name a store: `.bundle(.module)`.
///
/// Vinyl names may contain `/` for subfolders (`UsersTests/fetchesUser`); names that would
/// leave the store (absolute, `..`, symbolic links pointing out) are refused before any file
/// is touched. A name without a known extension gets `.json`.
public struct VinylStore: Sendable, CustomStringConvertible {
    enum Place: Sendable {
        case folder(URL)
        // The URL, not the Bundle: a URL is Sendable on every platform.
        case bundle(resources: URL?, path: String)
    }

    let place: Place

    /// Vinyls in `folder`; names with `/` use subfolders of it.
    public static func folder(_ folder: URL) -> VinylStore {
        VinylStore(place: .folder(folder))
    }

    /// Vinyls shipped as resources of `bundle` (a test target's `Bundle.module` with
    /// `resources: [.copy("Vinyls")]`), looked up in its `Vinyls` folder and at its top level.
    ///
    /// A bundle is a build product that the next build replaces: a recording Turntable never
    /// writes into it. It reads and writes the source file the resource is copied from, the
    /// default folder's (`Tests/<Target>/Vinyls/`, found from the test's `#filePath`), or
    /// refuses with the path to use when that folder is not there. The default record mode for
    /// a bundle is `.never`; `GRAMOPHONE_RECORD_MODE=once` records a missing vinyl.
    public static func bundle(_ bundle: Bundle) -> VinylStore {
        VinylStore(place: .bundle(resources: bundle.resourceURL, path: bundle.bundlePath))
    }

    /// The `Vinyls` folder of the target the calling source file belongs to
    /// (`Tests/<Target>/Vinyls/`): the default store, described above. `sourceFile` is the
    /// caller's `#filePath`; leave it to the compiler.
    ///
    /// On a device the source tree cannot be read: ship vinyls in the bundle (`.bundle(.module)`).
    public static func defaultFolder(near sourceFile: StaticString = #filePath) -> VinylStore {
        .folder(VinylLocation.defaultFolder(near: "\(sourceFile)"))
    }

    /// The default folder for a source file known as a string (a test's source location).
    package static func defaultFolder(nearPath sourceFile: String?) -> VinylStore {
        .folder(VinylLocation.defaultFolder(near: sourceFile))
    }

    /// Whether `GRAMOPHONE_VINYLS` places the default folder, so no source file is needed.
    package static var defaultFolderIsOverridden: Bool {
        Environment.value("GRAMOPHONE_VINYLS", in: ProcessInfo.processInfo.environment) != nil
    }

    /// The file a recording Turntable reads and writes for `name`: in a folder, `file(for:)`;
    /// for a bundle, the source file its resource is copied from (`sourceFile` places the
    /// test target), never the built copy.
    /// - Throws: `VinylError.unwritable` naming the source folder to use when it cannot be found.
    package func recordingFile(for name: String, sourceFile: String?) throws -> URL {
        guard case .bundle(_, let path) = place else { return try file(for: name) }
        if let source = try self.sourceFile(for: name, near: sourceFile) { return source }
        let target = sourceFile.map { URL(fileURLWithPath: $0) }.flatMap(VinylLocation.targetFolder(of:))
        let folder = target?.appendingPathComponent("Vinyls", isDirectory: true)
        let shown = folder?.path ?? "Tests/<Target>/Vinyls"
        let missing = folder == nil ? "cannot be found from the test file" : "does not exist"
        throw VinylError(
            .unwritable, file: path,
            problem: "recording into a bundle would write a build product, which the next build replaces, and the source folder its vinyls are copied from (\(shown)) \(missing)",
            fix:
                "Create \(shown) and list it in the test target's resources (resources: [.copy(\"Vinyls\")]), record with store: .folder(URL(fileURLWithPath: \"\(shown)\")),"
                + " or name the file to write: Recording(…).writing(to: file)")
    }

    /// For a bundle, the source file of the vinyl `name` in the `Vinyls` folder of the target
    /// `sourceFile` belongs to, when that folder exists (the file itself may not yet); nil for
    /// a folder store or when the folder cannot be found.
    package func sourceFile(for name: String, near sourceFile: String?) throws -> URL? {
        guard isBundle, let sourceFile, let target = VinylLocation.targetFolder(of: URL(fileURLWithPath: sourceFile)) else { return nil }
        // `.copy("Vinyls")` copies the folder as it is; `Resources/Vinyls` is the other layout `file(for:)` reads.
        for folder in ["Vinyls", "Resources/Vinyls"] {
            let candidate = target.appendingPathComponent(folder, isDirectory: true)
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isFolder), isFolder.boolValue {
                return try VinylLocation.file(for: name, in: candidate)
            }
        }
        return nil
    }

    var isBundle: Bool {
        if case .bundle = place { return true }
        return false
    }

    /// The folder's path, or `bundle <path>`, for messages.
    public var description: String {
        switch place {
        case .folder(let folder): return folder.path
        case .bundle(_, let path): return "bundle " + path
        }
    }

    /// The file of the vinyl `name`: where it is, or where it would be recorded (in a bundle,
    /// its `Vinyls` folder).
    /// - Throws: `VinylError.invalidName` for a name that would leave the store.
    public func file(for name: String) throws -> URL {
        switch place {
        case .folder(let folder):
            return try VinylLocation.file(for: name, in: folder)
        case .bundle(let resources, let path):
            guard let resources else {
                throw VinylError(
                    .notFound, file: path, problem: "the bundle has no resources folder",
                    fix: "Add the vinyls to the test target's resources in Package.swift: resources: [.copy(\"Vinyls\")]")
            }
            // SwiftPM's `.copy("Vinyls")` keeps the folder, `.process` flattens it: look in both.
            let candidates = ["Vinyls", "", "Resources/Vinyls", "Resources"].map {
                $0.isEmpty ? resources : resources.appendingPathComponent($0, isDirectory: true)
            }
            for candidate in candidates {
                let file = try VinylLocation.file(for: name, in: candidate)
                if FileManager.default.fileExists(atPath: file.path) { return file }
            }
            return try VinylLocation.file(for: name, in: candidates[0])
        }
    }

    /// What to do about a vinyl that is not in the store, for the `VinylError.notFound` of a
    /// Turntable made without `recording:` (for which `GRAMOPHONE_RECORD_MODE` does nothing).
    var fixForMissingVinyl: String {
        isBundle
            ? "Add it to the test target's resources (resources: [.copy(\"Vinyls\")]), or record it: pass recording: Recording(mode: .once) to Turntable(vinylNamed:) and run the test once; it is written to the source folder the bundle's vinyls are copied from"
            : "Record it: pass recording: Recording() to Turntable(vinylNamed:) and run the test once (a missing vinyl is recorded, then replayed); or check the name and the store"
    }
}
