import Foundation

/// One way a live response no longer looks like its track: `body.items[].price: number → string`,
/// `body.user.nickname: removed`, `status: 200 → 410`.
package struct DriftChange: Sendable, Hashable, CustomStringConvertible {
    /// Where: `status`, `headers.Cache-Control`, `body.user.nickname`, `body.items[].price`
    /// (`[]`: every element), `events.done`, `events.message.data.index`.
    package var place: String
    /// What the track has there (a kind such as `number`, a status, a value with `--values`);
    /// nil when the live response added the place.
    package var recorded: String?
    /// What the live response has there; nil when it removed the place.
    package var live: String?

    /// `place: recorded → live`, `place: removed` or `place: added (kind)`.
    package var description: String {
        switch (recorded, live) {
        case let (recorded?, live?): return "\(place): \(recorded) → \(live)"
        case (.some, nil): return "\(place): removed"
        case (nil, let live?): return live == "present" ? "\(place): added" : "\(place): added (\(live))"
        case (nil, nil): return place
        }
    }
}

/// What a drift check found for one track it sent.
package struct TrackDrift: Sendable {
    /// The track's position in the vinyl.
    package var index: Int
    /// The recorded request (as written in the vinyl, redacted).
    package var request: Track.Request
    /// How the live response differs from the recorded one; empty when it did not drift.
    package var changes: [DriftChange]
    /// Why no live response came (no connection, a timeout); nil when one came.
    package var error: String?
    /// The live exchange as a recording would write it (redacted, the request as recorded),
    /// used by `DriftReport.updating(_:)`; nil when no response came or nothing drifted.
    package var liveTrack: Track?
    /// Changes left out of the comparison: places in the body named after a header the check
    /// sets on every request (`DriftCheck.headers`, or a credential header filled from
    /// `DriftCheck.placeholders`), which an endpoint that echoes the request reports back
    /// (`body.headers.X-Tenant: added (string)`). They do not make the track drifted.
    package var echoes: [DriftChange] = []
    /// When the status drifted and the check compares values: the live body, redacted as a
    /// recording would write it, as text (up to 2,000 characters), so a `200 → 400` shows what
    /// the server said. Nil otherwise.
    package var liveBody: String?
    /// The places the redaction changed in `liveTrack`'s response, for the update's report.
    var redactedPlaces: [String] = []

    /// Whether the live response differs from the track.
    package var hasDrifted: Bool { !changes.isEmpty }
}

/// What `Vinyl.verify(against:)` found: each track sent live and how its response drifted.
///
/// ```swift
/// let report = await vinyl.verify(against: DriftCheck(baseURL: staging))
/// #expect(!report.hasDrift, "\(report)")
/// #expect(!report.checkedNothing, "\(report.summary)")
/// ```
package struct DriftReport: Sendable, CustomStringConvertible {
    /// The vinyl's name.
    package var vinylName: String
    /// Every track that was sent, in vinyl order.
    package var checked: [TrackDrift]
    /// Positions of tracks not sent because their method is unsafe (POST, PUT, PATCH, DELETE, …)
    /// and the check does not include unsafe methods.
    package var skipped: [Int]
    /// Positions of WebSocket conversation tracks, not sent: a drift check sends HTTP requests,
    /// and compares no conversation.
    package var skippedConversations: [Int] = []

    /// The tracks whose live response differs.
    package var drifted: [TrackDrift] { checked.filter(\.hasDrifted) }
    /// The tracks that got no live response.
    package var failed: [TrackDrift] { checked.filter { $0.error != nil } }
    /// Whether any track drifted or could not be checked.
    package var hasDrift: Bool { checked.contains { $0.hasDrifted || $0.error != nil } }
    /// Whether no track was sent: every one was skipped (an unsafe method, and the check does
    /// not include unsafe methods; a WebSocket conversation), or the vinyl has none. Nothing was compared, so no drift
    /// says nothing; `gramophone verify` exits 3 then.
    package var checkedNothing: Bool { checked.isEmpty }

    /// One line per track, its changes indented under it, then a summary line.
    package var description: String {
        var lines: [String] = []
        for index in skippedConversations { lines.append("track #\(index): skipped (a WebSocket conversation: verify checks HTTP exchanges only)") }
        for track in checked {
            let name = "track #\(track.index) \(track.request.method) \(track.request.url.absoluteString)"
            if let error = track.error {
                lines.append("\(name): not checked: \(error)")
            } else if track.changes.isEmpty {
                lines.append("\(name): ok")
            } else {
                lines.append("\(name): drifted")
                for change in track.changes {
                    lines.append("    " + change.description)
                    // What the server said, under its new status.
                    guard change.place == "status" else { continue }
                    lines.append("    live body: " + (track.liveBody.map { $0.replacingOccurrences(of: "\n", with: "\n    ") } ?? "shown with --values"))
                }
            }
            lines += track.echoes.map { "    left out (echoes a --header sent on every request): " + $0.description }
        }
        lines.append(summary)
        return lines.joined(separator: "\n")
    }

    /// `vinyl "users": 5 tracks checked, 2 drifted, 1 not reached, 1 skipped (unsafe method: …)`,
    /// or `vinyl "chat": nothing checked, 3 skipped (…)` when no track was sent. Each track is
    /// counted once: checked (a live response came), not reached, or skipped.
    package var summary: String {
        if checkedNothing, skipped.isEmpty, skippedConversations.isEmpty { return "vinyl \"\(vinylName)\": nothing checked (no tracks)" }
        var text = "vinyl \"\(vinylName)\": "
        let reached = checked.count - failed.count
        text += checkedNothing ? "nothing checked" : "\(reached) track\(reached == 1 ? "" : "s") checked, \(drifted.count) drifted"
        if !failed.isEmpty { text += ", \(failed.count) not reached" }
        if !skipped.isEmpty { text += ", \(skipped.count) skipped (unsafe method\(skipped.count == 1 ? "" : "s"): sent only with --include-unsafe)" }
        if !skippedConversations.isEmpty {
            let count = skippedConversations.count
            text += ", \(count) skipped (WebSocket conversation\(count == 1 ? "" : "s"): verify sends HTTP requests and checks no conversation)"
        }
        return text
    }

    /// `vinyl` with each drifted track replaced by its live exchange, redacted as a recording
    /// is; the other tracks are untouched.
    ///
    /// - Throws: `VinylError(.containsSecrets)` when a replaced track still holds what looks
    ///   like a secret (nothing should be written then), naming the track and the filter.
    package func updating(_ vinyl: Vinyl, file: String? = nil) throws -> Vinyl {
        var updated = vinyl
        for drift in drifted {
            guard let track = drift.liveTrack, updated.tracks.indices.contains(drift.index) else { continue }
            updated.tracks[drift.index] = track
            try updated.checkForSecrets(inTracks: drift.index..<(drift.index + 1), allowing: [], file: file)
        }
        return updated
    }

    /// What the redaction changed in the responses `updating(_:file:)` writes, counted per
    /// place as a recording's report counts it.
    package var redactedInUpdate: [RecordingReport.Redacted] {
        var places = RedactedPlaces()
        for drift in drifted where drift.liveTrack != nil { places.add(drift.redactedPlaces) }
        return places.counted
    }
}
