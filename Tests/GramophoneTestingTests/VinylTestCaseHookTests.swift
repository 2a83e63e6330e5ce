import Foundation
import Gramophone
import GramophoneTesting
import XCTest

/// The hooks: which tests use a vinyl, its configuration, and the Turntable before the test.
final class VinylTestCaseHookTests: VinylTestCase {
    override class var vinylDefaults: VinylConfiguration { VinylConfiguration(store: .bundle(.module)) }

    override var shouldUseVinyl: Bool { !name.contains("WithoutVinyl") }

    override func configureVinyl(_ configuration: inout VinylConfiguration) {
        XCTAssertEqual(configuration.name, defaultVinylName)
        if name.contains("Renamed") { configuration.name = "VinylTestCaseHookTests/renamed" }
        if name.contains("TrackOrder") { configuration.name = "polling" }
    }

    override func prepare(_ turntable: Turntable) throws {
        if name.contains("TrackOrder") { turntable.matching = .trackOrder() }
    }

    func client() throws -> UserFetcher {
        UserFetcher(session: turntable)
    }

    func testRenamedVinylIsUsed() async throws {
        let user = try await client().user(9)
        XCTAssertEqual(user.name, "Renamed Vinyl")
    }

    func testTrackOrderSetInPrepareIsUsed() async throws {
        let client = try client()
        let first = try await client.user(5)
        let second = try await client.user(5)
        XCTAssertEqual([first.name, second.name], ["Before Update", "After Update"])
    }

    func testWithoutVinylHasNoneAndItsTurntableMissesSayingWhy() async throws {
        XCTAssertNil(vinyl)
        do {
            _ = try await client().user(1)
            XCTFail("an empty Turntable answered")
        } catch let error as TurntableError {
            XCTAssertTrue(error.description.contains("shouldUseVinyl == false"), error.description)
        }
        XCTAssertEqual(turntable.playback.misses, 1)
    }
}
