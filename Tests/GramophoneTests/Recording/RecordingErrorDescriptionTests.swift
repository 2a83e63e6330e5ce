import Foundation
import Testing

@testable import Gramophone

/// The recording machinery's errors say everything in `localizedDescription` too.
@Suite("RecordingError localizedDescription")
struct RecordingErrorDescriptionTests {
    @Test func anUnknownRecordModesLocalizedDescriptionSaysWhichModesThereAre() throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = #expect(throws: RecordingError.self) {
            try Turntable(vinylNamed: "x", from: .folder(folder), recording: Recording(environment: ["GRAMOPHONE_RECORD_MODE": "sometimes"]))
        }
        let invalid = try #require(error)
        #expect(invalid.localizedDescription == invalid.description)
        #expect((invalid as any Error).localizedDescription.contains("new_episodes"))
        let notHTTP = RecordingError.notHTTP(URL(string: "ftp://example.com/file")!)
        #expect((notHTTP as any Error).localizedDescription == notHTTP.description)
    }
}
