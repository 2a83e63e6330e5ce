import Foundation
import Gramophone
import GramophoneTesting
import UsersClient
import XCTest

/// The example client tested with the XCTest base class: each test replays
/// `Vinyls/UsersClientXCTests/<test>.json` from the test bundle.
final class UsersClientXCTests: VinylTestCase {
    override class var vinylDefaults: VinylConfiguration {
        VinylConfiguration(store: .bundle(.module), allTracksMustPlay: true)
    }

    func client() throws -> UsersClient {
        UsersClient(baseURL: try XCTUnwrap(URL(string: "https://api.example.com")), session: turntable)
    }

    func testFetchesUser() async throws {
        let user = try await client().user(42)
        XCTAssertEqual(user, User(id: 42, name: "Ada Lovelace", email: "ada.lovelace@example.com"))
        XCTAssertEqual(vinyl?.name, "UsersClientXCTests/testFetchesUser")
    }

    func testCreatesUser() async throws {
        let user = try await client().createUser(name: "Barbara Liskov", email: "barbara.liskov@example.com")
        XCTAssertEqual(user.id, 43)
    }
}

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

    func client() throws -> UsersClient {
        UsersClient(baseURL: try XCTUnwrap(URL(string: "https://api.example.com")), session: turntable)
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
