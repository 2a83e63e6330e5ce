import Gramophone

extension Turntable {
    /// The Turntable of the test running in this task: set by the `.vinyl` trait for the
    /// test's duration (and inherited by child tasks), nil outside such a test.
    ///
    /// ```swift
    /// @Test(.vinyl) func fetchesUser() async throws {
    ///     let client = UsersClient(session: try #require(Turntable.current))
    ///     …
    /// }
    /// ```
    ///
    /// A task-local, not a global: tests running in parallel each see their own.
    @TaskLocal public static var current: Turntable?
}
