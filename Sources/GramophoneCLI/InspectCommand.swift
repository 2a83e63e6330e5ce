import Foundation
import Gramophone

/// `gramophone inspect FILE… [--json] [--messages]`: what a vinyl holds.
enum InspectCommand: Command {
    static let name = "inspect"
    static let summary = "List the tracks of vinyl files"
    static let usage = """
        USAGE: gramophone inspect FILE... [--json] [--messages]

        Lists each track: method, URL, status (or error), and the response body's size and kind.
        A WebSocket track says what its conversation was in its kind column:
            websocket: 12 messages (5 sent, 7 received) over 480 ms, closed by the server with 1000
        and with --messages lists every message under it, numbered as the file's
        webSocket.messages (and as `gramophone scan` names them): direction, kind, size, time
        after the connection opened, and a preview (a text's first 60 characters, a binary
        frame's first 16 bytes in hex), then how the conversation ended:
                [0]  received  text   7 B     0 ms  welcome
                [1]  sent      text  20 B  12.5 ms  {"id":1,"op":"join"}
                end: closed by the server with 4001 (room closed) at 50 ms
        FILE may be in any format Gramophone reads (Gramophone JSON or plist, DVR, HAR, VCR),
        or a folder: a folder of Mocktail .tail files is listed as Mocktail stubs, any other
        folder by the vinyl files in it and its subfolders (.json, .plist, .har, .yml, .yaml).

        OPTIONS:
          --json      Print one JSON object per file for scripts:
                      {"name":…,"file":…,"format":…,"tracks":[{"method":…,"url":…,"status":…,"bodyBytes":…,"bodyKind":…}]}
                      A WebSocket track adds "webSocket", with every message (--messages or not):
                      {"summary":…,"sent":…,"received":…,"endOffsetMs":…,"end":…,
                       "messages":[{"index":…,"direction":…,"kind":…,"bytes":…,"offsetMs":…,"preview":…}]}
                      "end" as the vinyl format writes it: {"closedBy":…,"code":…,"reason":…},
                      "cancelled", {"stoppedBy":…}, {"leftOpen":…} or
                      {"error":{"domain":…,"code":…}}.
          --messages  List each WebSocket conversation's messages under its track.
          -h, --help  Show this help.

        EXIT CODES: 0 success, 1 a file could not be read, 2 bad usage.
        """
    static let flags: Set<String> = ["json", "messages"]
    static let operand: String? = "FILE"

    static func run(_ arguments: Arguments) -> ExitCode {
        let asJSON = arguments.flags.contains("json"), messages = arguments.flags.contains("messages")
        var status = ExitCode.success
        for path in arguments.positional {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
                if !inspect(file: path, json: asJSON, messages: messages) { status = .failure }
                continue
            }
            do {
                let url = URL(fileURLWithPath: path)
                // A Mocktail folder is one with `.tail` files directly in it, as Mocktail reads them.
                if try FileManager.default.contentsOfDirectory(atPath: path).contains(where: { $0.lowercased().hasSuffix(".tail") }) {
                    let mocktail = try MocktailCollection(contentsOf: url)
                    Output.out(asJSON ? json(mocktail, folder: path) : table(mocktail, folder: path))
                    continue
                }
                let files = try vinylFiles(in: url)
                guard !files.isEmpty else {
                    throw VinylError(
                        .notFound, file: path, problem: "the folder holds no vinyl files (.json, .plist, .har, .yml, .yaml) and no Mocktail .tail files",
                        fix: "Pass a vinyl file, or the folder that holds them")
                }
                for file in files where !inspect(file: file, json: asJSON, messages: messages) { status = .failure }
            } catch {
                Output.err("error: \(error)")
                status = .failure
            }
        }
        return status
    }

    /// Prints one file's tracks; false when it could not be read (the error went to stderr).
    static func inspect(file path: String, json asJSON: Bool, messages: Bool = false) -> Bool {
        guard case let (vinyl, format)? = FileInput.vinyl(path) else { return false }
        Output.out(asJSON ? json(vinyl, file: path, format: format) : table(vinyl, file: path, format: format, messages: messages))
        return true
    }

    /// The vinyl files in `folder` and its subfolders (a `Vinyls` folder keeps a suite's vinyls
    /// in a subfolder), by path, so the listing is the same on every run.
    static func vinylFiles(in folder: URL) throws -> [String] {
        let extensions: Set<String> = ["json", "plist", "har", "yml", "yaml"]
        guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else {
            throw VinylError(.unreadable, file: folder.path, problem: "could not list the folder", fix: "Check the folder's permissions")
        }
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String {
            guard extensions.contains((relative as NSString).pathExtension.lowercased()) else { continue }
            let path = folder.appendingPathComponent(relative).path
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue { files.append(path) }
        }
        return files.sorted()
    }

    static func bodyKind(_ body: Data, headers: Headers) -> String {
        if body.isEmpty { return "empty" }
        if let type = headers.mediaType {
            if type == "application/json" || type.hasSuffix("+json") { return "json" }
            if type.hasPrefix("text/") { return "text" }
            if type.hasPrefix("image/") { return "image" }
        }
        return String(data: body, encoding: .utf8) != nil ? "text" : "binary"
    }

    /// The tracks one a line; with `messages`, each conversation's messages under its track.
    static func table(_ vinyl: Vinyl, file: String, format: VinylFormat, messages: Bool = false) -> String {
        let header = "\(file): \(format) vinyl \"\(vinyl.name)\", \(vinyl.tracks.count) track\(vinyl.tracks.count == 1 ? "" : "s")"
        let rows = vinyl.tracks.enumerated().map { index, track -> [String] in
            let request = ["#\(index)", track.request.method, track.request.url.absoluteString, "→"]
            switch track.outcome {
            case .response(let response):
                let kind = response.conversation.map { "websocket: " + $0.summary } ?? bodyKind(response.body, headers: response.headers)
                return request + ["\(response.status)", "\(response.body.count) B", kind + (response.streamSummary.map { ", streamed in \($0)" } ?? "")]
            case .failure(let failure):
                return request + ["error", "\(failure.domain) \(failure.code)", ""]
            }
        }
        var lines = [header]
        for (track, line) in zip(vinyl.tracks, aligned(rows, rightAligned: [0, 5])) {
            lines.append(line)
            if messages, let conversation = track.response?.conversation { lines += ConversationListing.rows(conversation) }
        }
        return lines.joined(separator: "\n")
    }

    /// Rows as columns two spaces apart, each as wide as its widest cell; counts and positions
    /// line up on the right. Widths count characters, so `→` and non-ASCII URLs align too.
    static func aligned(_ rows: [[String]], rightAligned: Set<Int>) -> [String] {
        guard let columns = rows.map(\.count).max() else { return [] }
        let widths = (0..<columns).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        return rows.map { row in
            var line = "  "
            for (column, cell) in row.enumerated() {
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                line += column == 0 ? "" : "  "
                line += rightAligned.contains(column) ? padding + cell : (column == row.count - 1 ? cell : cell + padding)
            }
            // Without the spaces a last, empty column leaves at its end.
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
    }

    static func json(_ vinyl: Vinyl, file: String, format: VinylFormat) -> String {
        let tracks: [[String: Any]] = vinyl.tracks.map { track in
            var entry: [String: Any] = ["method": track.request.method, "url": track.request.url.absoluteString]
            switch track.outcome {
            case .response(let response):
                entry["status"] = response.status
                entry["bodyBytes"] = response.body.count
                entry["bodyKind"] = bodyKind(response.body, headers: response.headers)
                if let stream = response.streamSummary { entry["stream"] = stream }
                if let conversation = response.conversation { entry["webSocket"] = ConversationListing.json(conversation) }
            case .failure(let failure):
                entry["error"] = ["domain": failure.domain, "code": failure.code]
                entry["bodyBytes"] = 0
            }
            return entry
        }
        return Output.json(["name": vinyl.name, "file": file, "format": format.description, "tracks": tracks])
    }

    static func table(_ mocktail: MocktailCollection, folder: String) -> String {
        let header = "\(folder): Mocktail folder, \(mocktail.stubs.count) stub\(mocktail.stubs.count == 1 ? "" : "s")"
        let rows = mocktail.stubs.enumerated().map { index, stub in
            [
                stub.file.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "#\(index)", stub.methodPattern, stub.urlPattern, "→",
                "\(stub.status)", "\(stub.body.count) B", bodyKind(stub.body, headers: stub.headers),
            ]
        }
        return ([header] + aligned(rows, rightAligned: [5])).joined(separator: "\n")
    }

    static func json(_ mocktail: MocktailCollection, folder: String) -> String {
        let stubs: [[String: Any]] = mocktail.stubs.map { stub in
            [
                "method": stub.methodPattern, "url": stub.urlPattern, "status": stub.status, "bodyBytes": stub.body.count,
                "bodyKind": bodyKind(stub.body, headers: stub.headers), "file": stub.file ?? "",
            ]
        }
        return Output.json(["file": folder, "format": "mocktail", "stubs": stubs])
    }
}
