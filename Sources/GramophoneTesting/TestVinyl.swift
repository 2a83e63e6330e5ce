import Foundation
import Gramophone

/// One test's vinyl: a Turntable opened before the test, checked and saved after it.
///
/// The Swift Testing trait and `VinylTestCase` are both built on this; use it directly to
/// give another test framework the same behaviour.
public struct TestVinyl: Sendable {
    /// The vinyl's name, e.g. `UsersTests/fetchesUser`.
    public let name: String
    /// The configuration it was opened with, defaults filled in.
    public let configuration: VinylConfiguration
    /// The Turntable to hand to the code under test.
    public let turntable: Turntable
    /// The vinyl's file.
    public let file: URL

    /// Opens the vinyl `name` as `configuration` says; with no store configured, from the
    /// `Vinyls` folder of the package `sourceFile` belongs to.
    /// - Throws: `VinylError` when the vinyl cannot be found or read, naming the file and the fix.
    public init(name: String, configuration: VinylConfiguration = VinylConfiguration(), sourceFile: StaticString = #filePath) throws {
        try self.init(name: name, configuration: configuration, sourcePath: "\(sourceFile)")
    }

    /// - Parameter sourcePath: the test's source file, where the default store is looked for
    ///   (nil: the current directory).
    init(name: String, configuration: VinylConfiguration, sourcePath: String?) throws {
        let store = configuration.store ?? .defaultFolder(nearPath: sourcePath)
        let matching = configuration.matching ?? .default
        let recording = configuration.resolvedRecording
        self.name = name
        file = try store.file(for: name)
        turntable = try Turntable(vinylNamed: name, from: store, matching: matching, recording: recording)
        self.configuration = VinylConfiguration(
            name: name, store: store, matching: matching, record: turntable.playback.mode,
            redaction: recording.redaction, recording: recording,
            allTracksMustPlay: configuration.allTracksMustPlay ?? false)
    }

    /// Ends the test's use of the vinyl: saves what was recorded (`eject()`), then lists
    /// what went wrong: a failed save, every miss (also those the code under test
    /// swallowed), unplayed tracks when all must play. Calling it again saves nothing new.
    ///
    /// - Parameter thrown: the error the test ended with; a miss it carries is left out,
    ///   since the test framework reports that error already.
    public func finish(thrown: (any Error)? = nil) -> [VinylProblem] {
        var problems: [VinylProblem] = []
        do {
            try turntable.eject()
        } catch {
            problems.append(.notSaved(error, name: name))
        }
        let reported = (thrown as? TurntableError)?.missReport?.description
        var skippedReported = false
        let playback = turntable.playback
        for report in playback.missReports {
            if !skippedReported, report.description == reported {
                skippedReported = true
                continue
            }
            problems.append(.miss(report))
        }
        if configuration.allTracksMustPlay == true, !playback.allPlayed {
            problems.append(.unplayed(playback.unplayedTracks, of: turntable.vinyl, file: file.path))
        }
        return problems
    }
}
