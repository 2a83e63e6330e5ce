import Foundation

extension Recorder {
    /// What a Turntable says, once per vinyl and process, when a new vinyl sends its first
    /// request to the real network: a misspelt name starts a new vinyl too. A test that asks its
    /// new vinyl for nothing (stubs only) says nothing.
    var newVinylNotice: String {
        "Gramophone: starting a new vinyl \"\(vinylName)\" at \(file.path) (record mode \(mode)): there is no such file, "
            + "so requests no track answers go to the real network and are recorded into it. " + VinylNames.hint(for: vinylName, nearest: nearestNames)
    }
}

extension Turntable {
    /// The new vinyls already announced in this process: the other cases of a parameterized
    /// test, which share the vinyl, say nothing more.
    private static let announcedNewVinyls = Locked(Set<String>())

    /// True the first time it is asked for `file` in this process.
    static func claimNewVinylNotice(_ file: URL) -> Bool {
        announcedNewVinyls.withLock { $0.insert(file.standardizedFileURL.path).inserted }
    }
}
