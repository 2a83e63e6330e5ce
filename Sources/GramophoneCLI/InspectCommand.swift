import Foundation
import Gramophone

/// `gramophone inspect FILE… [--json]`: what a vinyl holds.
enum InspectCommand: Command {
    static let name = "inspect"
    static let summary = "List the tracks of vinyl files"
    static let usage = """
        USAGE: gramophone inspect FILE... [--json]

        Lists each track: method, URL, status (or error), and the response body's size and kind.
        FILE may be in any format Gramophone reads (Gramophone JSON or plist, DVR, HAR, VCR),
        or a folder of Mocktail .tail files.

        OPTIONS:
          --json      Print one JSON object per file for scripts:
                      {"name":…,"file":…,"format":…,"tracks":[{"method":…,"url":…,"status":…,"bodyBytes":…,"bodyKind":…}]}
          -h, --help  Show this help.

        EXIT CODES: 0 success, 1 a file could not be read, 2 bad usage.
        """
    static let flags: Set<String> = ["json"]
    static let options: Set<String> = []

    static func run(_ arguments: Arguments) -> ExitCode {
        guard !arguments.positional.isEmpty else {
            Output.err("error: inspect needs at least one FILE\n\n\(usage)")
            return .usage
        }
        var status = ExitCode.success
        for path in arguments.positional {
            do {
                let url = URL(fileURLWithPath: path)
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
                    let mocktail = try MocktailCollection(contentsOf: url)
                    Output.out(arguments.flags.contains("json") ? json(mocktail, folder: path) : table(mocktail, folder: path))
                    continue
                }
                let data = try FileInput.read(path)
                let format = try VinylFormat.detect(data: data, fileExtension: url.pathExtension, file: path)
                let vinyl = try Vinyl(data: data, name: url.deletingPathExtension().lastPathComponent, format: format, file: path)
                if arguments.flags.contains("json") {
                    Output.out(json(vinyl, file: path, format: format))
                } else {
                    Output.out(table(vinyl, file: path, format: format))
                }
            } catch {
                Output.err("error: \(error)")
                status = .failure
            }
        }
        return status
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

    static func table(_ vinyl: Vinyl, file: String, format: VinylFormat) -> String {
        var lines = ["\(file): \(format) vinyl \"\(vinyl.name)\", \(vinyl.tracks.count) track\(vinyl.tracks.count == 1 ? "" : "s")"]
        for (index, track) in vinyl.tracks.enumerated() {
            let result: String
            switch track.outcome {
            case .response(let response):
                result =
                    "\(response.status)  \(response.body.count) B \(bodyKind(response.body, headers: response.headers))"
                    + (response.streamSummary.map { ", streamed in \($0)" } ?? "")
            case .failure(let failure):
                result = "error \(failure.domain) \(failure.code)"
            }
            lines.append("  #\(index)  \(track.request.method.padding(toLength: 7, withPad: " ", startingAt: 0)) \(track.request.url.absoluteString)  →  \(result)")
        }
        return lines.joined(separator: "\n")
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
            case .failure(let failure):
                entry["error"] = ["domain": failure.domain, "code": failure.code]
                entry["bodyBytes"] = 0
            }
            return entry
        }
        let object: [String: Any] = ["name": vinyl.name, "file": file, "format": format.description, "tracks": tracks]
        return serialise(object)
    }

    static func table(_ mocktail: MocktailCollection, folder: String) -> String {
        var lines = ["\(folder): Mocktail folder, \(mocktail.stubs.count) stub\(mocktail.stubs.count == 1 ? "" : "s")"]
        for (index, stub) in mocktail.stubs.enumerated() {
            let file = stub.file.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "#\(index)"
            lines.append("  \(file)  \(stub.methodPattern) \(stub.urlPattern)  →  \(stub.status)  \(stub.body.count) B \(bodyKind(stub.body, headers: stub.headers))")
        }
        return lines.joined(separator: "\n")
    }

    static func json(_ mocktail: MocktailCollection, folder: String) -> String {
        let stubs: [[String: Any]] = mocktail.stubs.map { stub in
            [
                "method": stub.methodPattern, "url": stub.urlPattern, "status": stub.status, "bodyBytes": stub.body.count,
                "bodyKind": bodyKind(stub.body, headers: stub.headers), "file": stub.file ?? "",
            ]
        }
        return serialise(["file": folder, "format": "mocktail", "stubs": stubs])
    }

    private static func serialise(_ object: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
