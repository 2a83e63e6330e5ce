import Foundation
import Gramophone

/// What `gramophone lint` checks in a vinyl that reads fine, beyond its structure.
///
/// Each rule finds something that makes a replay behave differently from what the file
/// seems to say: a track no request can reach, a body a client cannot interpret, headers
/// that contradict the body.
enum VinylLint {
    struct Problem: Equatable {
        /// Where in the file: `log.entries[3].response`.
        var place: String
        var message: String
    }

    /// How the vinyl is replayed, as far as reaching its tracks goes (`gramophone lint --matching`).
    enum Replay: String, CaseIterable {
        /// Identical requests get their recorded occurrences in order (the default strategy, a
        /// play-once or in-order one): every repeat of a request is reached.
        case occurrences = "default"
        /// DVR's: the last agreeing track answers, so the earlier copies are never played.
        case dvr
    }

    static func problems(in vinyl: Vinyl, format: VinylFormat, replay: Replay? = nil) -> [Problem] {
        // Unless told otherwise, as a Turntable replays a file of this format.
        let replay = replay ?? (format == .dvr ? .dvr : .occurrences)
        // What reading went past (a DVR body DVR itself read as none), with how it is served.
        var problems = vinyl.issues.map { Problem(place: $0.place, message: "\($0.problem); \($0.served); to fix: \($0.fix)") }
        var firstSeen: [RequestKey: Int] = [:]
        for (index, track) in vinyl.tracks.enumerated() {
            let place = format.place(ofTrack: index)
            let request = track.request
            let key = RequestKey(request)
            if let earlier = firstSeen[key] {
                // Otherwise a repeat is the request's next occurrence, replayed in its turn.
                if replay == .dvr {
                    // A Turntable matches a DVR cassette as DVR did: the last agreeing interaction answers.
                    let sameAnswer = vinyl.tracks[earlier].outcome == track.outcome
                    let answer = (sameAnswer ? "a redundant copy" : "this one answers it, as under DVR, so track #\(earlier) is never played") + "; remove one"
                    problems.append(
                        Problem(
                            place: place,
                            message: "the same request as track #\(earlier) (\(request.method) \(request.url.absoluteString)): "
                                + answer + ", or replay with another strategy, which plays each occurrence in turn (lint --matching default)"))
                }
            } else {
                firstSeen[key] = index
            }
            problems += bodyProblems(request.body, headers: request.headers, place: place + ".request", format: format)
            guard case .response(let response) = track.outcome else { continue }
            let responsePlace = place + ".response"
            problems += bodyProblems(response.body, headers: response.headers, place: responsePlace, format: format)
            if let url = response.url, let host = url.host?.lowercased(), host != request.url.host?.lowercased() {
                problems.append(
                    Problem(
                        place: responsePlace + ".url",
                        message:
                            "the response came from host \(host), not the requested \(request.url.host ?? "(none)") (a cross-host redirect or a hand edit); clients reading response.url see \(host)"))
            }
            if [204, 304].contains(response.status) || (100..<200).contains(response.status), !response.body.isEmpty {
                problems.append(
                    Problem(place: responsePlace, message: "a \(response.status) response carries a \(response.body.count)-byte body that clients discard; remove the body or fix the status"))
            }
        }
        return problems
    }

    /// Tracks recorded more than `maxAge` seconds before `now` (`gramophone lint --max-age`);
    /// tracks without a recording date are not judged.
    static func agedTracks(in vinyl: Vinyl, format: VinylFormat, maxAge: TimeInterval, written: String, now: Date) -> [Problem] {
        vinyl.tracks.enumerated().compactMap { index, track in
            guard let recordedAt = track.recordedAt, now.timeIntervalSince(recordedAt) > maxAge else { return nil }
            let days = Int(now.timeIntervalSince(recordedAt) / 86_400)
            let date = ISO8601DateFormatter().string(from: recordedAt)
            return Problem(
                place: format.place(ofTrack: index),
                message: "recorded \(date) (\(days) day\(days == 1 ? "" : "s") ago), older than --max-age \(written); record it again, or run gramophone verify to see whether the API changed")
        }
    }

    private static func bodyProblems(_ body: Data, headers: Headers, place: String, format: VinylFormat) -> [Problem] {
        var problems: [Problem] = []
        if !body.isEmpty && headers.mediaType == nil {
            problems.append(Problem(place: place + ".headers", message: "a \(body.count)-byte body has no Content-Type; add one so readers and clients know how to treat it"))
        }
        // A body still compressed (its coding named, its bytes not decoded) is judged as compressed only.
        let compressed = ContentCoding.outermost(headers) != nil && ContentCoding.decodedCoding(of: body, headers: headers) == nil
        if let type = headers.mediaType, type == "application/json" || type.hasSuffix("+json"), !body.isEmpty, !compressed,
            (try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])) == nil
        {
            problems.append(Problem(place: place + ".body", message: "Content-Type is \(type) but the body is not valid JSON; fix the body or the Content-Type"))
        }
        // An empty body with a length is a HEAD or 304 answer, which is fine.
        if !body.isEmpty, let length = headers["Content-Length"], let declared = Int(length.trimmingCharacters(in: .whitespaces)), declared != body.count,
            headers["Content-Encoding"] == nil, !isReserialisedByDVR(headers, format: format)
        {
            problems.append(Problem(place: place + ".headers", message: "Content-Length says \(declared) but the body has \(body.count) bytes; remove the header or fix it"))
        }
        // The recorder's rule (ContentCoding): headers describe the stored body.
        if let coding = ContentCoding.decodedCoding(of: body, headers: headers) {
            problems.append(
                Problem(
                    place: place + ".headers",
                    message: "Content-Encoding says \(coding) but the body is stored decoded (not \(coding) data); remove the Content-Encoding header, as the recorder does"))
        } else if let encoding = otherCompression(headers), !body.isEmpty, ContentCoding.isPlainText(body) {
            // A coding the recorder's rule does not know by its bytes (compress): plain text is the tell.
            problems.append(
                Problem(place: place + ".headers", message: "Content-Encoding says \(encoding) but the body is plain text (already decoded); remove the Content-Encoding header"))
        }
        return problems
    }

    /// DVR stored a JSON body (`application/json…`, the exact key it read) as a JSON value, so
    /// the bytes read back are that value written compactly, not the bytes the server sent and
    /// its Content-Length counted: a length that differs is DVR's doing, not the file's defect.
    private static func isReserialisedByDVR(_ headers: Headers, format: VinylFormat) -> Bool {
        format == .dvr && headers.fields.contains { $0.name == "Content-Type" && $0.value.hasPrefix("application/json") }
    }

    /// A `Content-Encoding` other than gzip (checked above by its magic bytes) that a client
    /// would try to undo: brotli and zstd have no reliable magic, so plain text is the tell.
    private static func otherCompression(_ headers: Headers) -> String? {
        guard let value = headers["Content-Encoding"]?.lowercased() else { return nil }
        let codings = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return codings.first { ["br", "deflate", "zstd", "compress"].contains($0) }
    }

    /// What makes two requests indistinguishable to every matcher.
    private struct RequestKey: Hashable {
        /// Method and URL as matching normalises them (`RequestParts`).
        var parts: RequestParts
        var headers: [String]
        var body: Data

        init(_ request: Track.Request) {
            parts = RequestParts(request)
            headers = request.headers.fields.map { $0.name.lowercased() + ":" + $0.value }.sorted()
            body = request.body
        }
    }
}
