import Foundation
import Testing

@testable import Gramophone

/// Apps and test helpers print `localizedDescription`: it carries the whole explanation, as
/// `description` does, not Foundation's generic "The operation could not be completed".
@Suite("VinylError localizedDescription")
struct VinylErrorDescriptionTests {
    @Test func aMissingVinylsLocalizedDescriptionIsItsFullExplanation() throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            _ = try Turntable(vinylNamed: "absent", from: .folder(folder))
            Issue.record("a missing vinyl opened")
        } catch let error as VinylError {
            #expect(error.localizedDescription == error.description)
            #expect((error as any Error).localizedDescription.contains("absent.json: no such file"))
            #expect((error as NSError).localizedDescription == error.description)
        }
    }

    @Test func aMalformedVinylsLocalizedDescriptionNamesThePlace() {
        let error = #expect(throws: VinylError.self) { try Vinyl(data: Data("{\"tracks\": [1]}".utf8), name: "broken", file: "broken.json") }
        #expect((error as (any Error)?)?.localizedDescription == error?.description)
        #expect(error?.localizedDescription.contains("tracks[0]") == true)
    }
}
