import Foundation

/// Turns a vinyl name into a file inside a vinyl folder, refusing names that would leave it.
/// (`VinylStore` is the public face of this.)
///
/// Names may contain `/` to use subfolders (`UsersTests/fetchesUser`); they may not be
/// absolute, contain `..`, `.`, empty components, a backslash or NUL, or components longer
/// than 255 bytes. The check happens before any file is touched.
enum VinylLocation {
    /// `$GRAMOPHONE_VINYLS` if set; else the `Vinyls` folder of the target `sourceFile` belongs
    /// to (`Tests/<Target>/Vinyls`, see `targetFolder(of:)`); else, with no source tree to
    /// find (a device, a binary run elsewhere), `Vinyls` in the current directory. Never the
    /// current directory while the source tree is there: under Xcode it is not the package root.
    static func defaultFolder(near sourceFile: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let path = Environment.value("GRAMOPHONE_VINYLS", in: environment) {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        let target = sourceFile.flatMap { targetFolder(of: URL(fileURLWithPath: $0)) }
        return (target ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)).appendingPathComponent("Vinyls", isDirectory: true)
    }

    /// The folder of the target `file` belongs to, where SwiftPM resolves the target's
    /// `resources: [.copy("Vinyls")]`: below the project root (the nearest folder holding a
    /// `Package.swift` or an `.xcodeproj`), the folder inside `Tests/` or `Sources/` that
    /// holds the file (SwiftPM's layout: `Tests/MyAPITests`), else the top folder holding it
    /// (an Xcode project's `MyAppTests`), or the root for a file directly in it. Nil when no
    /// project root is above the file.
    static func targetFolder(of file: URL) -> URL? {
        guard let root = projectRoot(above: file) else { return nil }
        // projectRoot walks up from the standardised folder, so the root is a prefix of it.
        let folders = Array(file.deletingLastPathComponent().standardizedFileURL.pathComponents.dropFirst(root.pathComponents.count))
        guard let top = folders.first else { return root }
        if top == "Tests" || top == "Sources", folders.count >= 2 {
            return root.appendingPathComponent(top, isDirectory: true).appendingPathComponent(folders[1], isDirectory: true)
        }
        return root.appendingPathComponent(top, isDirectory: true)
    }

    /// The nearest folder above `file` that holds a `Package.swift` or an `.xcodeproj`.
    static func projectRoot(above file: URL) -> URL? {
        let fileManager = FileManager.default
        var folder = file.deletingLastPathComponent().standardizedFileURL
        while folder.path != "/" && !folder.path.isEmpty {
            if fileManager.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) { return folder }
            if let entries = try? fileManager.contentsOfDirectory(atPath: folder.path), entries.contains(where: { $0.hasSuffix(".xcodeproj") }) {
                return folder
            }
            folder.deleteLastPathComponent()
        }
        return nil
    }

    static let knownExtensions: Set<String> = ["json", "plist", "har", "yaml", "yml", "tail"]

    /// The file for `name` in `folder`; `.json` is added when the name has no known extension.
    static func file(for name: String, in folder: URL, defaultExtension: String = "json") throws -> URL {
        try validate(name)
        let lastComponent = name.split(separator: "/").last.map(String.init) ?? name
        let ext = (lastComponent as NSString).pathExtension.lowercased()
        let fileName = knownExtensions.contains(ext) ? name : name + "." + defaultExtension
        let url = folder.appendingPathComponent(fileName)
        func isInside(_ path: String, _ base: String) -> Bool { path.hasPrefix(base.hasSuffix("/") ? base : base + "/") }
        // Belt and braces: the standardised path must still be inside the folder.
        guard isInside(url.standardizedFileURL.path, folder.standardizedFileURL.path) else {
            throw invalid(name, "it resolves outside the vinyl folder \(folder.path)")
        }
        // A symlink inside the folder (a subfolder or the file itself) must not lead out of it either.
        let realFile = resolvingExistingSymlinks(url)
        guard isInside(realFile, resolvingExistingSymlinks(folder)) else {
            throw invalid(name, "a symbolic link leads it outside the vinyl folder \(folder.path) (to \(realFile))")
        }
        return url
    }

    /// The path with symbolic links resolved as far as the path exists; the rest appended.
    static func resolvingExistingSymlinks(_ url: URL) -> String {
        var existing = url.standardizedFileURL
        var missing: [String] = []
        // `fileExists` follows links, so a dangling link counts as missing: a write replaces
        // the link itself (rename does not follow it) and a read finds nothing.
        while !FileManager.default.fileExists(atPath: existing.path), existing.path != "/" {
            missing.append(existing.lastPathComponent)
            existing.deleteLastPathComponent()
        }
        var resolved = existing.resolvingSymlinksInPath()
        for component in missing.reversed() { resolved.appendPathComponent(component) }
        return resolved.path
    }

    /// Throws `VinylError.invalidName` unless `name` is a safe relative vinyl name.
    static func validate(_ name: String) throws {
        if name.isEmpty { throw invalid(name, "it is empty") }
        if name.utf8.contains(0) { throw invalid(name, "it contains a NUL byte") }
        if name.hasPrefix("/") || name.hasPrefix("~") { throw invalid(name, "it is an absolute path") }
        if name.contains("\\") { throw invalid(name, "it contains a backslash") }
        if name.utf8.count > 1024 { throw invalid(name, "it is longer than 1024 bytes") }
        for component in name.split(separator: "/", omittingEmptySubsequences: false) {
            if component.isEmpty { throw invalid(name, "it has an empty path component") }
            if component == ".." || component == "." { throw invalid(name, "it contains '\(component)'") }
            if component.utf8.count > 255 { throw invalid(name, "a component is longer than 255 bytes") }
            if component.unicodeScalars.contains(where: { $0.value < 0x20 }) { throw invalid(name, "it contains a control character") }
        }
    }

    private static func invalid(_ name: String, _ reason: String) -> VinylError {
        let shown = name.unicodeScalars.map { $0.value < 0x20 ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined()
        return VinylError(
            .invalidName, file: nil, problem: "the vinyl name \"\(shown.prefix(120))\" is not allowed: \(reason)",
            fix: "Use a relative name such as \"users\" or \"UsersTests/fetchesUser\"")
    }
}
