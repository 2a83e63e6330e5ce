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
