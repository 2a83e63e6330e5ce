import Foundation

/// A folder of Mocktail `.tail` files, answering requests the way Mocktail does.
///
/// ```swift
/// var mocktail = try MocktailCollection(contentsOf: folder)
/// mocktail["id"] = "42"                       // fills {{ id }} in bodies
/// let response = mocktail.response(for: request)   // nil when no stub matches
/// ```
/// A stub answers when its method pattern matches the whole method and its URL pattern
/// matches somewhere in the absolute URL. When several match, the longest URL pattern wins
/// (the most specific one, as in Mocktail); among equally long ones, the first file by name.
package struct MocktailCollection: Sendable {
    /// The stubs, in file-name order.
    package var stubs: [MocktailStub]
    /// Values for `{{ key }}` placeholders in bodies.
    package var values: [String: String]

    /// A collection of stubs made in code or read elsewhere.
    package init(stubs: [MocktailStub], values: [String: String] = [:]) {
        self.stubs = stubs
        self.values = values
    }

    /// Reads every `.tail` file in `folder` (not its subfolders).
    /// - Throws: `VinylError` when the folder cannot be read, holds no `.tail` file, or a file is malformed.
    package init(contentsOf folder: URL, values: [String: String] = [:]) throws {
        let names = try VinylError.reading(folder.path, what: "list the folder", missing: "no such folder", fix: "Pass the folder that holds the .tail files") {
            try FileManager.default.contentsOfDirectory(atPath: folder.path)
        }
        let tails = names.filter { $0.lowercased().hasSuffix(".tail") }.sorted()
        guard !tails.isEmpty else {
            throw VinylError(.notFound, file: folder.path, problem: "the folder holds no .tail files", fix: "Add Mocktail files ending in .tail, or pass the right folder")
        }
        var stubs: [MocktailStub] = []
        for name in tails {
            let file = folder.appendingPathComponent(name)
            let data = try VinylError.reading(file.path, what: "read the file", missing: "no such file", fix: "Check the file's permissions") { try Data(contentsOf: file) }
            guard let text = String(data: data, encoding: .utf8) else {
                throw VinylError(.malformed, file: file.path, problem: "the file is not UTF-8 text", fix: "Store binary bodies as base64 with a Content-Type ending in ;base64")
            }
            stubs.append(try MocktailStub(text: text, file: file.path))
        }
        self.init(stubs: stubs, values: values)
    }

    /// The placeholder value for `key`; set it before the request that needs it.
    package subscript(key: String) -> String? {
        get { values[key] }
        set { values[key] = newValue }
    }

    /// The stub that answers `method` and `url`: the matching one with the longest URL pattern.
    package func stub(method: String, url: URL) -> MocktailStub? {
        // `max` keeps the first of equally long patterns: on a tie the earlier file stays.
        stubs.lazy.filter { $0.matches(method: method, url: url) }.max { $0.urlPattern.count < $1.urlPattern.count }
    }

    /// The response for `request`, placeholders filled; nil when no stub matches.
    package func response(for request: Track.Request) -> Track.Response? {
        stub(method: request.method, url: request.url)?.response(values: values, for: request.url)
    }
}
