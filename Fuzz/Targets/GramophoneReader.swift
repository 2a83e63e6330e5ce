// Fuzz target: Gramophone's native JSON reader (and the Vinyl library's bare arrays).
// fuzz-seeds: vinyl dvr Fuzz/Seeds/Captures
// fuzz-dict: json.dict
import Foundation

@testable import Gramophone

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    FuzzReader.check(Data(bytes: data, count: size), format: .gramophone)
    return 0
}
