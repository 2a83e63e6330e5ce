import Foundation
import Gramophone
import GramophoneTesting
import Testing

/// A `.vinyl` suite on CI (the CI variable set in the recording's environment) whose vinyls
/// were never recorded: a test that asks its vinyl for nothing passes without a file, a test
/// that asks it for a track fails naming the missing file, and `.withoutVinyl` opts a test out.
enum MissingOnCI {
    static let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gramophone-missing-\(UUID().uuidString)", isDirectory: true)
    static let configuration = VinylConfiguration(store: .folder(folder), recording: Recording(environment: ["CI": "true"]))
    static let url = URL(string: "https://api.example.com/users/1")!
}

@Suite(.vinyl(MissingOnCI.configuration))
struct StubOnlyTestsOnCI {
    @Test func aTestThatOnlyUsesItsOwnStubbedTurntableNeedsNoFile() async throws {
        let own = Turntable(vinyl: Vinyl(name: "stubs"))
        own.stubs.add(try Stub().matching(.path("/users/1")).responding(with: .json(#"{"id": 1, "name": "Ada"}"#)))
        #expect(try await UserFetcher(session: own).user(1).name == "Ada")
        // The suite's Turntable is there all the same; only asking it for a track needs the file.
        #expect(Turntable.current != nil)
        #expect(!FileManager.default.fileExists(atPath: MissingOnCI.folder.appendingPathComponent("StubOnlyTestsOnCI").path))
    }

    @Test func stubsOnTheSuitesTurntableNeedNoFileEither() async throws {
        let turntable = try Turntable.requireCurrent()
        turntable.stubs.add(try Stub().matching(.path("/users/1")).responding(with: .json(#"{"id": 1, "name": "Ada"}"#)))
        #expect(try await UserFetcher(session: turntable).user(1).id == 1)
    }

    @Test(.withoutVinyl) func aTestOptedOutHasNoTurntable() {
        #expect(Turntable.current == nil)
    }
}

/// Asking a missing vinyl for a track fails the test with the missing file's explanation.
@Suite struct AskingAMissingVinylOnCITests {
    @Test(
        .expectingIssue(containing: "no such file, and the record mode is never (the CI variable is set", "Record it locally and commit it", ".withoutVinyl"),
        .vinyl(MissingOnCI.configuration))
    func aTestThatAsksItsMissingVinylForATrackFails() async throws {
        let turntable = try Turntable.requireCurrent()
        // Swallowed, as a cache fallback would: the trait still reports it.
        _ = try? await turntable.data(from: MissingOnCI.url)
    }
}
