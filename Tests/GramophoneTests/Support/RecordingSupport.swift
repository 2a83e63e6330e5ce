import Foundation
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real URLSession that counts the requests it sends, so a test can prove the network was
/// (or was not) used. It forwards to the real server; it never answers by itself.
final class CountingSession: NetworkSession {
    let session = URLSession(configuration: .ephemeral)
    private let counter = Locked(0)

    var requestCount: Int { counter.withLock { $0 } }

    func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        counter.withLock { $0 += 1 }
        return try await session.data(for: request)
    }

    func data(from url: URL) async throws -> (Data, URLResponse) {
        try await data(for: URLRequest(url: url))
    }

    func dataTask(with request: URLRequest, completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) -> URLSessionDataTask {
        counter.withLock { $0 += 1 }
        return session.dataTask(with: request, completionHandler: completionHandler)
    }
}

/// A real URLSession whose streams have wholly arrived before anyone reads them: `bytes(for:)`
/// reads the live stream to its end from the real server, then hands its pieces over as they
/// came. It forces the interleaving a busy machine makes likely (the network ahead of the reader).
final class NetworkAheadSession: NetworkSession {
    let session = URLSession(configuration: .ephemeral)

    func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        try await session.data(for: request)
    }

    func data(from url: URL) async throws -> (Data, URLResponse) {
        try await session.data(from: url)
    }

    func bytes(for request: URLRequest) async throws -> (ResponseBytes, URLResponse) {
        let (bytes, response): (ResponseBytes, URLResponse) = try await session.bytes(for: request)
        var pieces: [Data] = []
        for try await piece in bytes.chunks { pieces.append(piece) }
        return (ResponseBytes(ChunkSource(chunks: pieces)), response)
    }

    func dataTask(with request: URLRequest, completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) -> URLSessionDataTask {
        session.dataTask(with: request, completionHandler: completionHandler)
    }
}

/// A session whose network is down: every request fails as with no connection, and is counted.
final class OfflineSession: NetworkSession {
    private let counter = Locked(0)
    var requestCount: Int { counter.withLock { $0 } }

    func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        counter.withLock { $0 += 1 }
        throw URLError(.notConnectedToInternet)
    }

    func data(from url: URL) async throws -> (Data, URLResponse) {
        try await data(for: URLRequest(url: url))
    }

    func dataTask(with request: URLRequest, completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) -> URLSessionDataTask {
        counter.withLock { $0 += 1 }
        // An empty Turntable fails every request without touching the network.
        return Turntable(vinyl: Vinyl(name: "offline")).dataTask(with: request, completionHandler: completionHandler)
    }
}

enum RecordingFixtures {
    /// An environment with no CI and no mode override, whatever the machine running the tests says.
    static let localEnvironment: [String: String] = [:]

    static func request(_ method: String, _ url: URL, headers: [String: String] = [:], body: Data? = nil) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        return request
    }

    /// Header fields keyed by lowercased name, without the ones the default redaction removes.
    static func comparableHeaders(_ response: URLResponse) -> [String: String] {
        var result: [String: String] = [:]
        for (name, value) in (response as? HTTPURLResponse)?.allHeaderFields ?? [:] {
            guard let name = name as? String, !Redaction.isSensitiveHeader(name) else { continue }
            result[name.lowercased()] = "\(value)"
        }
        return result
    }
}

/// Makes a folder refuse new files, even for root (which ignores permission bits): `chattr +i`
/// where the file system supports it, else `chmod 555`.
enum Unwritable {
    static func make(_ folder: URL) -> Bool {
        if getuid() == 0 {
            guard run("/usr/bin/chattr", ["+i", folder.path]) || run("/bin/chattr", ["+i", folder.path]) else { return false }
        } else {
            guard chmod(folder.path, 0o555) == 0 else { return false }
        }
        // Prove it: the test is only meaningful when a write really fails.
        let probe = folder.appendingPathComponent(".probe-\(UUID().uuidString)")
        if FileManager.default.createFile(atPath: probe.path, contents: Data()) {
            try? FileManager.default.removeItem(at: probe)
            undo(folder)
            return false
        }
        return true
    }

    static func undo(_ folder: URL) {
        if getuid() == 0 {
            _ = run("/usr/bin/chattr", ["-i", folder.path]) || run("/bin/chattr", ["-i", folder.path])
        } else {
            chmod(folder.path, 0o755)
        }
    }

    /// Whether this machine can make a folder unwritable at all.
    static let isPossible: Bool = {
        guard let folder = try? TestFiles.temporaryFolder() else { return false }
        defer { try? FileManager.default.removeItem(at: folder) }
        guard make(folder) else { return false }
        undo(folder)
        return true
    }()

    private static func run(_ tool: String, _ arguments: [String]) -> Bool {
        guard FileManager.default.isExecutableFile(atPath: tool) else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
