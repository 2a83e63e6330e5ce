import Foundation

/// Where vinyls are read from and recorded to: a folder, a bundle's resources, or the default folder.
///
/// ```swift
/// let turntable = try Turntable(vinylNamed: "users", from: .bundle(.module))
/// let recorder = try Turntable(vinylNamed: "users", from: .folder(vinyls), recording: Recording())
/// ```
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
    /// A bundle is a build product: nothing is recorded into it unless a record mode is asked
    /// for explicitly, and then the recording lands in the built copy. Record into a `.folder`
    /// in the source tree and copy the files into the target's resources.
    public static func bundle(_ bundle: Bundle) -> VinylStore {
        VinylStore(place: .bundle(resources: bundle.resourceURL, path: bundle.bundlePath))
    }

    /// The `Vinyls` folder of the package the calling source file belongs to: found by walking
    /// up from `sourceFile` (the caller's `#filePath`) to the folder holding `Package.swift`
    /// (or an `.xcodeproj`), so Xcode, whose working directory is not the package root, finds
    /// the same vinyls as `swift test`. `GRAMOPHONE_VINYLS` (or `TEST_RUNNER_GRAMOPHONE_VINYLS`)
    /// overrides it; outside a source tree it is `Vinyls` in the current directory.
    ///
    /// On a device the source tree cannot be read: ship vinyls in the bundle (`.bundle(.module)`).
    public static func defaultFolder(near sourceFile: StaticString = #filePath) -> VinylStore {
        .folder(VinylLocation.defaultFolder(near: "\(sourceFile)"))
    }

    /// The default folder for a source file known as a string (a test's source location).
    package static func defaultFolder(nearPath sourceFile: String?) -> VinylStore {
        .folder(VinylLocation.defaultFolder(near: sourceFile))
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

    /// What to do about a vinyl that is not in the store, for `VinylError.notFound`.
    var fixForMissingVinyl: String {
        isBundle
            ? "Add the vinyls to the test target's resources (resources: [.copy(\"Vinyls\")]) or record them into a folder"
            : "Record it (Recording(), or GRAMOPHONE_RECORD_MODE=once), or check the name and the store"
    }
}
