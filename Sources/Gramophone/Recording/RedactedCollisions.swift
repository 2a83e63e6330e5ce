import Foundation

/// Requests of one recording run that the redaction makes one request though they sent other
/// secrets (a right and a wrong password, two users' tokens). Written as they are, a replay
/// could not tell whose answer is whose, so a later one answered differently is refused at
/// record time (`RecordingError.differsOnlyInRedactedValues`), naming the places and the
/// choices. What is remembered of each request is its hash, in memory, for the run: nothing
/// derived from a secret reaches the file.
enum RedactedCollisions {
    struct Visit: Sendable {
        /// The request as sent, hashed: equal for the same secrets, in this process only.
        var sent: Int
        var status: Int
        /// The redacted answer's body, hashed: a run need not hold a second copy of every body.
        var body: Int
    }

    /// Visits by run (the file and when its run began: a parameterized test's cases share one)
    /// and request as recorded.
    private static let runs = Locked<[String: [Track.Request: [Visit]]]>([:])

    /// Notes `original`, recorded as `redacted`, in `run`; returns the earlier visit it may not
    /// join (other secrets, another answer), leaving it unnoted.
    static func note(_ original: Track, as redacted: Track, run: String) -> Visit? {
        guard let response = redacted.response else { return nil }
        let visit = Visit(sent: Self.digest(original.request), status: response.status, body: Self.digest(response.body))
        return runs.withLock { runs -> Visit? in
            let earlier = runs[run]?[redacted.request] ?? []
            if let other = earlier.first(where: { $0.sent != visit.sent && ($0.status != visit.status || $0.body != visit.body) }) { return other }
            runs[run, default: [:]][redacted.request, default: []].append(visit)
            return nil
        }
    }

    /// Every byte hashed (`Data.hashValue` need not read them all), eight at a time: SipHash
    /// (`Hasher`) over a recorded body's megabytes was a tenth of recording it. Two bodies that
    /// differ are told apart but for a chance of one in 2^64.
    private static func digest(_ body: Data) -> Int {
        body.withUnsafeBytes { bytes in
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(bytes.count)
            var offset = 0
            func mix(_ word: UInt64) {
                hash = (hash ^ word) &* 0x9E37_79B9_7F4A_7C15
                hash ^= hash >> 29
            }
            while offset + 8 <= bytes.count {
                mix(bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                offset += 8
            }
            var tail: UInt64 = 0
            for byte in bytes[offset...] { tail = tail << 8 | UInt64(byte) }
            mix(tail)
            return Int(truncatingIfNeeded: hash)
        }
    }

    /// The request as sent, hashed: a secret past a body's first bytes counts too.
    private static func digest(_ request: Track.Request) -> Int {
        var hasher = Hasher()
        hasher.combine(request.method)
        hasher.combine(request.url)
        hasher.combine(request.headers)
        hasher.combine(digest(request.body))
        return hasher.finalize()
    }

    /// The error for `original`, recorded as `redacted`, which collides with `earlier`.
    static func refusal(_ original: Track, as redacted: Track, earlier: Visit) -> RecordingError {
        let places = RedactedPlaces.places(from: Track(request: original.request, outcome: .response(Track.Response())), to: Track(request: redacted.request, outcome: .response(Track.Response())))
        return .differsOnlyInRedactedValues(
            method: redacted.request.method, url: redacted.request.url, places: places, statuses: [earlier.status, redacted.response?.status ?? 0])
    }

    /// `Recording.allowing(_:)`'s spelling of a place as `RedactedPlaces` names it (always a request's).
    static func allowance(for place: String) -> String {
        let name = place.split(separator: "\"", omittingEmptySubsequences: false).dropFirst().first.map(String.init) ?? ""
        let parts: [(String, SecretPlace.Part)] = [
            ("request.headers", .header(name)), ("request.url query", .query(name)), ("request.body JSON", .jsonKey(name)),
            ("request.body form", .formField(name)), ("request.url", .url),
        ]
        return SecretPlace(parts.first { place.hasPrefix($0.0) }?.1 ?? .body, .request).code
    }
}
