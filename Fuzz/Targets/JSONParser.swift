// Fuzz target: the JSON parser itself. Anything it accepts must write back (compactly)
// to text it reads as the same value.
// fuzz-seeds: vinyl dvr har Fuzz/Seeds/Captures
// fuzz-dict: json.dict
import Foundation

@testable import Gramophone

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let value: JSONValue
    do {
        value = try JSONParser.parse(bytes)
    } catch {
        guard error.line >= 1, error.column >= 1, error.offset <= size else {
            fuzzFailure("a syntax error with an impossible place: \(error)")
        }
        return 0
    }
    let written = JSONWriter.compact(value)
    guard let again = try? JSONParser.parse(written) else {
        fuzzFailure("the writer's output does not parse: \(String(decoding: written, as: UTF8.self))")
    }
    guard again == value else { fuzzFailure("write and re-read changed the value") }
    _ = value.semanticallyEquals(again)
    return 0
}
