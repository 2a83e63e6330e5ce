// Fuzz target: the DVR cassette reader.
// fuzz-seeds: dvr vinyl Fuzz/Seeds/Captures
// fuzz-dict: json.dict
import Foundation

@testable import Gramophone

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    FuzzReader.check(Data(bytes: data, count: size), format: .dvr)
    return 0
}
