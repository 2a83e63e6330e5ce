import Foundation

/// The names of the vinyls beside a file, nearest to a name first: what a new vinyl's notice
/// offers as "did you mean", since a new vinyl is most often a misspelt one.
enum VinylNames {
    /// The names (with `name`'s subfolder, without extension) of the vinyl files in `file`'s
    /// folder other than `file` itself, the nearest to `name`'s last component first; at most `limit`.
    static func nearest(to name: String, besides file: URL, limit: Int = 3) -> [String] {
        let folder = file.deletingLastPathComponent()
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        let prefix = name.split(separator: "/").dropLast().map { $0 + "/" }.joined()
        let target = Array(file.deletingPathExtension().lastPathComponent.lowercased())
        let candidates = entries.compactMap { entry -> String? in
            let url = folder.appendingPathComponent(entry)
            guard !entry.hasPrefix("."), entry != file.lastPathComponent, VinylLocation.knownExtensions.contains(url.pathExtension.lowercased()) else { return nil }
            return url.deletingPathExtension().lastPathComponent
        }
        let ranked = candidates.map { ($0, distance(target, Array($0.lowercased()))) }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }
        return ranked.prefix(limit).map { prefix + $0.0 }
    }

    /// Whether `candidate` is near enough to `name` to be what was meant: a few edits apart.
    static func isLikelyMeant(_ candidate: String, for name: String) -> Bool {
        let names = [name, candidate].map { Array(($0.split(separator: "/").last.map(String.init) ?? $0).lowercased()) }
        return distance(names[0], names[1]) <= max(2, min(names[0].count, names[1].count) / 4)
    }

    /// The edit distance (insertions, deletions, substitutions) between two names.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// `Did you mean "X"? ` when the nearest name is likely what was meant, then the nearest
    /// names, or that the folder holds no other vinyl.
    static func hint(for name: String, nearest: [String]) -> String {
        guard let first = nearest.first else { return "No other vinyl is in that folder." }
        let quoted = nearest.map { "\"\($0)\"" }.joined(separator: ", ")
        let meant = isLikelyMeant(first, for: name) ? "Did you mean \"\(first)\"? " : ""
        return meant + "Nearest existing vinyls in that folder: \(quoted)."
    }
}
