import Foundation
import Testing

@testable import Gramophone

/// A miss's `localizedDescription` is the miss report, as its `description` is.
@Suite("TurntableError localizedDescription")
struct TurntableErrorDescriptionTests {
    @Test func aMissLocalizedDescriptionIsTheMissReport() async throws {
        let turntable = Turntable(vinyl: Vinyl(name: "users", tracks: [Track(request: Track.Request(url: URL(string: "https://api.example.com/users/1")!), outcome: .text("Ada"))]))
        let error = await #expect(throws: TurntableError.self) { try await turntable.data(from: URL(string: "https://api.example.com/users/2")!) }
        let miss = try #require(error)
        #expect(miss.localizedDescription == miss.description)
        #expect((miss as any Error).localizedDescription.contains("/users/2"))
        #expect(!miss.localizedDescription.contains("The operation could not be completed"))
    }
}
