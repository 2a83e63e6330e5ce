import Foundation
import Testing

@testable import Gramophone

/// `Headers` lists its fields as a collection: for-in, `map`, `count`, in order, repeats kept.
@Suite struct HeadersCollectionTests {
    @Test func forInListsEveryFieldInOrder() {
        var headers: Headers = ["Content-Type": "application/json"]
        headers.add(name: "Set-Cookie", value: "a=1")
        headers.add(name: "Set-Cookie", value: "b=2")
        var lines: [String] = []
        for field in headers { lines.append("\(field.name): \(field.value)") }
        #expect(lines == ["Content-Type: application/json", "Set-Cookie: a=1", "Set-Cookie: b=2"])
        #expect(headers.count == 3)
        #expect(headers.map(\.name) == ["Content-Type", "Set-Cookie", "Set-Cookie"])
        #expect(headers["set-cookie"] == "a=1, b=2")
        #expect(!headers.isEmpty && Headers().isEmpty)
    }
}
