// Fuzz target: the HAR (HTTP Archive 1.2) reader.
// fuzz-seeds: har ../HAR Fuzz/Seeds/Captures
// fuzz-dict: json.dict
import Foundation

@testable import Gramophone

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    FuzzReader.check(Data(bytes: data, count: size), format: .har)
    return 0
}
