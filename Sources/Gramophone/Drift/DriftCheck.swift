import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How `Vinyl.verify(against:)` checks a vinyl against the live API: where to send the
/// recorded requests, what to fill into their redacted places, and what to compare.
///
/// ```swift
/// let vinyl = try Vinyl(contentsOf: vinyls.appendingPathComponent("users.json"))
/// let report = await vinyl.verify(against: DriftCheck(headers: ["Authorization": "Bearer \(token)"]))
/// print(report)   // track #0 GET https://api.example.com/users/1: drifted
///                 //     body.nickname: removed
/// ```
///
/// The values filled in are sent and never kept: the re-recorded tracks in the report are
/// redacted, and the filled values scrubbed from them.
package struct DriftCheck: Sendable {
    /// Where to send the requests instead of their recorded server: its scheme, host and port
    /// replace the recorded ones, and its path (if any) goes before the recorded path. Nil
    /// sends each request where it was recorded.
    package var baseURL: URL?
    /// Headers set on every request, replacing recorded ones of the same name: the
    /// credentials redaction took out (`Authorization: Bearer …`).
    package var headers: Headers
    /// Values for redacted places, by name: a query parameter, form field or JSON member of
    /// that name (at any depth) gets the value; a name that is a credential header the default
    /// redaction removes (`Authorization`, `X-Api-Key`, …) is set as a header.
    package var placeholders: [String: String]
    /// Also compare values (scalars in JSON, header values, other bodies' bytes), not only shapes.
    package var comparesValues: Bool
    /// Also send requests whose method is unsafe (anything but GET, HEAD, OPTIONS and TRACE):
    /// they may change data on the server.
    package var includesUnsafe: Bool
    /// The session that reaches the live API; nil is an ephemeral `URLSession`.
    package var session: (any NetworkSession)?
    /// How the live exchanges are redacted before they are offered as replacement tracks.
    package var redaction: Redaction

    /// A drift check; each argument sets the property of the same name. The defaults send
    /// safe requests where they were recorded, fill nothing, and compare shapes only.
    package init(
        baseURL: URL? = nil, headers: Headers = [:], placeholders: [String: String] = [:], comparesValues: Bool = false,
        includesUnsafe: Bool = false, session: (any NetworkSession)? = nil, redaction: Redaction = .default
    ) {
        self.baseURL = baseURL
        self.headers = headers
        self.placeholders = placeholders
        self.comparesValues = comparesValues
        self.includesUnsafe = includesUnsafe
        self.session = session
        self.redaction = redaction
    }

    /// Methods that change nothing on the server (RFC 9110, 9.2.1).
    static let safeMethods: Set<String> = ["GET", "HEAD", "OPTIONS", "TRACE"]

    /// The recorded request as it is sent: moved to `baseURL`, redacted places filled.
    func liveRequest(for recorded: Track.Request) -> Track.Request {
        var request = recorded
        if let baseURL, var components = URLComponents(url: recorded.url, resolvingAgainstBaseURL: false) {
            let base = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)
            components.scheme = base?.scheme ?? components.scheme
            components.host = base?.host ?? components.host
            components.port = base?.port
            let prefix = base?.percentEncodedPath ?? ""
            if !prefix.isEmpty, prefix != "/" {
                components.percentEncodedPath = (prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix) + components.percentEncodedPath
            }
            request.url = components.url ?? recorded.url
            request.headers["Host"] = nil
        }
        request = PlaceholderFill(values: placeholders).filling(request)
        for field in headers.fields { request.headers[field.name] = field.value }
        // The body may have changed length; the session sets the right one.
        request.headers["Content-Length"] = nil
        return request
    }

    /// Every value filled in, to be scrubbed from what is kept.
    var filledValues: [String] {
        headers.fields.map(\.value) + Array(placeholders.values)
    }
}

extension Vinyl {
    /// Sends each recorded request to the live API and compares each response with its track
    /// by shape: status, content type, the headers that change a client's behaviour, the
    /// JSON structure (keys added and removed, kinds changed, array element shape), event
    /// names and data shape for event streams; values only with `comparesValues`.
    ///
    /// Requests go one at a time, in vinyl order. Unsafe methods are skipped unless
    /// `includesUnsafe` (`report.checkedNothing` when that leaves none). WebSocket conversations
    /// are skipped and listed in `report.skippedConversations`: a check sends HTTP requests, and
    /// a handshake sent over HTTP is no conversation. A track recorded as a
    /// stream is read live as recording reads one, piece by piece with each piece's time, until
    /// it ends or reaches the limit the recorded stream stopped at. Each live response is
    /// compared as it would be written (redacted, the filled values scrubbed); changes at body
    /// places named after a header set on every request are left out (`TrackDrift.echoes`).
    /// Nothing is written: write `report.updating(vinyl)` to re-record.
    package func verify(against check: DriftCheck = DriftCheck()) async -> DriftReport {
        let session = check.session ?? DeferredSession()
        var report = DriftReport(vinylName: name, checked: [], skipped: [])
        for (index, track) in tracks.enumerated() {
            guard track.response?.conversation == nil else {
                report.skippedConversations.append(index)
                continue
            }
            guard check.includesUnsafe || DriftCheck.safeMethods.contains(track.request.method) else {
                report.skipped.append(index)
                continue
            }
            report.checked.append(await Self.verify(track, at: index, with: check, session: session))
        }
        return report
    }

    private static func verify(_ track: Track, at index: Int, with check: DriftCheck, session: any NetworkSession) async -> TrackDrift {
        var result = TrackDrift(index: index, request: track.request, changes: [], error: nil, liveTrack: nil)
        let sent = check.liveRequest(for: track.request)
        let start = ProcessInfo.processInfo.systemUptime
        let recordedAt = Date()
        var liveResponse: Track.Response
        do {
            if let recordedStream = track.response?.stream {
                // A stream is read as recording reads one: its pieces, their times, its end.
                let live = try await LiveStream.read(sent, through: session, like: recordedStream, since: start)
                liveResponse = Track.Response(recording: live.response, body: live.body, for: sent.url)
                liveResponse.stream = live.stream
            } else {
                let (data, urlResponse) = try await session.data(for: sent.urlRequest)
                guard let http = urlResponse as? HTTPURLResponse else { throw RecordingError.notHTTP(sent.url) }
                liveResponse = Track.Response(recording: http, body: data, for: sent.url)
            }
        } catch {
            if let failure = track.failure {
                let live = Track.Failure(error)
                if live.domain != failure.domain || live.code != failure.code {
                    result.changes.append(DriftChange(place: "error", recorded: "\(failure.domain) \(failure.code)", live: "\(live.domain) \(live.code)"))
                }
            } else {
                result.error = (error as NSError).localizedDescription
            }
            return result
        }
        if liveResponse.url == sent.url { liveResponse.url = nil }
        // Recorded by default rule, a decoded body has no Content-Encoding: compare like with like.
        if track.response.map({ ContentCoding.outermost($0.headers) == nil }) ?? true { _ = liveResponse.describeStoredBody() }
        let (live, redacted) = redactedLiveTrack(sent: sent, response: liveResponse, recorded: track, recordedAt: recordedAt, start: start, check: check)
        if let recorded = track.response, let compared = live.response {
            // Compared as it would be written: redacted, the values filled in scrubbed, so what
            // the check itself sent is not drift and never reaches the report.
            let echoed = check.namesSentOnEveryRequest
            for change in ResponseShape.changes(from: recorded, to: compared, comparingValues: check.comparesValues) {
                if change.isEcho(of: echoed) { result.echoes.append(change) } else { result.changes.append(change) }
            }
            if recorded.status != compared.status, check.comparesValues { result.liveBody = Self.text(of: compared.body) }
        } else {
            result.changes.append(
                DriftChange(place: "outcome", recorded: "error \(track.failure.map { "\($0.domain) \($0.code)" } ?? "")", live: "status \(liveResponse.status)"))
        }
        if result.hasDrifted {
            result.liveTrack = live
            result.redactedPlaces = redacted
        }
        return result
    }

    /// A body as the report shows it: its text, up to 2,000 characters.
    private static func text(of body: Data) -> String {
        guard !body.isEmpty else { return "(empty)" }
        guard let text = String(data: body, encoding: .utf8) else { return "(\(body.count) bytes, not text)" }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.count > 2_000 ? trimmed.prefix(2_000) + "… (\(body.count) bytes in all)" : trimmed
    }

    /// The live exchange as the recorder would write it: redacted with the filled values
    /// scrubbed, and the request as the vinyl has it, so the same client request still matches;
    /// with the places the redaction changed in the response (the request is not written).
    private static func redactedLiveTrack(
        sent: Track.Request, response: Track.Response, recorded: Track, recordedAt: Date, start: TimeInterval, check: DriftCheck
    ) -> (track: Track, redacted: [String]) {
        let filled = check.filledValues.filter { $0.count >= 4 }
        // The filled values join what redaction scrubs from the rest of the track.
        let scrubFilled = Redaction(steps: [
            .headers { headers, secrets in
                secrets += filled
                return headers
            }
        ])
        let original = Track(request: sent, outcome: .response(response), recordedAt: recordedAt, duration: ProcessInfo.processInfo.systemUptime - start)
        var track = (scrubFilled + check.redaction).redact(original)
        let places = RedactedPlaces.places(from: original, to: track).filter { $0.hasPrefix("response") }
        track.request = recorded.request
        return (track, places)
    }
}

extension DriftCheck {
    /// The names of the headers set on every request (lowercased): `headers`, and credential
    /// headers filled from `placeholders`.
    var namesSentOnEveryRequest: Set<String> {
        Set(headers.fields.map { $0.name.lowercased() } + placeholders.keys.filter { Redaction.isSensitiveHeader($0) }.map { $0.lowercased() })
    }
}

extension DriftChange {
    /// Whether this change is in the body at a place named after one of `names` (lowercased
    /// header names): an endpoint that echoes the request's headers reports back what the check
    /// set on every request, which says nothing about the API.
    func isEcho(of names: Set<String>) -> Bool {
        guard !names.isEmpty, place.hasPrefix("body.") || place.hasPrefix("events.") else { return false }
        let last = place.split(separator: ".").last.map { $0.replacingOccurrences(of: "[]", with: "") } ?? ""
        return names.contains(last.lowercased())
    }
}
