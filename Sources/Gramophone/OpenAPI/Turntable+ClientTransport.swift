#if OpenAPI
import Foundation
import HTTPTypes
import OpenAPIRuntime

extension Turntable: ClientTransport {
    /// The answer to a generated client's request (package trait `OpenAPI`), so
    /// `Client(serverURL: url, transport: turntable)` runs on a vinyl: from a stub, the vinyl,
    /// or the recorder (through `Recording.session`), in that order, as ``data(for:)`` answers.
    /// The request body is collected for matching; the response body streams as
    /// ``bytes(for:)``'s does: a recorded stream chunk by chunk, any other body in one piece.
    ///
    /// - Throws: ``TurntableError/noMatchingTrack(_:)`` when nothing answers (the generated
    ///   client wraps it in its `ClientError`); a recorded transport error as the `URLError` it was.
    public func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        let live = try await Track.Request(request, body: body, baseURL: baseURL)
        let answer = try await streamedAnswer(live, through: .clientTransport)
        let response = answer.head.openAPI
        switch answer.body {
        case .whole(let data): return (response, HTTPBody(data))
        case .pieces(let source): return (response, HTTPBody(ChunkSequence(source: source), length: .unknown, iterationBehavior: .single))
        }
    }
}
#endif
