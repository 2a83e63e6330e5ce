import Foundation
import Gramophone
import GramophoneTesting
import Testing

/// A `.vinyl` test never called `Turntable(vinylNamed:recording:)`: a miss advises recording
/// the trait's way, not by passing a recording to an initializer the test does not call.
@Suite struct MissAdviceSpellingTests {
    @Test(.expectingIssue(containing: ".vinyl(mode: .newEpisodes)"), .vinyl(MissingOnCI.configuration))
    func aMissInAVinylTestAdvisesTheTraitsSpelling() async throws {
        let turntable = try Turntable.requireCurrent()
        _ = try? await turntable.data(from: MissingOnCI.url)
        let advice = turntable.playback.missReports.map(\.description).joined()
        #expect(!advice.contains("Turntable(vinylNamed:)"), "\(advice)")
    }
}
