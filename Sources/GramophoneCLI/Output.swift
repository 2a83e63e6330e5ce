import Foundation

/// Where the CLI writes: data to stdout, diagnostics to stderr.
enum Output {
    static func out(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func err(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// `object` as one line of JSON for tools: sorted keys, slashes unescaped.
    static func json(_ object: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

/// A mistake on the command line, said in a sentence; the command's usage follows it.
struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Exit codes, as documented in `gramophone --help`.
enum ExitCode: Int32 {
    case success = 0
    /// The input was bad: a malformed file, a lint problem, a secret found.
    case failure = 1
    /// The command line was wrong.
    case usage = 2
    /// `verify` sent nothing for a vinyl (every track skipped, or none): not a pass.
    case nothingChecked = 3
}

/// A command the CLI runs.
protocol Command: Sendable {
    static var name: String { get }
    static var summary: String { get }
    static var usage: String { get }
    static var flags: Set<String> { get }
    static var options: Set<String> { get }
    /// What the command takes one or more of (`FILE`), checked before `run`; nil when `run`
    /// checks its positional arguments itself.
    static var operand: String? { get }
    /// Runs the command. Throws a `UsageError` for a command line it cannot run: the error and
    /// the command's usage go to stderr, and the CLI exits 2.
    static func run(_ arguments: Arguments) async throws(UsageError) -> ExitCode
}

/// What most commands take: no flags or options but `--help`, and their own positional arguments.
extension Command {
    static var flags: Set<String> { [] }
    static var options: Set<String> { [] }
    static var operand: String? { nil }
}
