import Testing

/// `.expectingIssue(containing: …)`: the test passes only if an issue whose text contains
/// every fragment is recorded, including issues recorded after the test body by an inner
/// trait (list it before `.vinyl`). How the reporting tests check a failure's text
/// without failing the suite.
struct ExpectIssueTrait: TestTrait, TestScoping {
    var fragments: [String]
    /// Also require the issue to point at the test's own source location.
    var atTestLocation: Bool

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        let fragments = fragments
        let location = atTestLocation ? test.sourceLocation : nil
        try await withKnownIssue {
            try await function()
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined(separator: "\n") + (issue.error.map { "\n\($0)" } ?? "")
            return fragments.allSatisfy(text.contains) && (location == nil || issue.sourceLocation == location)
        }
    }
}

extension Trait where Self == ExpectIssueTrait {
    static func expectingIssue(containing fragments: String..., atTestLocation: Bool = false) -> Self {
        ExpectIssueTrait(fragments: fragments, atTestLocation: atTestLocation)
    }
}
