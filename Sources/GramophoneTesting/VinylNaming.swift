import Foundation

/// Turns test names into vinyl names: `UsersTests/fetchesUser`.
enum VinylNaming {
    /// `Type/method` parts joined with `/`, each made a safe file name.
    static func name(components: [String]) -> String {
        let parts = components.map(sanitise).filter { !$0.isEmpty }
        return parts.isEmpty ? "test" : parts.joined(separator: "/")
    }

    /// `fetchesUser()` → `fetchesUser`, `marker(_:)` → `marker`, `load(page:size:)` →
    /// `load_page_size`; anything but ASCII letters, digits, `-`, `_` and `.` becomes `_`.
    static func sanitise(_ component: String) -> String {
        var text = component
        if let open = text.firstIndex(of: "("), text.hasSuffix(")") {
            let labels = text[text.index(after: open)..<text.index(before: text.endIndex)]
                .split(separator: ":")
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { $0 != "_" && !$0.isEmpty }
            text = String(text[..<open]) + (labels.isEmpty ? "" : "_" + labels.joined(separator: "_"))
        }
        var result = ""
        for scalar in text.unicodeScalars {
            let safe = scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-_.".unicodeScalars.contains(scalar))
            // Runs of replaced characters become one `_`, so `a  b` is `a_b`.
            if safe {
                result.unicodeScalars.append(scalar)
            } else if !result.hasSuffix("_") {
                result.append("_")
            }
        }
        // A leading dot would hide the file, and `.`/`..` are refused as names.
        while result.hasPrefix(".") { result.removeFirst() }
        return String(result.prefix(200))
    }

    /// The XCTest method from `XCTestCase.name`: `-[UsersTests testFetch]` on Apple
    /// platforms, `UsersTests.testFetch` elsewhere.
    static func xcTestMethod(from name: String) -> String {
        var text = Substring(name)
        if text.hasPrefix("-[") && text.hasSuffix("]") { text = text.dropFirst(2).dropLast() }
        let separator = text.lastIndex(where: { $0 == " " || $0 == "." })
        return String(separator.map { text[text.index(after: $0)...] } ?? text)
    }
}
