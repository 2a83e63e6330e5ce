import Foundation

@testable import Gramophone

/// The properties of the writers: a vinyl written in any writable format is detected as that
/// format and reads back as the same vinyl, modulo only the normalisations Gramophone.docc/FormatsAndTheCLI.md
/// lists ("What a rewrite keeps"); a vinyl whose headers hold a line break or NUL is refused
/// with a `VinylError` naming the header, in every format, and one holding a WebSocket
/// conversation is refused as DVR or plist, which have no place for it.
enum FuzzWriters {
    static func check(_ vinyl: Vinyl, formats: [VinylFormat] = VinylFormat.allCases.filter(\.isWritable)) {
        let unsafe = vinyl.tracks.contains { track in
            ([track.request.headers] + (track.response.map { [$0.headers] } ?? [])).contains { headers in
                headers.fields.contains { HeaderLineBreaks.isUnsafe($0.name) || HeaderLineBreaks.isUnsafe($0.value) }
            }
        }
        for format in formats {
            let data: Data
            do {
                data = try vinyl.encoded(as: format)
            } catch let error as VinylError {
                let refusedHeader =
                    unsafe && error.kind == .unwritable
                    && error.place.map { $0.hasPrefix(format.place(ofTrack: 0).prefix(while: { $0 != "[" })) && $0.contains(".headers \"") } == true
                // DVR and plist have no place for a WebSocket conversation: refused, never dropped.
                let refusedConversation =
                    (format == .dvr || format == .plist) && error.kind == .unwritable && error.problem.contains("WebSocket conversation")
                    && vinyl.tracks.contains { $0.response?.conversation != nil }
                guard refusedHeader || refusedConversation else {
                    fuzzFailure("writing as \(format) failed: \(error)")
                }
                continue
            } catch {
                fuzzFailure("writing as \(format) threw \(type(of: error)), not a VinylError: \(error)")
            }
            guard !unsafe else { fuzzFailure("a header with a line break or NUL was written as \(format)") }
            let detected: VinylFormat
            do {
                detected = try VinylFormat.detect(data: data, fileExtension: format.fileExtension, file: "fuzz.\(format.fileExtension)")
            } catch {
                fuzzFailure("written as \(format), not recognised: \(error)")
            }
            guard detected == format else { fuzzFailure("written as \(format), detected as \(detected)") }
            let again: Vinyl
            do {
                again = try Vinyl(data: data, name: "reread", format: format, file: "fuzz.\(format.fileExtension)")
            } catch {
                fuzzFailure("written as \(format), does not read back: \(error)\n\(String(decoding: data.prefix(4000), as: UTF8.self))")
            }
            compare(vinyl, again, format: format)
        }
    }

    /// `again` must be `original` after the normalisations `format` documents.
    static func compare(_ original: Vinyl, _ again: Vinyl, format: VinylFormat) {
        func fail(_ what: String, _ index: Int? = nil) -> Never {
            fuzzFailure("\(format) rewrite changed \(index.map { "track \($0) " } ?? "")\(what)")
        }
        // HAR has no field for the vinyl's name (it reads as the file's name).
        if format != .har, again.name != original.name { fail("the name: \(original.name.debugDescription) -> \(again.name.debugDescription)") }
        guard again.tracks.count == original.tracks.count else { fail("the number of tracks \(original.tracks.count) -> \(again.tracks.count)") }
        for (index, (before, after)) in zip(original.tracks, again.tracks).enumerated() {
            let request = before.request
            guard after.request.method == request.method else { fail("the method \(request.method) -> \(after.request.method)", index) }
            guard after.request.url.absoluteString == request.url.absoluteString else {
                fail("the URL \(request.url.absoluteString) -> \(after.request.url.absoluteString)", index)
            }
            guard after.request.body == request.body else { fail("the request body \(request.body as NSData) -> \(after.request.body as NSData)", index) }
            // HAR drops HTTP/2 pseudo-headers (`:authority`) on reading (Gramophone.docc/FormatsAndTheCLI.md).
            let requestHeaders = format == .har ? HARFormat.withoutPseudoHeaders(request.headers) : request.headers
            guard sameHeaders(requestHeaders, after.request.headers, format: format) else {
                fail("the request headers\n\(request.headers)\n->\n\(after.request.headers)", index)
            }
            compareOutcome(before, after, request: request, format: format, fail: { fail($0, index) })
            compareDate(before.recordedAt, after.recordedAt, format: format, fail: { fail($0, index) })
            compareDuration(before.duration, after.duration, format: format, fail: { fail($0, index) })
        }
    }

    private static func compareOutcome(_ before: Track, _ after: Track, request: Track.Request, format: VinylFormat, fail: (String) -> Never) {
        switch (before.outcome, after.outcome) {
        case let (.failure(a), .failure(b)):
            guard a.domain == b.domain, a.code == b.code, a.description == b.description else { fail("the error \(a) -> \(b)") }
        case let (.response(a), .response(b)):
            guard a.status == b.status else { fail("the status \(a.status) -> \(b.status)") }
            guard a.body == b.body else { fail("the response body \(a.body as NSData) -> \(b.body as NSData)") }
            var expected = a.headers
            if format == .har {
                // HAR drops HTTP/2 pseudo-headers and stores bodies decoded (Gramophone.docc/FormatsAndTheCLI.md).
                expected = HARFormat.withoutPseudoHeaders(expected)
                HARFormat.dropStaleContentEncoding(&expected, body: a.body)
            }
            guard sameHeaders(expected, b.headers, format: format) else { fail("the response headers\n\(a.headers)\n->\n\(b.headers)") }
            let expectedURL: URL?
            switch format {
            case .dvr: expectedURL = a.url ?? request.url  // DVR always writes one
            case .har: expectedURL = a.url == request.url ? nil : a.url  // HAR writes `_url` only when it differs
            default: expectedURL = a.url
            }
            guard b.url?.absoluteString == expectedURL?.absoluteString else { fail("the response URL \(String(describing: a.url)) -> \(String(describing: b.url))") }
            let expectedVersion: String?
            switch format {
            case .dvr: expectedVersion = nil  // DVR has no field for it
            case .har: expectedVersion = a.httpVersion == nil ? "HTTP/1.1" : (a.httpVersion!.isEmpty ? nil : a.httpVersion)
            default: expectedVersion = a.httpVersion
            }
            guard b.httpVersion == expectedVersion else { fail("the HTTP version \(String(describing: a.httpVersion)) -> \(String(describing: b.httpVersion))") }
        default:
            fail("the outcome \(before.outcome) -> \(after.outcome)")
        }
    }

    /// JSON formats group repeated names and sort names; HAR and plist keep the recorded order.
    private static func sameHeaders(_ a: Headers, _ b: Headers, format: VinylFormat) -> Bool {
        switch format {
        case .gramophone, .dvr, .vcr: return a.jsonValue == b.jsonValue
        case .har, .plist: return a.fields == b.fields
        }
    }

    private static func compareDate(_ a: Date?, _ b: Date?, format: VinylFormat, fail: (String) -> Never) {
        var expected = a
        // HAR requires a date: the writer puts the epoch for "unknown", so the epoch reads as none.
        if format == .har, let date = a, ISO8601.format(date) == ISO8601.format(Date(timeIntervalSince1970: 0)) { expected = nil }
        switch (expected, b) {
        case (nil, nil): return
        case let (x?, y?):
            if format == .dvr {
                // DVR writes seconds since 1970 to the microsecond.
                let tolerance = 1e-6 + 4 * x.timeIntervalSince1970.ulp
                if abs(x.timeIntervalSince1970 - y.timeIntervalSince1970) <= tolerance { return }
            } else if ISO8601.format(x) == ISO8601.format(y) {
                return  // ISO 8601 to the millisecond
            }
            fail("the date \(x.timeIntervalSince1970) -> \(y.timeIntervalSince1970)")
        default:
            fail("the date \(String(describing: a?.timeIntervalSince1970)) -> \(String(describing: b?.timeIntervalSince1970))")
        }
    }

    private static func compareDuration(_ a: TimeInterval?, _ b: TimeInterval?, format: VinylFormat, fail: (String) -> Never) {
        let expected: TimeInterval?
        switch format {
        case .dvr: expected = nil  // DVR has no field for it
        case .har: expected = a ?? 0  // HAR's `time` is required: unknown is written as 0
        default: expected = a
        }
        switch (expected, b) {
        case (nil, nil): return
        case let (x?, y?):
            // Written to the microsecond (HAR: milliseconds to the nanosecond), plist exactly.
            let tolerance = format == .plist ? 0 : 1e-6 + 4 * x.ulp
            if abs(x - y) <= tolerance { return }
            fail("the duration \(x) -> \(y)")
        default:
            fail("the duration \(String(describing: a)) -> \(String(describing: b))")
        }
    }
}
