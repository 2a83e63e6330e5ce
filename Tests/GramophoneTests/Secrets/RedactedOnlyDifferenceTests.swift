import Foundation
import GramophoneTestSupport
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Requests that differ only in a redacted value (a right and a wrong password) would be written
/// as one request, and a replay could not tell whose answer is whose. They never collapse
/// silently: the second, answered differently, is refused at record time saying which places
/// and how to choose; chosen, each case replays its own answer.
@Suite("Requests differing only in a redacted value")
struct RedactedOnlyDifferenceTests {
    /// httpbin's `/hidden-basic-auth/ada/right` answers 200 to that password and 404 to any other (no 401 challenge to answer).
    static func logIn(_ session: any NetworkSession, _ base: String, password: String) async throws -> Int {
        var request = URLRequest(url: URL(string: "\(base)/hidden-basic-auth/ada/right")!)
        request.setValue("Basic " + Data("ada:\(password)".utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
        let (_, response) = try await session.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }

    /// Two cases of a parameterized test: two Turntables of one run (`Recording.runKey`) and vinyl.
    static func cases(_ folder: URL, _ recording: Recording, matching: MatchingStrategy? = nil) throws -> [Turntable] {
        try (0..<2).map { _ in try Turntable(vinylNamed: "login", from: .folder(folder), matching: matching, recording: recording) }
    }

    @Test(.enabled(if: HTTPBin.isAvailable))
    func parameterizedPasswordCasesAreRefusedThenEachReplaysItsOwnAnswer() async throws {
        let base = try HTTPBin.baseURL().absoluteString
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var recording = Recording(mode: .once, environment: RecordingFixtures.localEnvironment)
        recording.runKey = "passwords-\(UUID())"
        let refused = try Self.cases(folder, recording)
        #expect(try await Self.logIn(refused[0], base, password: "right") == 200)
        let error = await #expect(throws: RecordingError.self) { try await Self.logIn(refused[1], base, password: "wrong-guess") }
        let text = error.map(String.init(describing:)) ?? ""
        #expect(text.contains(#"request.headers "Authorization""#), "\(text)")
        #expect(text.contains(#".allowing([.header("Authorization")])"#) && text.contains(#".headers("Authorization")"#), "\(text)")
        #expect(!text.contains("wrong-guess") && !text.contains(Data("ada:wrong-guess".utf8).base64EncodedString()), "no secret in the error")
        for turntable in refused { try turntable.eject() }
        #expect(try Vinyl(contentsOf: folder.appendingPathComponent("login.json")).tracks.map { $0.response?.status } == [200], "only the first answer was kept")

        // The choice the error names: keep the test credential and match on it.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("login.json"))
        var chosen = Recording(mode: .once, environment: RecordingFixtures.localEnvironment).allowing([.header("Authorization")])
        chosen.runKey = "passwords-\(UUID())"
        let matching: MatchingStrategy = [.method, .url, .body, .headers("Authorization")]
        let recorders = try Self.cases(folder, chosen, matching: matching)
        #expect(try await Self.logIn(recorders[0], base, password: "right") == 200)
        #expect(try await Self.logIn(recorders[1], base, password: "wrong-guess") == 404)
        for turntable in recorders { try turntable.eject() }
        let replay = try Turntable(vinylNamed: "login", from: .folder(folder), matching: matching)
        #expect(try await Self.logIn(replay, base, password: "wrong-guess") == 404)
        #expect(try await Self.logIn(replay, base, password: "right") == 200)
    }
}
