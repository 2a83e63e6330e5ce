import Foundation
import Gramophone
import GramophoneTesting
import Testing

/// Issue 31 item 6: forgetting the trait says what to add, instead of `Turntable.current → nil`.
@Suite struct CurrentTurntableTests {
    @Test func withoutTheTraitTheErrorSaysToAddIt() throws {
        let error = #expect(throws: VinylError.self) { try Turntable.requireCurrent() }
        #expect(error?.description.hasPrefix("this test has no vinyl: Turntable.current is nil. Add .vinyl to the suite or the test") == true)
        #expect(error?.problem.contains("this test has no vinyl") == true)
    }

    @Test(.vinyl("users", store: .bundle(.module)))
    func withTheTraitItIsTheTestsTurntable() async throws {
        let turntable = try Turntable.requireCurrent()
        #expect(turntable === Turntable.current)
        #expect(try await UserFetcher(session: turntable).user(1).name == "Grace Hopper")
    }
}
