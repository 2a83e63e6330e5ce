import Foundation

/// DVR cassettes: `{"name", "interactions": [{"request", "response", "recorded_at"}]}`.
///
/// Bodies follow DVR's rules, read from the exact `Content-Type` key as DVR looked it up
/// (text under `text/…`, a JSON value or text under `application/json…`, base64 otherwise,
/// also when there is no `Content-Type` or only a `content-type`). Interactions are kept in
/// file order.
///
/// Like DVR, one interaction whose body cannot be decoded does not make the cassette
/// unreadable: DVR read such a body as nil, and so it is read here as no body, with a
/// `VinylIssue` naming it (`Vinyl.issues`, `gramophone lint`, a warning when a Turntable loads it).
enum DVRFormat {
    static func decode(_ document: JSONValue, name: String) throws -> Vinyl {
        let root = DecodingPath()
        let items = try document.array("interactions", at: root, of: "interactions", fix: "A DVR cassette is {\"name\": …, \"interactions\": [ … ]}")
        let cassetteName = try document.optionalString("name", at: root) ?? name
        var tracks: [Track] = []
        var issues: [VinylIssue] = []
        tracks.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            let path = root.key("interactions").index(index)
            var interaction = item
            // At most one retry per side: the request's body, then the response's.
            for _ in 0..<3 {
                do {
                    tracks.append(try GramophoneFormat.decodeTrack(interaction, path: path, convention: .dvr))
                    break
                } catch let error as StructureError {
                    guard let side = ["request", "response"].first(where: { error.path.place == path.key($0).key("body").place }),
                        let withoutBody = removingBody(of: side, from: interaction)
                    else { throw error }
                    interaction = withoutBody
                    issues.append(
                        VinylIssue(
                            place: error.path.place, problem: error.problem + " (DVR read it as no body)",
                            served: side == "response" ? "served as an empty body" : "matched as an empty body",
                            fix: "Store the body as base64, or add \"bodyEncoding\": \"text\" beside it to \(side == "response" ? "serve" : "match") the text as written"))
                }
            }
        }
        var vinyl = Vinyl(name: cassetteName, tracks: tracks)
        vinyl.issues = issues
        return vinyl
    }

    /// The interaction with `side`'s body (and any `bodyEncoding`) left out; nil if it had none.
    private static func removingBody(of side: String, from interaction: JSONValue) -> JSONValue? {
        guard case .object(var members) = interaction, let position = members.firstIndex(where: { $0.key == side }),
            case .object(let fields) = members[position].value, fields.contains(where: { $0.key == "body" })
        else { return nil }
        members[position].value = .object(fields.filter { $0.key != "body" && $0.key != BodyCoding.encodingKey })
        return .object(members)
    }

    static func encode(_ vinyl: Vinyl) -> JSONValue {
        .object([
            ("interactions", .array(vinyl.tracks.map(encodeInteraction))),
            ("name", .string(vinyl.name)),
        ])
    }

    private static func encodeInteraction(_ track: Track) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        // DVR has no errors; Gramophone's own `error` key keeps them readable by Gramophone: in
        // place of the response, or beside it for a transfer that failed after its response.
        if let failure = track.failure ?? track.response?.failure {
            members.append(("error", GramophoneFormat.encodeFailure(failure)))
        }
        if let date = track.recordedAt {
            members.append(("recorded_at", .number(GramophoneFormat.formatSeconds(date.timeIntervalSince1970))))
        }
        members.append(("request", GramophoneFormat.encodeRequest(track.request, body: BodyCoding.members(dvrBody(track.request.body, headers: track.request.headers)))))
        if let response = track.response {
            var fields = BodyCoding.members(dvrBody(response.body, headers: response.headers) ?? emptyResponseBody(response.headers).map { ($0, nil) })
            fields.append(("headers", response.headers.jsonValue))
            fields.append(("status", .number(String(response.status))))
            fields.append(("url", .string((response.url ?? track.request.url).absoluteString)))
            members.append(("response", .object(fields)))
        }
        return .object(members)
    }

    /// DVR recorded every response's data, an empty one as `""` (empty text, or the base64 of
    /// nothing), which it reads back as an empty body rather than none. Under a JSON type DVR
    /// wrote no body for empty data (it is no JSON), so none is written there either.
    private static func emptyResponseBody(_ headers: Headers) -> JSONValue? {
        headers.value(exactlyNamed: "Content-Type")?.hasPrefix("application/json") == true ? nil : .string("")
    }

    /// DVR's own rule: a JSON value under a JSON type, a string under `text/*` and
    /// `application/json…`, base64 for everything else (vendor `+json` and no type included),
    /// as the reader expects; the type is the exact `Content-Type` key, as DVR reads it back.
    /// Bytes that are not UTF-8 under a string type are base64 marked with Gramophone's
    /// `bodyEncoding` (DVR has no way to say it; ours reads it back exactly).
    private static func dvrBody(_ body: Data, headers: Headers) -> (value: JSONValue, encoding: String?)? {
        guard !body.isEmpty else { return nil }
        if let contentType = headers.value(exactlyNamed: "Content-Type") {
            let mediaType = (contentType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? contentType).trimmingWhitespace().lowercased()
            if BodyCoding.isJSON(mediaType), let value = try? JSONParser.parse(body), Data(JSONWriter.compact(value)) == body, value.stringValue == nil, value != .null {
                return (value, nil)
            }
            if contentType.hasPrefix("text/") || contentType.hasPrefix("application/json") {
                let stored = BodyCoding.textOrBase64(body)
                return (.string(stored.string), stored.isText ? nil : "base64")
            }
        }
        return (.string(body.base64EncodedString()), nil)
    }
}
