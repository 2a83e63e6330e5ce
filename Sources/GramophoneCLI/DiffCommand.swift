import Foundation
import Gramophone

/// `gramophone diff A B [--json]`: two recordings of one flow, what differs between their
/// requests, and the `matching:` line under which B's requests find A's tracks.
enum DiffCommand: Command {
    static let name = "diff"
    static let summary = "Compare the requests of two vinyls and suggest the matching rule"
    static let usage = """
        USAGE: gramophone diff A B [--json]

        Pairs the tracks of two recordings of the same flow (the k-th request for a method and
        URL path in B with the k-th in A), prints each request field that differs (query
        parameter, header, JSON path, form field, multipart part, GraphQL operation or
        variable; A's value first) and the `matching:` line that would make B's requests
        match A's tracks. A and B may be in any format Gramophone reads.

        OPTIONS:
          --json      Print one JSON object for tools:
                      {"a":…,"b":…,"identical":…,"pairs":[{"a":…,"b":…,"method":…,"url":…,
                       "differences":[{"kind":…,"name":…,"line":…}]}],"onlyInA":[…],"onlyInB":[…],
                       "matching":…,"unignorable":[…]}
          -h, --help  Show this help.

        EXIT CODES: 0 the requests are identical, 1 they differ or a file could not be read, 2 bad usage.
        """
    static let flags: Set<String> = ["json"]

    static func run(_ arguments: Arguments) throws(UsageError) -> ExitCode {
        guard arguments.positional.count == 2 else { throw UsageError("diff needs two files, A and B") }
        let (pathA, pathB) = (arguments.positional[0], arguments.positional[1])
        guard let a = FileInput.vinyl(pathA)?.0, let b = FileInput.vinyl(pathB)?.0 else { return .failure }
        let diff = RecordingDiff(a, b)
        Output.out(arguments.flags.contains("json") ? json(diff, pathA, pathB) : text(diff, a, b, pathA, pathB))
        return diff.isIdentical ? .success : .failure
    }

    static func text(_ diff: RecordingDiff, _ a: Vinyl, _ b: Vinyl, _ pathA: String, _ pathB: String) -> String {
        var lines = ["A: \(pathA) (\(a.tracks.count) tracks)", "B: \(pathB) (\(b.tracks.count) tracks)"]
        if diff.isIdentical {
            lines.append("identical: \(diff.pairedCount) track\(diff.pairedCount == 1 ? "" : "s") paired, no request field differs")
            return lines.joined(separator: "\n")
        }
        lines.append("\(diff.pairedCount) paired, \(diff.pairs.count) differ (A's value first):")
        for pair in diff.pairs {
            lines.append("  A #\(pair.a) / B #\(pair.b)  \(pair.method) \(pair.url)")
            for field in pair.fields { lines.append("    " + field.line) }
        }
        for index in diff.onlyInA { lines.append("  only in A: #\(index) \(a.tracks[index].request.method) \(a.tracks[index].request.url.absoluteString)") }
        for index in diff.onlyInB { lines.append("  only in B: #\(index) \(b.tracks[index].request.method) \(b.tracks[index].request.url.absoluteString)") }
        lines.append("matching: \(diff.matching)")
        let notEnough = diff.unignorable.count + diff.onlyInB.count
        if notEnough > 0 {
            lines.append("not enough: \(notEnough) difference\(notEnough == 1 ? "" : "s") no ignoring can remove (a different operation, body or request); re-record B's flow or add tracks")
        }
        return lines.joined(separator: "\n")
    }

    static func json(_ diff: RecordingDiff, _ pathA: String, _ pathB: String) -> String {
        let pairs: [[String: Any]] = diff.pairs.map { pair in
            [
                "a": pair.a, "b": pair.b, "method": pair.method, "url": pair.url,
                "differences": pair.fields.map { field -> [String: Any] in
                    ["kind": field.kind, "name": field.name.map { $0 as Any } ?? NSNull(), "line": field.line]
                },
            ]
        }
        let object: [String: Any] = [
            "a": pathA, "b": pathB, "identical": diff.isIdentical, "pairs": pairs,
            "onlyInA": diff.onlyInA, "onlyInB": diff.onlyInB, "matching": diff.matching, "unignorable": diff.unignorable,
        ]
        return Output.json(object)
    }
}
