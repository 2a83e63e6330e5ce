import Foundation

extension Recording {
    /// The files a recording Turntable of the vinyl `name` uses: `played`, the file it plays,
    /// and `written`, the file its recordings go to: `destination` when set, else the played
    /// file (for a bundle, the source file the bundle copies: recording never writes a build
    /// product).
    ///
    /// `refusal` is set for a bundle whose vinyl exists but whose source folder is missing
    /// and no `destination` is named: the Turntable replays the vinyl, and refuses to record
    /// (a miss's report says why and where it would write) rather than refusing to replay.
    func files(for name: String, in store: VinylStore, mode: RecordMode, sourcePath: String?) throws -> (
        played: URL, written: URL, refusal: VinylError?
    ) {
        if let destination {
            return (try store.file(for: name), destination, nil)
        }
        if mode == .never {
            let file = try store.file(for: name)
            return (file, file, nil)
        }
        do {
            let file = try store.recordingFile(for: name, sourceFile: sourcePath)
            return (file, file, nil)
        } catch let error as VinylError where error.kind == .unwritable && store.isBundle {
            // Something to record already (the vinyl is missing): refuse now, naming where.
            guard let played = try? store.file(for: name), FileManager.default.fileExists(atPath: played.path) else { throw error }
            return (played, played, error)
        }
    }

    /// For a recording into `file`: the tracks its saves start from knowing (`known`: the
    /// file's, or with `distinct` false the played ones) and the played tracks still to be
    /// copied into a distinct destination (`copied`: those whose request the destination does
    /// not already hold a track for). With `.all` nothing is copied: the recording replaces.
    static func destinationTracks(played: [Track], file: URL, distinct: Bool, mode: RecordMode, replaced: [Track]) -> (
        known: [Track], copied: [Track]
    ) {
        guard distinct else { return (mode == .all ? replaced : played, []) }
        let held = FileManager.default.fileExists(atPath: file.path) ? ((try? Vinyl(contentsOf: file))?.tracks ?? []) : []
        guard mode != .all else { return (held, []) }
        var heldRequests = Multiset(held.map(\.request))
        return (held, played.filter { !heldRequests.remove($0.request) })
    }
}
