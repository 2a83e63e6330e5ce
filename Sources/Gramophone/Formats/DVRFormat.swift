import Foundation

/// DVR cassettes: `{"name", "interactions": [{"request", "response", "recorded_at"}]}`.
///
/// Bodies follow DVR's rules (base64 unless the content type is text or JSON, base64 also
/// when there is no content type). Interactions are kept in file order.
enum DVRFormat {
    static func decode(_ document: JSONValue, name: String) throws -> Vinyl {
        let root = DecodingPath()
        _ = try document.members(at: root)
        guard let interactions = document["interactions"] else {
            throw StructureError(path: root, problem: "missing \"interactions\"", fix: "A DVR cassette is {\"name\": …, \"interactions\": [ … ]}")
        }
        guard case .array(let items) = interactions else {
            throw StructureError(path: root.key("interactions"), problem: "expected an array, found \(interactions.kindName)", fix: "List the interactions in an array")
        }
        let cassetteName = try document.optionalString("name", at: root) ?? name
        return Vinyl(name: cassetteName, tracks: try GramophoneFormat.decodeTracks(items, path: root.key("interactions"), convention: .dvr))
    }

    static func encode(_ vinyl: Vinyl) -> JSONValue {
        .object([
            ("interactions", .array(vinyl.tracks.map(encodeInteraction))),
            ("name", .string(vinyl.name)),
        ])
    }

    private static func encodeInteraction(_ track: Track) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if case .failure(let failure) = track.outcome {
            // DVR has no errors; Gramophone's own `error` key keeps them readable by Gramophone.
            members.append(("error", GramophoneFormat.encodeFailure(failure)))
        }
        if let date = track.recordedAt {
            members.append(("recorded_at", .number(GramophoneFormat.formatSeconds(date.timeIntervalSince1970))))
        }
        var request: [(key: String, value: JSONValue)] = []
        if let (body, encoding) = dvrBody(track.request.body, headers: track.request.headers) {
            request.append(("body", body))
            if let encoding { request.append((BodyCoding.encodingKey, .string(encoding))) }
        }
        if !track.request.headers.isEmpty { request.append(("headers", track.request.headers.jsonValue)) }
        request.append(("method", .string(track.request.method)))
        request.append(("url", .string(track.request.url.absoluteString)))
        members.append(("request", .object(request)))
        if let response = track.response {
            var fields: [(key: String, value: JSONValue)] = []
            if let (body, encoding) = dvrBody(response.body, headers: response.headers) {
                fields.append(("body", body))
                if let encoding { fields.append((BodyCoding.encodingKey, .string(encoding))) }
            }
            fields.append(("headers", response.headers.jsonValue))
            fields.append(("status", .number(String(response.status))))
            fields.append(("url", .string((response.url ?? track.request.url).absoluteString)))
            members.append(("response", .object(fields)))
        }
        return .object(members)
    }

    /// DVR's own rule: a JSON value under a JSON type, a string under `text/*` and
    /// `application/json…`, base64 for everything else (vendor `+json` and no type included),
    /// as the reader expects. Bytes that are not UTF-8 under a string type are base64 marked
    /// with Gramophone's `bodyEncoding` (DVR has no way to say it; ours reads it back exactly).
    private static func dvrBody(_ body: Data, headers: Headers) -> (value: JSONValue, encoding: String?)? {
        guard !body.isEmpty else { return nil }
        if let mediaType = headers.mediaType {
            let isText = UTF8Validation.isValid(body)
            if BodyCoding.isJSON(mediaType), isText, let value = try? JSONParser.parse(body), Data(JSONWriter.compact(value)) == body, value.stringValue == nil, value != .null {
                return (value, nil)
            }
            if mediaType.hasPrefix("text/") || mediaType.hasPrefix("application/json") {
                return isText ? (.string(String(decoding: body, as: UTF8.self)), nil) : (.string(body.base64EncodedString()), "base64")
            }
        }
        return (.string(body.base64EncodedString()), nil)
    }
}
