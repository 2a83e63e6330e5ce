import Foundation
import Testing

@testable import Gramophone

/// Issue 31: a miss's advice fits the Turntable that missed: no record-mode variable for a
/// Turntable made without `recording:`, no "record" for a vinyl built in code, and the stubs
/// that were tried first, each with why it passed the request over.
@Suite("A miss's advice fits the Turntable")
struct MissAdviceTests {
    static let url = URL(string: "https://api.example.com/users/2")!

    static func missText(_ turntable: Turntable) async throws -> String {
        do {
            _ = try await turntable.data(from: url)
        } catch let error as TurntableError {
            return error.description
        }
        Issue.record("expected a miss")
        return ""
    }

    @Test func aStubOnlyTurntableIsNotToldToRecordAndSeesTheStubsTried() async throws {
        let turntable = Turntable(vinyl: Vinyl(name: "stubs only"))
        turntable.stubs.add(try Stub("user one").matching(.path("/users/1")).responding(with: .json("{}")))
        turntable.stubs.add(Stub("posts").matching(.method("POST")).responding(with: .status(201)))
        let text = try await Self.missText(turntable)
        #expect(!text.contains("record"), "nothing can be recorded into a vinyl built in code")
        #expect(!text.contains("GRAMOPHONE_RECORD_MODE"))
        #expect(text.contains("stubs tried first, in order:"))
        // Newest first, each with the reason HTTPStubber's report gives.
        let posts = try #require(text.range(of: "- \"posts\": method: GET vs POST"))
        let userOne = try #require(text.range(of: "- \"user one\": path /users/2 does not fit /users/1"))
        #expect(posts.lowerBound < userOne.lowerBound)
        #expect(text.contains("fix the stub that should answer it"))
    }

    @Test func anEmptyInMemoryTurntableIsToldToAddAStubOrATrack() async throws {
        let text = try await Self.missText(Turntable(vinyl: Vinyl(name: "empty")))
        #expect(text.contains("add a track for it to the vinyl, add a stub that matches it"))
        #expect(!text.contains("record"))
    }

    @Test func aReplayOnlyTurntableIsToldToPassRecordingNotTheVariable() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Vinyl(name: "users", tracks: [Track("GET https://api.example.com/users/1", .json("{}"))]).write(to: folder.appendingPathComponent("users.json"))
        let text = try await Self.missText(try Turntable(vinylNamed: "users", from: .folder(folder)))
        #expect(text.contains("pass recording: Recording(mode: .newEpisodes) to Turntable(vinylNamed:)"))
        #expect(!text.contains("GRAMOPHONE_RECORD_MODE"), "the variable does nothing for a Turntable made without recording:")
        #expect(text.contains("add a track for it to \(folder.appendingPathComponent("users.json").path)"))
        #expect(!text.contains("stubs tried"))
    }

    @Test func aRecordingTurntableIsToldTheVariable() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Vinyl(name: "users", tracks: [Track("GET https://api.example.com/users/1", .json("{}"))]).write(to: folder.appendingPathComponent("users.json"))
        let turntable = try Turntable(vinylNamed: "users", from: .folder(folder), recording: Recording(session: OfflineSession(), environment: [:]))
        let text = try await Self.missText(turntable)
        #expect(text.contains("GRAMOPHONE_RECORD_MODE=new_episodes"))
        #expect(text.contains("write-protected"))
    }
}
