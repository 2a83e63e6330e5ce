import Foundation
import Gramophone

/// `gramophone verify VINYL…`: sends the recorded requests to the live API and reports, per
/// track, how the responses drifted from the recording, by shape.
enum VerifyCommand: Command {
    static let name = "verify"
    static let summary = "Check vinyls against the live API: what drifted since recording"
    static let usage = """
        USAGE: gramophone verify VINYL... [--base-url URL] [--header 'Name: value'] [--env NAME[=VARIABLE]]
                                          [--placeholders FILE] [--update] [--json] [--include-unsafe] [--values]

        Sends each recorded request to its server (or to --base-url), one at a time, and compares
        each response with its track by shape: status, content type, the headers that change a
        client's behaviour (Content-Type, Cache-Control, Location, ETag, …: present or not), the
        JSON structure (keys added and removed, a value's kind changed, array elements' shape;
        a null fits any kind), and for event streams the event names and their data's shape.
        Values are compared only with --values. Prints one line per track, and under a drifted
        one what changed, in the terms a miss report uses:
            body.items[].price: number → string
            body.user.nickname: removed
            status: 200 → 410
        then a summary. Requests with an unsafe method (POST, PUT, PATCH, DELETE, …) are skipped
        unless --include-unsafe; the summary counts them. A vinyl of which nothing was sent
        (only unsafe methods, or no tracks) was not checked: verify says so and exits 3.
        Under a status drift, --values shows the live body (redacted), so a 200 → 400 shows
        what the server said. A streamed track (read as it arrived when recorded) is read the
        same way, piece by piece, until it ends or reaches the limit its recording stopped at.

        Redacted values are filled in for the request only and never written anywhere: --header
        sets a header on every request, --env and --placeholders fill query parameters, form
        fields and JSON members of a name (a credential header name, such as Authorization or
        X-Api-Key, is set as a header). What is sent on every request is not drift: a change
        in the body at a place named after such a header (an endpoint echoing the request's
        headers, body.headers.X-Tenant) is left out of the comparison and listed as left out,
        and the filled values are scrubbed from the live response before it is compared.

        OPTIONS:
          --base-url URL         Send to URL's scheme, host and port instead of the recorded
                                 ones; a path in URL goes before the recorded path.
          --header 'Name: value' Set this header on every request (repeatable).
          --env NAME[=VARIABLE]  Fill the places named NAME with the environment variable
                                 VARIABLE (NAME when left out) (repeatable).
          --placeholders FILE    A JSON object of names and values to fill, as --env.
          --update               Re-record the drifted tracks: redacted as a recording is (the
                                 report on stderr says what was redacted), checked for secrets,
                                 written atomically in the vinyl's format; a streamed track
                                 keeps its chunks, their timing and how it ended. The other
                                 tracks stay as they are.
          --json                 Print one JSON object for tools:
                                 {"vinyls":[{"file":…,"name":…,"updated":…,"checkedNothing":…,
                                  "skipped":[…],"skippedConversations":[…],"tracks":[{"index":…,"method":…,"url":…,
                                   "drifted":…,"error":…,"liveBody":…,"changes":[{"place":…,
                                   "recorded":…,"live":…,"line":…}],"echoes":[…]}]}],
                                  "checked":…,"drifted":…,"failed":…,"skipped":…}
          --include-unsafe       Also send POST, PUT, PATCH and DELETE requests.
                                 WebSocket conversations are never sent: they are listed as
                                 skipped (verify checks HTTP exchanges only).
          --values               Also compare values: JSON scalars, those headers' values, bytes.
          -h, --help             Show this help.

        EXIT CODES: 0 every vinyl checked and nothing drifted, 1 a track drifted (even when
        --update re-recorded it), a server could not be reached or a vinyl could not be read or
        written, 2 bad usage, 3 nothing checked in a vinyl (every track skipped as unsafe: add
        --include-unsafe; or no tracks) and nothing drifted.
        """
    static let flags: Set<String> = ["update", "json", "include-unsafe", "values"]
    static let options: Set<String> = ["base-url", "header", "env", "placeholders"]
    static let operand: String? = "VINYL"

    static func run(_ arguments: Arguments) async throws(UsageError) -> ExitCode {
        let check = try makeCheck(arguments)
        let json = arguments.flags.contains("json"), update = arguments.flags.contains("update")
        var results: [[String: Any]] = []
        var failed = false
        var uncheckedVinyl = false
        var totals = (checked: 0, drifted: 0, failed: 0, skipped: 0)
        for path in arguments.positional {
            guard case let (vinyl, format)? = FileInput.vinyl(path) else {
                failed = true
                continue
            }
            let report = await vinyl.verify(against: check)
            // Each track counted once: a track not reached is not also checked.
            totals.checked += report.checked.count - report.failed.count
            totals.drifted += report.drifted.count
            totals.failed += report.failed.count
            totals.skipped += report.skipped.count + report.skippedConversations.count
            if report.hasDrift { failed = true }
            if report.checkedNothing {
                uncheckedVinyl = true
                let why =
                    !report.skipped.isEmpty
                    ? unsafeNote(report, of: vinyl)
                    : report.skippedConversations.isEmpty ? "it has no tracks" : "it holds only WebSocket conversations, which verify does not check"
                Output.err("\(path): nothing checked: " + why)
            }
            var updated = false
            if update, !report.drifted.isEmpty {
                updated = write(report, of: vinyl, format: format, to: path)
                if !updated { failed = true }
            }
            if json {
                results.append(object(report, file: path, updated: updated))
            } else {
                Output.out("\(path):\n" + report.description.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
            }
        }
        if json {
            Output.out(
                Output.json(["vinyls": results, "checked": totals.checked, "drifted": totals.drifted, "failed": totals.failed, "skipped": totals.skipped]))
        }
        return failed ? .failure : uncheckedVinyl ? .nothingChecked : .success
    }

    /// `3 tracks skipped (unsafe methods: POST ×3); --include-unsafe sends them (they may …)`.
    private static func unsafeNote(_ report: DriftReport, of vinyl: Vinyl) -> String {
        let methods = Dictionary(report.skipped.filter(vinyl.tracks.indices.contains).map { (vinyl.tracks[$0].request.method, 1) }, uniquingKeysWith: +)
        let counted = methods.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", ")
        let count = report.skipped.count
        return "\(count) track\(count == 1 ? "" : "s") skipped (unsafe method\(count == 1 ? "" : "s"): \(counted)); "
            + "--include-unsafe sends \(count == 1 ? "it (it" : "them (they") may change data on the server)"
    }

    /// Writes the vinyl with its drifted tracks re-recorded; false (and a message) when it cannot be.
    private static func write(_ report: DriftReport, of vinyl: Vinyl, format: VinylFormat, to path: String) -> Bool {
        guard format.isWritable else {
            Output.err("error: \(path) is a \(format) file, which Gramophone reads but does not write; convert it first (gramophone convert \(path) OUT.json)")
            return false
        }
        do {
            let updated = try report.updating(vinyl, file: path)
            try updated.write(to: URL(fileURLWithPath: path), format: format)
            let count = report.drifted.filter { $0.liveTrack != nil }.count
            // As a recording's report: what the redaction took out of what was written.
            let redacted = report.redactedInUpdate
            Output.err(
                "updated \(path): \(count) drifted track\(count == 1 ? "" : "s") re-recorded, \(vinyl.tracks.count - count) untouched"
                    + (redacted.isEmpty ? "; nothing redacted" : "\n  redacted: " + redacted.map(\.description).joined(separator: ", ")))
            return true
        } catch {
            Output.err("error: \(path) was not updated: \(error)")
            return false
        }
    }

    private static func object(_ report: DriftReport, file: String, updated: Bool) -> [String: Any] {
        let change = { (change: DriftChange) -> [String: Any] in
            [
                "place": change.place, "recorded": change.recorded.map { $0 as Any } ?? NSNull(),
                "live": change.live.map { $0 as Any } ?? NSNull(), "line": change.description,
            ]
        }
        let tracks: [[String: Any]] = report.checked.map { track in
            [
                "index": track.index, "method": track.request.method, "url": track.request.url.absoluteString,
                "drifted": track.hasDrifted, "error": track.error.map { $0 as Any } ?? NSNull(),
                "liveBody": track.liveBody.map { $0 as Any } ?? NSNull(),
                "changes": track.changes.map(change), "echoes": track.echoes.map(change),
            ]
        }
        return [
            "file": file, "name": report.vinylName, "updated": updated, "checkedNothing": report.checkedNothing, "skipped": report.skipped,
            "skippedConversations": report.skippedConversations,
            "tracks": tracks,
        ]
    }

    /// The check the options describe; a usage error for a malformed one.
    static func makeCheck(_ arguments: Arguments, environment: [String: String] = ProcessInfo.processInfo.environment) throws(UsageError) -> DriftCheck {
        var check = DriftCheck(comparesValues: arguments.flags.contains("values"), includesUnsafe: arguments.flags.contains("include-unsafe"))
        if let text = arguments.options["base-url"] {
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil else {
                throw UsageError("--base-url needs an http or https URL with a host, such as https://staging.example.com; got '\(text)'")
            }
            check.baseURL = url
        }
        for line in arguments.allOptions["header"] ?? [] {
            guard let colon = line.firstIndex(of: ":"), !line[..<colon].trimmingCharacters(in: .whitespaces).isEmpty else {
                throw UsageError("--header needs 'Name: value', got '\(line)'")
            }
            check.headers[line[..<colon].trimmingCharacters(in: .whitespaces)] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        if let path = arguments.options["placeholders"] {
            guard let data = try? FileInput.read(path), let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw UsageError("--placeholders needs a readable JSON file holding one object of names and string values, such as {\"access_token\": \"…\"}: \(path)")
            }
            for (name, value) in object {
                guard let value = value as? String else {
                    throw UsageError("--placeholders: the value of '\(name)' in \(path) is not a string")
                }
                check.placeholders[name] = value
            }
        }
        for spec in arguments.allOptions["env"] ?? [] {
            let parts = spec.split(separator: "=", maxSplits: 1).map(String.init)
            guard let name = parts.first, !name.isEmpty else { throw UsageError("--env needs NAME or NAME=VARIABLE") }
            let variable = parts.count == 2 ? parts[1] : name
            guard let value = environment[variable] else {
                throw UsageError("--env \(spec): the environment variable \(variable) is not set")
            }
            check.placeholders[name] = value
        }
        return check
    }
}
