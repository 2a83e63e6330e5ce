import Foundation
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A network layer written once against `NetworkSession`, as users write theirs.
struct UsersClient {
    struct User: Decodable, Equatable { var id: Int; var name: String }
    var session: any NetworkSession
    var base = URL(string: "https://api.example.com")!

    func user(_ id: Int) async throws -> User {
        let (data, _) = try await session.data(from: base.appendingPathComponent("users/\(id)"))
        return try JSONDecoder().decode(User.self, from: data)
    }
}

@Suite struct TurntableTests {
    let vinyl = Vinyl(
        name: "users",
        tracks: [
            Track("GET https://api.example.com/users/42", .json(#"{"id":42,"name":"Ada"}"#, headers: ["ETag": "\"v1\""])),
            Track("GET https://api.example.com/users/13", .error(.notConnectedToInternet)),
            Track("GET https://api.example.com/users/7", .status(404)),
        ])

    @Test func aNetworkLayerRunsUnchangedOnATurntable() async throws {
        let client = UsersClient(session: Turntable(vinyl: vinyl))
        #expect(try await client.user(42) == UsersClient.User(id: 42, name: "Ada"))
    }

    @Test func responsesCarryStatusHeadersAndURL() async throws {
        let (data, response) = try await Turntable(vinyl: vinyl).data(from: URL(string: "https://api.example.com/users/42")!)
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 200)
        #expect(http.value(forHTTPHeaderField: "etag") == "\"v1\"")
        #expect(http.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(http.url?.absoluteString == "https://api.example.com/users/42")
        #expect(data == Data(#"{"id":42,"name":"Ada"}"#.utf8))
        let (_, notFound) = try await Turntable(vinyl: vinyl).data(from: URL(string: "https://api.example.com/users/7")!)
        #expect((notFound as? HTTPURLResponse)?.statusCode == 404)
    }

    @Test func recordedErrorsReplayAsURLErrors() async throws {
        do {
            _ = try await Turntable(vinyl: vinyl).data(from: URL(string: "https://api.example.com/users/13")!)
            Issue.record("expected the recorded error")
        } catch let error as URLError {
            #expect(error.code == .notConnectedToInternet)
            #expect((error as NSError).domain == NSURLErrorDomain)
        }
    }

    @Test func completionHandlerTaskStartsOnlyOnResume() async throws {
        let turntable = Turntable(vinyl: vinyl)
        let (data, response, error) = await withCheckedContinuation { continuation in
            let task = turntable.dataTask(with: URLRequest(url: URL(string: "https://api.example.com/users/42")!)) { data, response, error in
                continuation.resume(returning: (data, response, error))
            }
            #expect(task.state == .suspended)
            #expect(turntable.playback.requestsAnswered == 0, "nothing happens before resume()")
            task.resume()
        }
        #expect(error == nil)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(data == Data(#"{"id":42,"name":"Ada"}"#.utf8))
    }

    @Test func cancelledTaskCompletesWithCancelled() async {
        let turntable = Turntable(vinyl: vinyl)
        let error = await withCheckedContinuation { continuation in
            let task = turntable.dataTask(with: URLRequest(url: URL(string: "https://api.example.com/users/42")!)) { _, _, error in
                continuation.resume(returning: error)
            }
            task.cancel()
            task.resume()
        }
        #expect((error as? URLError)?.code == .cancelled)
    }

    @Test func playbackStateTellsWhatWasAndWasNotPlayed() async throws {
        let turntable = Turntable(vinyl: vinyl)
        _ = try await turntable.data(from: URL(string: "https://api.example.com/users/42")!)
        _ = try await turntable.data(from: URL(string: "https://api.example.com/users/42")!)
        let playback = turntable.playback
        #expect(playback.playCounts == [2, 0, 0])
        #expect(playback.playedTrackCount == 1)
        #expect(playback.unplayedTracks == [1, 2])
        #expect(!playback.allPlayed)
        #expect(playback.requestsAnswered == 2)
    }

    @Test func loadSwapsTheVinylAndForgetsPlayback() async throws {
        let turntable = Turntable(vinyl: vinyl)
        _ = try await turntable.data(from: URL(string: "https://api.example.com/users/42")!)
        turntable.load(vinyl: Vinyl(name: "other", tracks: [Track("https://api.example.com/users/42", .json(#"{"id":42,"name":"Grace"}"#))]))
        #expect(try await UsersClient(session: turntable).user(42).name == "Grace")
        #expect(turntable.playback.vinylName == "other")
        #expect(turntable.playback.playCounts == [1])
    }

    @Test func vinylFromAFolderByNameAndFromTheTestBundle() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try vinyl.write(to: folder.appendingPathComponent("Nested/users.json"))
        let byName = try Turntable(vinylNamed: "Nested/users", from: .folder(folder))
        #expect(try await UsersClient(session: byName).user(42).name == "Ada")

        let fromBundle = try Turntable(vinylNamed: "Fixtures/vinyl/vinyl_single", from: .bundle(.module))
        let (data, _) = try await fromBundle.data(from: URL(string: "http://api.test.com")!)
        #expect(String(decoding: data, as: UTF8.self) == "hello")
    }

    @Test func manyTasksShareOneTurntable() async throws {
        let turntable = Turntable(vinyl: vinyl)
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<200 {
                group.addTask { try await UsersClient(session: turntable).user(42).id }
            }
            for try await id in group { #expect(id == 42) }
        }
        #expect(turntable.playback.playCounts[0] == 200)
    }
}
