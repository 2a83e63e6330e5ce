#if OpenAPI
import Foundation
import Testing

@testable import Gramophone

/// The OpenAPI transport's error gives its whole explanation in `localizedDescription`.
@Suite("TurntableTransportError localizedDescription")
struct TransportErrorDescriptionTests {
    @Test func anInvalidRequestURLsLocalizedDescriptionIsItsDescription() throws {
        let error = TurntableTransportError.invalidRequestURL(path: "/users/{id}", baseURL: try #require(URL(string: "https://api.example.com")))
        #expect((error as any Error).localizedDescription == error.description)
        #expect(error.localizedDescription.contains("/users/{id}"))
    }
}
#endif
