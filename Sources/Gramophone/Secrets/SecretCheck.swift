/// The check before a vinyl is written: the recorder and `gramophone convert` refuse to write
/// what `gramophone scan` would flag.
extension Vinyl {
    /// The vinyl as a recording would write it: every track redacted (by the default unless
    /// told otherwise), then checked for what still looks like a secret. What
    /// `gramophone convert` writes; `redactedForWriting(by: .none)` only checks.
    ///
    /// - Parameters:
    ///   - redaction: applied to every track first.
    ///   - allowed: places known to hold no secret (see `Recording.allowing(_:)`).
    ///   - file: the file about to be written, for the message.
    /// - Throws: `VinylError(.containsSecrets)` naming the track, the place and the filter that
    ///   would take it out.
    package func redactedForWriting(by redaction: Redaction = .default, allowing allowed: [SecretPlace] = [], file: String? = nil) throws -> Vinyl {
        var copy = self
        copy.tracks = tracks.map { redaction.redact($0, allowing: allowed) }
        try copy.checkForSecrets(inTracks: copy.tracks.indices, allowing: allowed, file: file)
        return copy
    }

    /// Throws `VinylError(.containsSecrets)` when a track in `range` still holds something
    /// that looks like a secret outside the `allowed` places.
    func checkForSecrets(inTracks range: Range<Int>, allowing allowed: [SecretPlace], file: String?) throws {
        let findings = likelySecrets(inTracks: range, allowing: allowed)
        guard let first = findings.first else { return }
        throw VinylError.containsSecrets(findings, first: first, file: file)
    }
}

extension VinylError {
    /// How many findings the message lists one a line; the `allowing` line covers them all.
    static let listedFindingLimit = 50

    /// The refusal: every finding at once, each with the filter that would take it out, and
    /// the one `allowing` line that keeps them all, so one run tells everything to decide.
    static func containsSecrets(_ findings: [SecretFinding], first: SecretFinding, file: String?) -> VinylError {
        let keepAll = "Recording(…).allowing([" + SecretPlace.covering(findings.map(\.location)).map(\.code).joined(separator: ", ") + "])"
        let others = findings.count - 1
        var problem = "\(first.reason) (\(first.preview))"
        var fix = "Remove it with the redaction filter \(first.filter) (Recording(redaction: .default + …)), or, if it is not a secret, keep it with \(keepAll)"
        if others > 0 {
            problem += ", and \(others) more place\(others == 1 ? "" : "s") below"
            // The decision first, so it reads on its own; then every place, one a line.
            fix =
                "Remove each with the redaction filter named below (Recording(redaction: .default + …)), "
                + "or, if none is a secret, keep them all with \(keepAll)"
            for finding in findings.prefix(listedFindingLimit) {
                fix += "\n  tracks[\(finding.trackIndex)].\(finding.place): \(finding.reason) (\(finding.preview)); remove with \(finding.filter)"
            }
            if findings.count > listedFindingLimit {
                fix += "\n  … and \(findings.count - listedFindingLimit) more (gramophone scan lists them all; the allowing line above covers them)"
            }
        }
        return VinylError(.containsSecrets, file: file, place: "tracks[\(first.trackIndex)].\(first.place)", problem: problem + ", so nothing was written", fix: fix)
    }
}
