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
    /// The vinyl's file: for a bundle, the source file it is copied from, not the built copy.
    public let file: URL

    /// Opens the vinyl `name` as `configuration` says; with no store configured, from the
    /// default folder: the `Vinyls` folder of the target `sourceFile` belongs to.
    ///
    /// A vinyl file that is missing and will not be recorded (on CI, with the record mode
    /// `never`) is not an error here: the Turntable answers its stubs, and each request that
    /// reaches the vinyl misses with the missing file's explanation, which `finish` reports.
    /// So a test that asks its vinyl for no track passes without a file.
    /// - Throws: `VinylError` when the vinyl cannot be read, or its name or store is invalid,
    ///   naming the file and the fix.
    public init(name: String, configuration: VinylConfiguration = VinylConfiguration(), sourceFile: StaticString = #filePath) throws {
        try self.init(name: name, configuration: configuration, sourcePath: "\(sourceFile)")
    }

    /// How a `.vinyl` test records what its vinyl lacks, for miss reports.
    static let traitRecordAdvice = "record it (run the test once with GRAMOPHONE_RECORD_MODE=new_episodes, or give it .vinyl(mode: .newEpisodes))"

    /// - Parameters:
    ///   - sourcePath: the test's source file, which places the default store and the source
    ///     folder of a bundle's vinyls.
    ///   - recordAdvice: how a miss says to record, in the spelling of the test's API.
    init(name: String, configuration: VinylConfiguration, sourcePath: String?, recordAdvice: String = traitRecordAdvice) throws {
        let store = configuration.store ?? .defaultFolder(nearPath: sourcePath)
        // No strategy named: the Turntable chooses by the vinyl (`.dvr` for a DVR cassette).
        let matching = configuration.matching
        let recording = configuration.resolvedRecording
        self.name = name
        do {
            turntable = try Turntable(vinylNamed: name, from: store, matching: matching, recording: recording, sourcePath: sourcePath)
        } catch let error as VinylError where error.kind == .notFound && error.file != nil {
            // A test that asks its vinyl for nothing (stubs only, its own Turntable) needs no
            // file: only a request that reaches the vinyl fails, saying why.
            turntable = Turntable(
                missingVinyl: error, named: name, matching: matching,
                advice:
                    "A test that asks its vinyl for no track does not need the file; to run this test without a vinyl, add .withoutVinyl to it (Swift Testing) or return false from shouldUseVinyl (VinylTestCase)"
            )
        }
        turntable.recordAdvice = recordAdvice
        // The file a person edits (a bundle's source file, not its built copy), where failures point.
        file = try turntable.sourceFile ?? store.file(for: name)
        self.configuration = VinylConfiguration(
            name: name, store: store, matching: matching, mode: turntable.playback.mode,
            redaction: recording.redaction, recording: recording,
            allTracksMustPlay: configuration.allTracksMustPlay ?? false, saveOnFailure: configuration.saveOnFailure ?? false)
    }

    /// Ends the test's use of the vinyl: saves what was recorded (`eject()`), then lists
    /// what went wrong: a failed save, every miss (also those the code under test
    /// swallowed), unplayed tracks when all must play. Calling it again saves nothing new.
    ///
    /// A failed test saves nothing unless `configuration.saveOnFailure` is true: the vinyl
    /// stays as it was, and a new one is not created. A test that threw, that the framework
    /// marked failed (`testFailed`), or whose vinyl missed a request has failed.
    ///
    /// - Parameters:
    ///   - thrown: the error the test ended with; a miss it carries is left out,
    ///     since the test framework reports that error already.
    ///   - testFailed: whether the test framework recorded a failure for the test.
    public func finish(thrown: (any Error)? = nil, testFailed: Bool = false) -> [VinylProblem] {
        finishReporting(thrown: thrown, testFailed: testFailed).problems
    }

    /// ``finish(thrown:testFailed:)``, with what `eject()` wrote (nil when it wrote nothing),
    /// which the Swift Testing trait attaches to the test.
    func finishReporting(thrown: (any Error)?, testFailed: Bool) -> (problems: [VinylProblem], written: RecordingReport?) {
        var problems: [VinylProblem] = []
        var written: RecordingReport?
        let failed = testFailed || thrown != nil || !turntable.playback.missReports.isEmpty
        if failed, configuration.saveOnFailure != true {
            let dropped = turntable.discardRecordings()
            if dropped > 0 {
                FileHandle.standardError.write(
                    Data("Gramophone: the test failed, so the \(dropped) track(s) it recorded were not written to \(file.path) (saveOnFailure: true keeps them)\n".utf8))
            }
        }
        do {
            written = try turntable.eject()
        } catch {
            problems.append(.notSaved(error, name: name))
        }
        let playback = turntable.playback
        var misses = playback.missReports
        let reported = (thrown as? TurntableError)?.missReport?.description
        if let index = misses.firstIndex(where: { $0.description == reported }) { misses.remove(at: index) }
        problems += misses.map(VinylProblem.miss)
        if configuration.allTracksMustPlay == true, !playback.allPlayed {
            problems.append(.unplayed(playback.unplayedTracks, unfinished: playback.unfinishedConversations, of: turntable.vinyl, file: file.path))
        }
        return (problems, written)
    }
}
