// Fuzz target: every writer. Input that reads as a vinyl (the seeds are real captures: the
// fixtures, httpbin recordings, browser HAR) is that vinyl; any other input builds one from
// its bytes (FuzzVinyl: odd URLs, header values with empty pieces, quotes, non-ASCII, very long
// and repeated headers, every body encoding, errors, dates, durations). The vinyl is written
// in every writable format and must read back the same modulo the normalisations Gramophone.docc/FormatsAndTheCLI.md
// lists; one with a line break in a header must be refused by every writer (FuzzWriters).
// fuzz-seeds: vinyl dvr har ../HAR ../VCR ../Scan Fuzz/Seeds/Captures
// fuzz-dict: writers.dict
// fuzz-max-len: 65536
import Foundation

@testable import Gramophone

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    if let first = bytes.first, first == UInt8(ascii: "{") || first == UInt8(ascii: "[") || first == UInt8(ascii: "<"),
        let vinyl = try? Vinyl(data: Data(bytes), name: "fuzz")
    {
        FuzzWriters.check(vinyl)
        return 0
    }
    var input = FuzzBytes(bytes)
    FuzzWriters.check(FuzzVinyl.make(&input, lineBreaks: true))
    return 0
}
