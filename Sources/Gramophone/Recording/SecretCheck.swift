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
    static func containsSecrets(_ findings: [SecretFinding], first: SecretFinding, file: String?) -> VinylError {
        var fix =
            "Remove it with the redaction filter \(first.filter) (Recording(redaction: .default + …)), "
            + "or, if it is not a secret, keep it with Recording(…).allowing([\(first.location.code)])"
        // The others after the fix, one a line, so the first line reads on its own.
        let others = findings.dropFirst()
        for finding in others.prefix(20) {
            fix += "\n  also tracks[\(finding.trackIndex)].\(finding.place): \(finding.reason) (\(finding.preview)); remove with \(finding.filter)"
        }
        if others.count > 20 { fix += "\n  … and \(others.count - 20) more (gramophone scan lists them all)" }
        return VinylError(
            .containsSecrets, file: file, place: "tracks[\(first.trackIndex)].\(first.place)",
            problem: "\(first.reason) (\(first.preview)), so nothing was written", fix: fix)
    }
}
