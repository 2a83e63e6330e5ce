import BenchFixtures
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Gramophone
import HeapStats

// GramophoneBenchDriver memory        heap kept alive by the loaded 10,000-track vinyl, as JSON
// GramophoneBenchDriver replay N      N replays of the small track (for callgrind)
// GramophoneBenchDriver lookup N SIZE N hits on the last track of a SIZE-track vinyl (for callgrind)
// GramophoneBenchDriver load          one load of the 10,000-track vinyl (for callgrind)

func heap() -> Int { Int(heap_stats_in_use()) }

let arguments = CommandLine.arguments.dropFirst()
switch arguments.first {
case "memory":
    let file = try Fixtures.mixedFile()
    let fileSize = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0
    let data = try Data(contentsOf: file)
    var before = heap()
    let object = try JSONSerialization.jsonObject(with: data)
    let jsonSerialization = heap() - before
    withExtendedLifetime(object) {}
    before = heap()
    let vinyl = try Vinyl(data: data, name: "mixed")
    let vinylBytes = heap() - before
    before = heap()
    let turntable = Turntable(vinyl: vinyl)
    let turntableBytes = heap() - before
    withExtendedLifetime((vinyl, turntable)) {}
    print(#"{"fileBytes": \#(fileSize), "jsonSerializationBytes": \#(jsonSerialization), "vinylBytes": \#(vinylBytes), "turntableIndexBytes": \#(turntableBytes)}"#)
case "replay":
    let count = Int(arguments.dropFirst().first ?? "") ?? 10_000
    let turntable = Turntable(vinyl: Vinyl(name: "small", tracks: [Fixtures.smallTrack]))
    for _ in 0..<count { _ = try await turntable.data(for: Fixtures.smallRequest) }
case "lookup":
    let count = Int(arguments.dropFirst().first ?? "") ?? 10_000
    let size = Int(arguments.dropFirst(2).first ?? "") ?? 10
    let turntable = Turntable(vinyl: Fixtures.tracks(count: size))
    let request = URLRequest(url: Fixtures.url(size - 1))
    for _ in 0..<count { _ = try await turntable.data(for: request) }
case "load":
    _ = try Vinyl(contentsOf: try Fixtures.mixedFile())
default:
    FileHandle.standardError.write(Data("usage: GramophoneBenchDriver memory | replay N | lookup N SIZE | load\n".utf8))
    exit(2)
}
