import Foundation
import Testing

@testable import Gramophone

/// A stub's errors give their whole explanation in `localizedDescription`.
@Suite("StubError localizedDescription")
struct StubErrorDescriptionTests {
    @Test func everyStubErrorsLocalizedDescriptionIsItsDescription() {
        let errors: [StubError] = [
            .invalidPattern("users/{id", kind: "URI template", problem: "no closing }"),
            .unreadableFile("/nowhere/body.json", problem: "no such file"),
            .noMatchingStub(StubMissReport(request: Track.Request(url: URL(string: "https://api.example.com/x")!), attempts: [])),
        ]
        for error in errors {
            #expect((error as any Error).localizedDescription == error.description)
            #expect(!error.localizedDescription.contains("The operation could not be completed"))
        }
    }
}
