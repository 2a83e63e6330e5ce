import Foundation
import Gramophone

/// `gramophone lint FILE…`: every problem in every file, each with its place.
enum LintCommand: Command {
    static let name = "lint"
    static let summary = "Check vinyl files and report every problem with its place"
    static let usage = """
        USAGE: gramophone lint FILE... [--quiet] [--max-age AGE] [--matching default|dvr]

        Reads each file in any format Gramophone reads and prints one line per problem on
        stdout: FILE: PLACE: PROBLEM. A file that does not read reports every track that does
        not (a syntax error is one problem: nothing after it can be read); a file that reads is
        checked for:
          - tracks no request can reach: under DVR's matching, an earlier copy of a request a
            later track also answers (otherwise identical requests are occurrences, replayed in turn)
          - bodies without a Content-Type
          - JSON content types whose body is not JSON
          - Content-Length that differs from the body, Content-Encoding (gzip, deflate, br…) on a decoded body
          - responses from another host than the request went to
          - bodies on 1xx, 204 and 304 responses
          - with --max-age, tracks recorded longer ago than AGE (tracks without a date are not judged)
        Files without problems print FILE: ok. A summary goes to stderr.

        OPTIONS:
          --quiet     Do not print FILE: ok lines.
          --max-age AGE  Report tracks older than AGE: a number and a unit, d (days) or h (hours), e.g. 90d.
          --matching STRATEGY  How the files are replayed: default (the default strategy, play-once or
                      in-order: each repeat of a request plays its next recorded occurrence) or dvr
                      (the last agreeing track answers). Without it, dvr for DVR cassettes, default otherwise.
          -h, --help  Show this help.

        EXIT CODES: 0 no problems, 1 a problem in some file (or a file unreadable), 2 bad usage.
        """
    static let flags: Set<String> = ["quiet"]
    static let options: Set<String> = ["max-age", "matching"]
    static let operand: String? = "FILE"

    static func run(_ arguments: Arguments) throws(UsageError) -> ExitCode {
        let maxAge = try arguments.options["max-age"].map { text throws(UsageError) in
            guard let age = parseAge(text) else { throw UsageError("--max-age needs a number and a unit, d (days) or h (hours), such as 90d or 36h; got '\(text)'") }
            return (seconds: age, text: text)
        }
        let replay = try arguments.options["matching"].map { text throws(UsageError) in
            guard let chosen = VinylLint.Replay(rawValue: text) else { throw UsageError("--matching is default or dvr; got '\(text)'") }
            return chosen
        }
        var total = 0
        var filesWithProblems = 0
        for path in arguments.positional {
            let problems = check(path, maxAge: maxAge, replay: replay)
            if problems.isEmpty {
                if !arguments.flags.contains("quiet") { Output.out("\(path): ok") }
                continue
            }
            filesWithProblems += 1
            total += problems.count
            for problem in problems { Output.out(problem) }
        }
        let files = arguments.positional.count
        if total == 0 {
            Output.err("\(files) file\(files == 1 ? "" : "s") checked, no problems")
            return .success
        }
        Output.err("\(total) problem\(total == 1 ? "" : "s") in \(filesWithProblems) of \(files) file\(files == 1 ? "" : "s")")
        return .failure
    }

    /// The problem lines for one file.
    static func check(_ path: String, maxAge: (seconds: TimeInterval, text: String)? = nil, replay: VinylLint.Replay? = nil) -> [String] {
        // Set once the file reads and its format is known: a vinyl error after that is structural.
        var read: (data: Data, format: VinylFormat, name: String)?
        do {
            let (data, format, name) = try FileInput.detect(path)
            read = (data, format, name)
            let vinyl = try Vinyl(data: data, name: name, format: format, file: path)
            var problems = VinylLint.problems(in: vinyl, format: format, replay: replay)
            if let maxAge { problems += VinylLint.agedTracks(in: vinyl, format: format, maxAge: maxAge.seconds, written: maxAge.text, now: Date()) }
            return problems.map { "\(path): \($0.place): \($0.message)" }
        } catch let error as VinylError {
            guard let read else { return [error.description] }
            return StructuralErrors.all(startingWith: error, in: read.data, name: read.name, format: read.format, file: path).map(\.description)
        } catch {
            return ["\(path): \(error)"]
        }
    }

    /// `90d` or `36h` in seconds; nil for anything else.
    static func parseAge(_ text: String) -> TimeInterval? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard let unit = trimmed.last, let number = Double(trimmed.dropLast()), number.isFinite, number >= 0 else { return nil }
        switch unit {
        case "d": return number * 86_400
        case "h": return number * 3_600
        default: return nil
        }
    }
}
