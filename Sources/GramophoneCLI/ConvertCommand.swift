import Foundation
import Gramophone

/// `gramophone convert IN OUT [--to FORMAT] [--from FORMAT] [--keep-secrets]`: one vinyl
/// format to another, redacted as a recording would be: a HAR exported from a browser or a
/// proxy carries session cookies and bearer tokens.
enum ConvertCommand: Command {
    static let name = "convert"
    static let summary = "Convert a vinyl between formats (JSON, plist, DVR, HAR)"
    static let usage = """
        USAGE: gramophone convert IN OUT [--to FORMAT] [--from FORMAT] [--keep-secrets]

        Reads IN in any format Gramophone reads and writes OUT in a writable one. The input
        format comes from IN's extension and content; the output format from --to, else from
        OUT's extension (.json: Gramophone JSON, .plist: plist vinyl, .har: HAR).
        OUT may be - to write to stdout (then the format defaults to Gramophone JSON).
        OUT is written atomically: a failed conversion leaves an existing file untouched.

        What is written is redacted as a recording is (Redaction.default): credential headers
        (Authorization, Cookie, Set-Cookie, API-key headers) are removed, secret-named query
        parameters, form fields and JSON keys (access_token, password, client_secret,
        X-Amz-Signature, …) are replaced, and those values scrubbed from the rest of the
        track. Then it is checked as `gramophone scan` would: if anything still looks like a
        secret, nothing is written and the error names the track, the place and a filter.
        What was redacted is reported on stderr, as a recording reports it (stdout stays the
        vinyl's when OUT is -):
            converted capture.har → users.json (gramophone, 3 tracks)
              redacted: request.headers "Authorization" ×3, response.headers "Set-Cookie" ×1

        FORMATS:
          gramophone (or json)  Gramophone's JSON vinyl              read, write
          plist                 the same structure as a property list read, write
          dvr                   DVR cassette                          read, write
          har                   HTTP Archive 1.2                      read, write
          vcr                   VCR.py / Ruby VCR JSON cassette       read

        OPTIONS:
          --to FORMAT    Output format.
          --from FORMAT  Input format, when detection guesses wrong.
          --keep-secrets Write every header and value as read: no redaction, no check (the
                         report says nothing was redacted).
          -h, --help     Show this help.

        EXIT CODES: 0 converted, 1 IN could not be read, OUT not written or still holding a secret, 2 bad usage.
        """
    static let flags: Set<String> = ["keep-secrets"]
    static let options: Set<String> = ["to", "from"]

    static func run(_ arguments: Arguments) throws(UsageError) -> ExitCode {
        guard arguments.positional.count == 2 else {
            throw UsageError("convert needs IN and OUT, got \(arguments.positional.count) argument\(arguments.positional.count == 1 ? "" : "s")")
        }
        let input = arguments.positional[0], output = arguments.positional[1]
        var inputFormat: VinylFormat?
        if let name = arguments.options["from"] {
            guard let format = VinylFormat(name: name) else {
                Output.err("error: unknown format '\(name)' for --from. Supported formats: \(VinylFormat.supportedList)")
                return .usage
            }
            inputFormat = format
        }
        let outputFormat = try chooseOutputFormat(option: arguments.options["to"], output: output)
        do {
            var vinyl = try Vinyl(contentsOf: URL(fileURLWithPath: input), format: inputFormat)
            // nil: --keep-secrets, nothing was redacted.
            var redacted: [RecordingReport.Redacted]?
            if !arguments.flags.contains("keep-secrets") {
                (vinyl, redacted) = try vinyl.redactedForWritingCounted(file: output == "-" ? nil : output)
            }
            if output == "-" {
                FileHandle.standardOutput.write(try vinyl.encoded(as: outputFormat))
            } else {
                try vinyl.write(to: URL(fileURLWithPath: output), format: outputFormat)
            }
            // On stderr, as a recording's report: stdout may be the vinyl itself.
            var report = "converted \(input) → \(output == "-" ? "stdout" : output) (\(outputFormat), \(vinyl.tracks.count) track\(vinyl.tracks.count == 1 ? "" : "s"))"
            if let redacted, !redacted.isEmpty {
                report += "\n  redacted: " + redacted.map(\.description).joined(separator: ", ")
                report += "\n  (--keep-secrets writes every header and value as read)"
            } else {
                report += redacted == nil ? "; nothing redacted (--keep-secrets)" : "; nothing redacted"
            }
            Output.err(report)
            return .success
        } catch let error as VinylError where error.kind == .containsSecrets {
            Output.err("error: \(error)\nOr, to write it as read, convert again with --keep-secrets.")
            return .failure
        } catch {
            Output.err("error: \(error)")
            return .failure
        }
    }

    static func chooseOutputFormat(option: String?, output: String) throws(UsageError) -> VinylFormat {
        let writable = VinylFormat.allCases.filter(\.isWritable).map(\.description).joined(separator: ", ")
        if let option {
            guard let format = VinylFormat(name: option) else {
                throw UsageError("unknown format '\(option)' for --to. Writable formats: \(writable)")
            }
            guard format.isWritable else {
                throw UsageError("\(format) is read, not written. Writable formats: \(writable)")
            }
            return format
        }
        if output == "-" { return .gramophone }
        switch URL(fileURLWithPath: output).pathExtension.lowercased() {
        case "json": return .gramophone
        case "plist": return .plist
        case "har": return .har
        case let other:
            throw UsageError("cannot tell the output format from \(other.isEmpty ? "a name without extension" : "the extension .\(other)"); use --to FORMAT (\(writable))")
        }
    }
}
