import Foundation
import Gramophone

/// `gramophone scan FILE…`: fails when vinyls hold what looks like a credential, so CI can
/// stop a secret before it is committed.
enum ScanCommand: Command {
    static let name = "scan"
    static let summary = "Find likely secrets left in vinyl files"
    static let usage = """
        USAGE: gramophone scan FILE...

        Looks in every track for credentials: Authorization, Cookie and API-key headers,
        secret-named query parameters, JSON keys and form fields (password, token, secret,
        api_key, access_token, …), passwords in URLs, bearer tokens, JWTs and well-known key
        formats. A WebSocket conversation's message payloads are looked at as bodies are.
        Redaction placeholders such as REDACTED do not count.
        Prints one line per finding: FILE: track #N (METHOD URL): PLACE: why (masked value),
        and a summary on stderr. PLACE names the part of the track, as an error of the
        recorder does: request.headers "Authorization", response.body JSON "user.password",
        or for a WebSocket message, numbered as the file's webSocket.messages (and as
        `gramophone inspect --messages` lists them):
        response.webSocket.messages[3] (received) JSON "token".

        OPTIONS:
          -h, --help  Show this help.

        EXIT CODES: 0 nothing found, 1 secrets found or a file could not be read, 2 bad usage.
        """
    static let operand: String? = "FILE"

    static func run(_ arguments: Arguments) -> ExitCode {
        var found = 0
        var unreadable = 0
        for path in arguments.positional {
            let vinyl: Vinyl
            do {
                vinyl = try Vinyl(contentsOf: URL(fileURLWithPath: path))
            } catch {
                Output.err("error: \(error)")
                unreadable += 1
                continue
            }
            for finding in vinyl.likelySecrets() {
                let request = vinyl.tracks[finding.trackIndex].request
                // The URL itself may hold the secret: show it without its query.
                var shownURL = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
                shownURL?.query = nil
                shownURL?.password = nil
                Output.out("\(path): track #\(finding.trackIndex) (\(request.method) \(shownURL?.string ?? request.url.path)): \(finding.place): \(finding.reason) (\(finding.preview))")
                found += 1
            }
        }
        let files = arguments.positional.count - unreadable
        if found > 0 {
            Output.err("\(found) likely secret\(found == 1 ? "" : "s") found. Redact them (see the article \"Recording and redaction\" in Gramophone's documentation) or record the vinyls again.")
        } else if files > 0 {
            Output.err("\(files) file\(files == 1 ? "" : "s") scanned, no likely secrets")
        }
        return found > 0 || unreadable > 0 ? .failure : .success
    }
}
