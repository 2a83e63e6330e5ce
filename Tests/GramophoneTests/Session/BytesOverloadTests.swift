import Foundation
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

#if canImport(FoundationNetworking)
/// What Apple's SDK declares and Linux Foundation lacks: `URLSession.bytes(for:delegate:)`, its
/// `delegate:` defaulted. Declared here, for this file only, so that a plain call on Linux meets
/// the same two candidates as on Apple platforms and the test can ask which one it picks.
private struct SDKStyleBytes {
    var url: URL?
}

extension URLSession {
    fileprivate func bytes(for request: URLRequest, delegate: (any URLSessionTaskDelegate)? = nil) async throws -> (SDKStyleBytes, URLResponse) {
        (SDKStyleBytes(url: request.url), URLResponse(url: request.url!, mimeType: nil, expectedContentLength: 0, textEncodingName: nil))
    }
}

private typealias SDKBytes = SDKStyleBytes
#else
private typealias SDKBytes = URLSession.AsyncBytes
#endif

/// Importing Gramophone must not change what app code that calls `URLSession.bytes(for:)` gets:
/// a plain call stays the SDK's, while `NetworkSession` callers get Gramophone's `ResponseBytes`.
/// The first test fails to compile if Gramophone's overload outranks the SDK's.
@Suite("bytes(for:) beside the SDK's")
struct BytesOverloadTests {
    static func answered(_ paths: [String]) -> (Turntable, URLSession) {
        let turntable = Turntable(
            vinyl: Vinyl(name: "lines", tracks: paths.map { Track(Track.Request(method: "GET", url: Self.request($0).url!), .text("a\nb\n")) }))
        return (turntable, turntable.makeURLSession())
    }

    static func request(_ path: String) -> URLRequest {
        URLRequest(url: URL(string: "https://api.example.com\(path)")!)
    }

    static func lines(_ bytes: ResponseBytes) async throws -> [String] {
        var lines: [String] = []
        for try await line in bytes.lines { lines.append(line) }
        return lines
    }

    @Test func aPlainCallOnAURLSessionIsTheSDKs() async throws {
        let (turntable, session) = Self.answered(["/plain"])
        let (bytes, _) = try await session.bytes(for: Self.request("/plain"))
        // The pin: this line compiles only if the unannotated call above chose the SDK's method.
        let sdkBytes: SDKBytes = bytes
        #if canImport(FoundationNetworking)
        #expect(sdkBytes.url == Self.request("/plain").url)
        #else
        var lines: [String] = []
        for try await line in sdkBytes.lines { lines.append(line) }
        #expect(lines == ["a", "b"])
        #endif
        withExtendedLifetime(turntable) {}
    }

    @Test func throughNetworkSessionOrAnnotatedItIsGramophones() async throws {
        let (turntable, session) = Self.answered(["/protocol", "/generic", "/annotated"])
        let some: any NetworkSession = session
        let (viaProtocol, _) = try await some.bytes(for: Self.request("/protocol"))
        func generic<Session: NetworkSession>(_ session: Session) async throws -> ResponseBytes {
            try await session.bytes(for: Self.request("/generic")).0
        }
        let viaGeneric = try await generic(session)
        let (annotated, _): (ResponseBytes, URLResponse) = try await session.bytes(for: Self.request("/annotated"))
        #expect(try await Self.lines(viaProtocol) == ["a", "b"])
        #expect(try await Self.lines(viaGeneric) == ["a", "b"])
        #expect(try await Self.lines(annotated) == ["a", "b"])
        withExtendedLifetime(turntable) {}
    }
}
