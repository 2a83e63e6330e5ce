// Fuzz target: the property-list vinyl reader (XML and binary plists through Foundation).
// fuzz-seeds: Fuzz/Seeds/Captures
// fuzz-dict: plist.dict
import Foundation

@testable import Gramophone

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    FuzzReader.check(Data(bytes: data, count: size), format: .plist)
    return 0
}
