import Foundation

/// The places the redaction changed in recorded tracks, counted, in the order first met.
struct RedactedPlaces: Sendable, Equatable {
    private var order: [String] = []
    private var counts: [String: Int] = [:]

    mutating func add(_ places: [String]) {
        for place in places {
            if counts[place] == nil { order.append(place) }
            counts[place, default: 0] += 1
        }
    }

    var counted: [RecordingReport.Redacted] {
        order.map { RecordingReport.Redacted(place: $0, count: counts[$0] ?? 0) }
    }

    /// Where `redacted` differs from `original`: found by comparing the track as received with
    /// the track as written, so every filter and hook is covered, not only the default's names.
    /// Runs once per recorded track, never on replay.
    static func places(from original: Track, to redacted: Track) -> [String] {
        var places = side("request", original.request.headers, redacted.request.headers, original.request.url, redacted.request.url)
        places += body("request", original.request.body, redacted.request.body, headers: original.request.headers, streamed: false)
        if case .response(let before) = original.outcome, case .response(let after) = redacted.outcome {
            places += side("response", before.headers, after.headers, before.url, after.url)
            places += body("response", before.body, after.body, headers: before.headers, streamed: before.stream != nil)
            // A WebSocket's messages, counted by direction and JSON key as `gramophone scan` names
            // them, without the message's number: `response.webSocket.messages (sent) JSON "api_key"`.
            if let sent = before.conversation?.messages, let kept = after.conversation?.messages, sent.count == kept.count {
                for (old, new) in zip(sent, kept) where old.payload != new.payload {
                    places += payload("response.webSocket.messages (\(old.direction))", old.payload, new.payload)
                }
            }
        }
        return places
    }

    private static func side(_ side: String, _ before: Headers, _ after: Headers, _ beforeURL: URL?, _ afterURL: URL?) -> [String] {
        var places: [String] = []
        // Content-Length follows the redacted body: not a place anything was taken from.
        for field in before.fields
        where after[field.name] != field.value && !field.name.caseInsensitiveEquals("Content-Length") && !places.contains("\(side).headers \"\(field.name)\"") {
            places.append("\(side).headers \"\(field.name)\"")
        }
        guard let beforeURL, beforeURL != afterURL else { return places }
        let items = { (url: URL?) in url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) } }
        let (from, to) = (items(beforeURL), items(afterURL))
        var named = false
        if from?.password != nil, from?.password != to?.password {
            places.append("\(side).url password")
            named = true
        }
        let afterItems = to?.queryItems ?? []
        for item in from?.queryItems ?? [] where !afterItems.contains(item) {
            places.append("\(side).url query \"\(item.name)\"")
            named = true
        }
        if !named { places.append("\(side).url") }
        return places
    }

    private static func body(_ side: String, _ before: Data, _ after: Data, headers: Headers, streamed: Bool) -> [String] {
        guard before != after else { return [] }
        if streamed, let places = events(side, before, after) { return places }
        if let paths = jsonPaths(before, after) { return paths.map { $0.isEmpty ? "\(side).body" : "\(side).body JSON \"\($0)\"" } }
        if headers.mediaType == "application/x-www-form-urlencoded" {
            let pairs = { (data: Data) in String(decoding: data, as: UTF8.self).split(separator: "&").map(String.init) }
            let kept = Set(pairs(after))
            let changed = pairs(before).filter { !kept.contains($0) }.map { Redaction.decode(String($0.prefix { $0 != "=" })) }
            if !changed.isEmpty { return changed.map { "\(side).body form \"\($0)\"" } }
        }
        return ["\(side).body"]
    }

    /// A message's payload: its changed JSON keys, or the payload as one place.
    private static func payload(_ place: String, _ before: Data, _ after: Data) -> [String] {
        guard let paths = jsonPaths(before, after) else { return [place] }
        let named = paths.filter { !$0.isEmpty }.map { "\(place) JSON \"\($0)\"" }
        return named.isEmpty ? [place] : named
    }

    /// A streamed body, event by event: redaction rewrites lines in place, so the lines pair up;
    /// nil when they do not (a hook rewrote the body), and the body counts as one place.
    private static func events(_ side: String, _ before: Data, _ after: Data) -> [String]? {
        let lines = { (data: Data) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) }
        let (from, to) = (lines(before), lines(after))
        guard from.count == to.count else { return nil }
        var places: [String] = []
        for (old, new) in zip(from, to) where old != new {
            let payload = { (line: Substring) in line.hasPrefix("data:") ? line.dropFirst(5).drop { $0 == " " } : line }
            let paths = jsonPaths(Data(payload(old).utf8), Data(payload(new).utf8)) ?? [""]
            places += paths.map { $0.isEmpty ? "\(side).body" : "\(side).body JSON \"\($0)\"" }
        }
        return places
    }

    /// The paths where two JSON texts differ ("" for the whole); nil when either is not JSON.
    private static func jsonPaths(_ before: Data, _ after: Data) -> [String]? {
        guard let from = try? JSONParser.parse(before), let to = try? JSONParser.parse(after) else { return nil }
        var paths: [String] = []
        json(from, to, path: "", into: &paths)
        return paths
    }

    /// The paths (`user.password`, `items[0].token`) where `after` differs from `before`.
    private static func json(_ before: JSONValue, _ after: JSONValue, path: String, into paths: inout [String]) {
        guard before != after else { return }
        switch (before, after) {
        case (.object(let from), .object(let to)):
            let kept = Dictionary(to.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
            for member in from {
                let memberPath = path.isEmpty ? member.key : path + "." + member.key
                if let value = kept[member.key] {
                    json(member.value, value, path: memberPath, into: &paths)
                } else {
                    paths.append(memberPath)
                }
            }
        case (.array(let from), .array(let to)) where from.count == to.count:
            for (index, pair) in zip(from, to).enumerated() { json(pair.0, pair.1, path: path + "[\(index)]", into: &paths) }
        default:
            paths.append(path)
        }
    }
}

extension Vinyl {
    /// `redactedForWriting(by:allowing:file:)`, with what the redaction changed counted per place
    /// as a recording's report counts it: `gramophone convert` says what it took out.
    package func redactedForWritingCounted(
        by redaction: Redaction = .default, allowing allowed: [SecretPlace] = [], file: String? = nil
    ) throws -> (vinyl: Vinyl, redacted: [RecordingReport.Redacted]) {
        let written = try redactedForWriting(by: redaction, allowing: allowed, file: file)
        var places = RedactedPlaces()
        for (before, after) in zip(tracks, written.tracks) { places.add(RedactedPlaces.places(from: before, to: after)) }
        return (written, places.counted)
    }
}
