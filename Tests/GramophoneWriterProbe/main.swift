// A child process for KilledWriterTests: writes vinyls over one file with the library's own
// `Vinyl.write(to:)` until it is killed; and for ConcurrentSaveTests: a second test process
// recording into a vinyl another process records into. Not a product; nothing outside the
// tests uses it.
//
//     GramophoneWriterProbe --reference FOLDER TRACKS   writes a.json and b.json to FOLDER, exits
//     GramophoneWriterProbe TARGET TRACKS               writes b, a, b, a… to TARGET forever,
//                                                       printing "wrote" after each write
//     GramophoneWriterProbe --record FOLDER NAME MODE URL…
//                                                       opens the vinyl NAME in FOLDER recording
//                                                       in MODE, fetches each URL, prints "ready",
//                                                       waits for a line on stdin, then ejects and
//                                                       prints the recording report
//
// Both vinyls are built here from TRACKS (about 1 KB a track), so a restart costs no parsing
// and the kills land among the writes.
import Foundation
import Gramophone

func vinyl(_ version: String, tracks: Int) -> Vinyl {
    let body = Data(String(repeating: "\(version)\(version) ", count: 340).utf8)
    return Vinyl(
        name: "killed",
        tracks: (0..<tracks).compactMap { index in
            URL(string: "https://api.example.com/\(version)/items/\(index)").map { url in
                Track(request: Track.Request(url: url), outcome: .text(String(decoding: body, as: UTF8.self)))
            }
        })
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(2)
}

/// `--record`: records, holds the unsaved tracks until told, then saves them.
func record(folder: String, name: String, mode: String, urls: [String]) async throws {
    var recording = Recording(environment: ["GRAMOPHONE_RECORD_MODE": mode])
    recording.isQuiet = true
    let turntable = try Turntable(vinylNamed: name, from: .folder(URL(fileURLWithPath: folder, isDirectory: true)), recording: recording)
    for text in urls {
        guard let url = URL(string: text) else { fail("not a URL: \(text)") }
        _ = try await turntable.data(from: url)
    }
    FileHandle.standardOutput.write(Data("ready\n".utf8))
    _ = readLine()
    if let report = try turntable.eject() { FileHandle.standardOutput.write(Data((report.description + "\n").utf8)) }
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    if arguments.count >= 4, arguments[0] == "--record" {
        try await record(folder: arguments[1], name: arguments[2], mode: arguments[3], urls: Array(arguments.dropFirst(4)))
        exit(0)
    }
    if arguments.count == 3, arguments[0] == "--reference", let tracks = Int(arguments[2]) {
        let folder = URL(fileURLWithPath: arguments[1], isDirectory: true)
        try vinyl("a", tracks: tracks).write(to: folder.appendingPathComponent("a.json"))
        try vinyl("b", tracks: tracks + tracks / 2).write(to: folder.appendingPathComponent("b.json"))
        exit(0)
    }
    guard arguments.count == 2, let tracks = Int(arguments[1]) else {
        fail("usage: GramophoneWriterProbe [--reference FOLDER | TARGET] TRACKS")
    }
    let target = URL(fileURLWithPath: arguments[0])
    let versions = [vinyl("b", tracks: tracks + tracks / 2), vinyl("a", tracks: tracks)]
    var round = 0
    while true {
        try versions[round % 2].write(to: target)
        FileHandle.standardOutput.write(Data("wrote\n".utf8))
        round += 1
    }
} catch {
    fail("\(error)")
}
