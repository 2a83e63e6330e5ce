import Gramophone

extension Turntable {
    /// The Turntable of the test running in this task: set by the `.vinyl` trait for the
    /// test's duration (and inherited by child tasks), nil outside such a test. Tests use
    /// ``requireCurrent()``, which says what is missing when it is nil.
    ///
    /// A task-local, not a global: tests running in parallel each see their own.
    @TaskLocal public static var current: Turntable?

    /// The Turntable of the test running in this task (``current``), or an error saying to add
    /// the `.vinyl` trait when the test has none.
    ///
    /// ```swift
    /// @Test(.vinyl) func fetchesUser() async throws {
    ///     let client = UsersClient(session: try Turntable.requireCurrent())
    ///     …
    /// }
    /// ```
    ///
    /// - Throws: `VinylError` (kind `.notFound`) when no `.vinyl` trait gave this task a Turntable.
    public static func requireCurrent() throws -> Turntable {
        guard let current else {
            throw VinylError(
                .notFound, file: nil,
                problem: "this test has no vinyl: Turntable.current is nil",
                fix: "Add .vinyl to the suite or the test: @Suite(.vinyl) struct …, or @Test(.vinyl) func …")
        }
        return current
    }
}
