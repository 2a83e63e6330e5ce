extension Turntable {
    /// Forgets what was recorded since the last write, so neither `eject()` nor the release
    /// writes it: the vinyl on disk stays as it was, and a new one is not created. The test
    /// helpers call it when a test failed, whose recording may be the failure's half-made
    /// traffic. Returns how many tracks were recorded and are now not going to be written.
    @discardableResult
    package func discardRecordings() -> Int {
        recorder?.discardUnwritten() ?? 0
    }
}
