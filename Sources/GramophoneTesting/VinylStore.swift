import Foundation
import Gramophone

/// Where a test's vinyl is read from (and recorded to).
///
/// ```swift
/// @Test(.vinyl(store: .bundle(.module)))     // shipped with the test target
/// @Test(.vinyl(store: .folder(vinylsURL)))   // a folder in the source tree
/// ```
public struct VinylStore: Sendable, CustomStringConvertible {
    enum Place: Sendable {
        case folder(URL)
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
    /// A bundle is a build product: new recordings land in the built copy, so record into a
    /// `.folder` in the source tree and copy the files into the target's resources.
    public static func bundle(_ bundle: Bundle) -> VinylStore {
        // Keep the URL, not the Bundle: a URL is Sendable on every platform.
        VinylStore(place: .bundle(resources: bundle.resourceURL, path: bundle.bundlePath))
    }

    /// `VinylLocation.defaultFolder`: `$GRAMOPHONE_VINYLS`, else `Vinyls` in the current directory.
    public static var defaultFolder: VinylStore { .folder(VinylLocation.defaultFolder) }

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

    /// The folder holding the vinyl `name`: in a bundle, the first candidate folder that has
    /// the file, else the bundle's `Vinyls` folder (where a recording would go).
    public func folder(for name: String) throws -> URL {
        switch place {
        case .folder(let folder):
            return folder
        case .bundle(let resources, let path):
            guard let resources else {
                throw VinylError(.notFound, file: path, problem: "the bundle has no resources folder",
                                 fix: "Add the vinyls to the test target's resources in Package.swift: resources: [.copy(\"Vinyls\")]")
            }
            let candidates = [resources.appendingPathComponent("Vinyls", isDirectory: true), resources,
                              resources.appendingPathComponent("Resources/Vinyls", isDirectory: true),
                              resources.appendingPathComponent("Resources", isDirectory: true)]
            for candidate in candidates where FileManager.default.fileExists(atPath: try VinylLocation.file(for: name, in: candidate).path) {
                return candidate
            }
            return candidates[0]
        }
    }
}
