// Fuzz target: the VCR.py / Ruby VCR JSON cassette reader (read only: rewritten as Gramophone's JSON).
// fuzz-seeds: ../VCR Fuzz/Seeds/Captures
// fuzz-dict: json.dict
import Foundation

@testable import Gramophone

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    FuzzReader.check(Data(bytes: data, count: size), format: .vcr)
    return 0
}
