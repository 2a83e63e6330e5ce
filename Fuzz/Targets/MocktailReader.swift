// Fuzz target: Mocktail `.tail` stubs (MocktailStub(text:file:)).
// fuzz-seeds: ../Mocktail
// fuzz-max-len: 65536
import Foundation

@testable import Gramophone

// A stub is not a vinyl and has no writer: any text gives a stub or a VinylError naming the
// file and a line; a stub that was read answers requests (its regexes run) and fills
// placeholders without trapping, and its response keeps its status and body.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: data, count: size), as: UTF8.self)
    let stub: MocktailStub
    do {
        stub = try MocktailStub(text: text, file: "fuzz.tail")
    } catch let error as VinylError {
        guard error.file == "fuzz.tail", let place = error.place, place.hasPrefix("line "), !error.problem.isEmpty else {
            fuzzFailure("a .tail error without file or line: \(error)")
        }
        return 0
    } catch {
        fuzzFailure("MocktailStub threw \(type(of: error)), not a VinylError: \(error)")
    }
    guard (100...999).contains(stub.status) else { fuzzFailure("status \(stub.status) accepted") }
    for (method, url) in [("GET", "http://example.com/users/42"), ("post", "https://h/p?q=1#f"), (stub.methodPattern, "http://h/" + stub.urlPattern)] {
        guard let url = URL(string: url) else { continue }
        _ = stub.matches(method: method, url: url)
    }
    let plain = stub.response()
    guard plain.status == stub.status, plain.body == stub.body else { fuzzFailure("response() changed status or body without values") }
    _ = stub.response(values: ["id": "42", "name": "{{ id }}", "": "x"], for: URL(string: "http://h/p"))
    return 0
}
