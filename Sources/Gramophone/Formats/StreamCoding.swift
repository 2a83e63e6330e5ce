import Foundation

/// How a streamed response is stored in a JSON vinyl: its chunks, which make the body, so the
/// writer leaves `body` out and each byte is in the file once:
///
/// ```json
/// "stream": {"chunks": [{"offsetMs": 12.5, "text": "data: {\"n\":1}\n\n"},
///                       {"offsetMs": 40, "base64": "//4AgA=="}],
///            "end": "finished"}
/// ```
/// Each chunk is text where it is UTF-8 and base64 otherwise, with its time in milliseconds from
/// the request. `end` is `"finished"`, `"cancelled"`, `{"stoppedBy": "sentinel [DONE]"}` or
/// `{"error": {"domain", "code", "description"}}`. The chunks, joined, are the body; a file that
/// also holds `body` (Gramophone's first layout) reads when the two agree.
enum StreamCoding {
    static let key = "stream"

    /// The stream stored at `value`, and the body its chunks make.
    static func decode(_ value: JSONValue, path: DecodingPath) throws -> (stream: TrackStream, body: Data) {
        let items = try value.array("chunks", at: path, of: "chunks", fix: "List the chunks as {\"offsetMs\": 0, \"text\": \"…\"}, or remove \"stream\" to replay the body in one piece")
        var chunks: [TrackStream.Chunk] = []
        var body = Data()
        var previous: TimeInterval = 0
        for (index, item) in items.enumerated() {
            let chunkPath = path.key("chunks").index(index)
            _ = try item.members(at: chunkPath)
            let offset = try GramophoneFormat.offset(item["offsetMs"] ?? .number("0"), path: chunkPath.key("offsetMs"), notBefore: previous, of: "chunk", since: "the request")
            previous = offset
            let piece = try item.bytes(text: "text", base64: "base64", at: chunkPath, fix: "Give the chunk's bytes as \"text\" (UTF-8) or \"base64\"").data
            chunks.append(TrackStream.Chunk(offset: offset, length: piece.count))
            body.append(piece)
        }
        return (TrackStream(chunks: chunks, end: try decodeEnd(value["end"], path: path.key("end"))), body)
    }

    private static func decodeEnd(_ value: JSONValue?, path: DecodingPath) throws -> TrackStream.End {
        let fix = "Use \"finished\", \"cancelled\", {\"stoppedBy\": \"…\"} or {\"error\": {\"domain\": …, \"code\": …}}"
        switch value {
        case nil, .null?, .string("finished")?: return .finished
        case .string("cancelled")?: return .cancelled
        case .object?:
            if let reason = try value?.optionalString("stoppedBy", at: path) { return .stopped(reason) }
            if let error = value?["error"] { return .failed(try GramophoneFormat.decodeFailure(error, path: path.key("error"))) }
            throw StructureError(path: path, problem: "an end names \"stoppedBy\" or \"error\"", fix: fix)
        case let other?:
            throw StructureError(path: path, problem: "\(other.kindName) is not a stream's end", fix: fix)
        }
    }

    static func encode(_ stream: TrackStream, body: Data) -> JSONValue {
        // Chunks that no longer add up to the body (a track edited in code) would not read back.
        let stream = stream.fitted(to: body.count)
        var chunks: [JSONValue] = []
        for (chunk, range) in zip(stream.chunks, stream.ranges) where range.upperBound <= body.count {
            let piece = BodyCoding.textOrBase64(body.subdata(in: range))
            chunks.append(.object([("offsetMs", GramophoneFormat.milliseconds(chunk.offset)), (piece.isText ? "text" : "base64", .string(piece.string))]))
        }
        let end: JSONValue
        switch stream.end {
        case .finished: end = .string("finished")
        case .cancelled: end = .string("cancelled")
        case .stopped(let reason): end = .object([("stoppedBy", .string(reason))])
        case .failed(let failure): end = .object([("error", GramophoneFormat.encodeFailure(failure))])
        }
        return .object([("chunks", .array(chunks)), ("end", end)])
    }
}
