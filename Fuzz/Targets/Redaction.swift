// Fuzz target: redaction and the secret scan, which parse headers (cookies, auth schemes),
// URLs (queries, percent escapes) and bodies (JSON, forms). Builds a vinyl (FuzzVinyl, or a
// real capture from the seeds) and a redaction from the bytes. Never a crash, and:
// redacting twice changes nothing more than once; a track's request is redacted as the live
// request is (so it still matches); removed headers are gone; the values of removed or
// replaced headers no longer appear anywhere in the redacted track; after the default
// redaction the scan finds no credential header; the redacted vinyl writes and reads back
// as Gramophone's JSON.
// fuzz-seeds: vinyl dvr har ../HAR ../VCR ../Scan Fuzz/Seeds/Captures
// fuzz-dict: writers.dict
// fuzz-max-len: 65536
import Foundation

@testable import Gramophone

private let names = ["Authorization", "Cookie", "Set-Cookie", "X-Api-Key", "X-Dup", "Location", "Content-Type", "Date", "x-auth-token"]
private let keys = ["password", "token", "id", "nested", "api_key", "a", "access_token", "key", "page", "user", ""]

/// What a redaction does to headers, to check it against.
private struct HeaderRules: Sendable {
    var isDefault = false
    var removed: [String] = []
    var replaced: [String: String] = [:]

    func removes(_ name: String) -> Bool {
        (isDefault && SensitiveNames.isSensitiveHeader(name)) || removed.contains { $0.caseInsensitiveEquals(name) }
    }

    func replacement(for name: String) -> String? {
        replaced.first { $0.key.caseInsensitiveEquals(name) }?.value
    }

    /// Whether the redaction takes this field's value out (removed, or replaced by another value).
    func takes(_ field: Headers.Field) -> Bool {
        removes(field.name) || replacement(for: field.name).map { $0 != field.value } == true
    }
}

/// A redaction from the bytes, and what it does to headers.
private func redaction(_ input: inout FuzzBytes) -> (Redaction, HeaderRules) {
    var steps: [Redaction] = []
    var rules = HeaderRules()
    rules.isDefault = input.byte() & 1 == 0
    if rules.isDefault { steps.append(.default) }
    for _ in 0..<input.int(4) {
        switch input.int(9) {
        case 0: let name = input.pick(names); rules.removed.append(name); steps.append(.headers(removing: [name]))
        case 1:
            // One value per name: two rules for one name would make the expected value depend on their order.
            let name = input.pick(names), value = input.pick(["<redacted>", "Bearer <redacted>", "", "x"])
            guard rules.replacement(for: name) == nil else { continue }
            rules.replaced[name] = value
            steps.append(.headers(replacing: [name: value]))
        case 2: steps.append(.query(removing: [input.pick(keys)]))
        case 3: steps.append(.query(replacing: [input.pick(keys): input.pick(["<redacted>", "x", ""])]))
        case 4: steps.append(.jsonKeys(removing: [input.pick(keys)]))
        case 5: steps.append(.jsonKeys(replacing: [input.pick(keys): input.pick(["<redacted>", "x"])]))
        case 6: steps.append(.formFields(removing: [input.pick(keys)]))
        case 7: steps.append(.formFields(replacing: [input.pick(keys): input.pick(["<redacted>", "x y", ""])]))
        default:
            // The closure form: `path(replacing:with:)` goes with issue 13's renames.
            let target = input.pick(["/users", "/42", "/%2F"])
            steps.append(.path { $0.replacingOccurrences(of: target, with: "/ID") })
        }
    }
    return (steps.reduce(.none, +), rules)
}

/// Where a secret may not be left: header values, URLs and UTF-8 bodies, as bytes (unlike
/// `String.contains`, which compares characters, a secret followed by a combining accent still
/// counts), with the placeholders blanked out so a secret cannot be "found" spanning one.
private func texts(of request: Track.Request, _ response: Track.Response?) -> [[UInt8]] {
    var result = request.headers.fields.map(\.value) + [request.url.absoluteString]
    if UTF8Validation.isValid(request.body) { result.append(String(decoding: request.body, as: UTF8.self)) }
    if let response {
        result += response.headers.fields.map(\.value) + [response.url?.absoluteString ?? ""]
        if UTF8Validation.isValid(response.body) { result.append(String(decoding: response.body, as: UTF8.self)) }
    }
    return result.map { blanked(Array($0.utf8)) }
}

private let placeholders = [Array(Redaction.placeholder.utf8), Array("REDACTED".utf8)]

private func blanked(_ text: [UInt8]) -> [UInt8] {
    var text = text
    for placeholder in placeholders {
        var index = 0
        while let found = firstIndex(of: placeholder, in: text, from: index) {
            text.replaceSubrange(found..<(found + placeholder.count), with: [1])
            index = found + 1
        }
    }
    return text
}

private func firstIndex(of needle: [UInt8], in haystack: [UInt8], from start: Int = 0) -> Int? {
    guard !needle.isEmpty, haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
    for index in start...(haystack.count - needle.count) where haystack[index] == needle[0] {
        if haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
    }
    return nil
}

private func secrets(in headers: Headers, _ rules: HeaderRules) -> [String] {
    headers.fields.filter(rules.takes)
        .flatMap { SensitiveNames.secretParts(ofHeader: $0.name, value: $0.value) }
        // Values of under four characters, and values that are only white space or a mask
        // (`****`, `<redacted>`), name no secret and are not chased (RecordingAndRedaction.md).
        // `<redacted>`, the mask before `REDACTED`, is still a mask (a vinyl may hold it).
        .filter { $0.count >= 4 && !$0.contains("\u{1}") && !Redaction.placeholder.contains($0) && !"<redacted>".contains($0) && !SensitiveNames.isRedacted($0) }
}

private func check(_ track: Track, index: Int, _ redaction: Redaction, _ rules: HeaderRules) -> Track {
    let once = redaction.redact(track)
    guard redaction.redact(once) == once else { fuzzFailure("redacting track \(index) twice changed it again:\n\(once)\n->\n\(redaction.redact(once))") }
    guard once.request == redaction.redact(track.request) else {
        fuzzFailure("track \(index)'s request was redacted unlike the live request:\n\(once.request)\nvs\n\(redaction.redact(track.request))")
    }
    for headers in [once.request.headers] + (once.response.map { [$0.headers] } ?? []) {
        for field in headers.fields {
            if rules.removes(field.name) { fuzzFailure("track \(index): the header \(field.name) was to be removed") }
            if let value = rules.replacement(for: field.name), field.value != value {
                fuzzFailure("track \(index): the header \(field.name) was to be \(value.debugDescription) but is \(field.value.debugDescription)")
            }
        }
    }
    // The request's secrets are scrubbed from the whole track, the response's from the response.
    let requestSecrets = secrets(in: track.request.headers, rules)
    let responseSecrets = track.response.map { secrets(in: $0.headers, rules) } ?? []
    let everywhere = texts(of: once.request, once.response)
    let inResponse = once.response.map { Array(texts(of: Track.Request(url: once.request.url), $0).dropFirst(1)) } ?? []
    for secret in requestSecrets {
        if let text = everywhere.first(where: { firstIndex(of: Array(secret.utf8), in: $0) != nil }) {
            fuzzFailure("track \(index): the request's secret \(secret.debugDescription) was left in \(String(decoding: text.prefix(300), as: UTF8.self).debugDescription)")
        }
    }
    for secret in responseSecrets {
        if let text = inResponse.first(where: { firstIndex(of: Array(secret.utf8), in: $0) != nil }) {
            fuzzFailure("track \(index): the response's secret \(secret.debugDescription) was left in \(String(decoding: text.prefix(300), as: UTF8.self).debugDescription)")
        }
    }
    return once
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    var input = FuzzBytes(bytes)
    let vinyl: Vinyl
    if let first = bytes.first, first == UInt8(ascii: "{") || first == UInt8(ascii: "["), let read = try? Vinyl(data: Data(bytes), name: "fuzz") {
        vinyl = read
        // A capture's bytes are its content; the redaction comes from its length and first bytes.
        input = FuzzBytes(UnsafeRawBufferPointer(rebasing: bytes[0..<Swift.min(8, size)]))
    } else {
        vinyl = FuzzVinyl.make(&input, lineBreaks: false)
    }
    let (redaction, rules) = redaction(&input)
    // The scan parses every header, URL and body; it must not trap on the original either.
    for finding in vinyl.likelySecrets() where !vinyl.tracks.indices.contains(finding.trackIndex) {
        fuzzFailure("a finding for track \(finding.trackIndex) of \(vinyl.tracks.count)")
    }
    let redacted = Vinyl(name: vinyl.name, tracks: vinyl.tracks.enumerated().map { check($1, index: $0, redaction, rules) })
    if rules.isDefault, let left = redacted.likelySecrets().first(where: { $0.reason == "a credential header" }) {
        fuzzFailure("the default redaction left a credential header: \(left)")
    }
    // Recordings are written as Gramophone's JSON; the VinylWriters target covers the others.
    FuzzWriters.check(redacted, formats: [.gramophone])
    return 0
}
