import Foundation
import Gramophone
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Vinyl's `RequestMatcherRegistryTests` properties, ported: "two requests match under these
/// types" becomes "a Turntable holding a track for one answers the other under these matchers".
/// Vinyl's `.headers` compared values ignoring case; Gramophone's `.allHeaders()` compares them
/// exactly, and the Vinyl guide gives the matcher that reads them as Vinyl did
/// (`MigratingFromVinylGuideTests.vinylHeaders`), used where the property needs Vinyl's reading.
@Suite struct VinylRequestMatcherRegistryTests {
    /// Whether a Turntable with one track recorded for `recorded` answers `live` under `matchers`.
    private func matches(_ live: URLRequest, _ recorded: URLRequest, _ matchers: [Matcher]) async throws -> Bool {
        let turntable = Turntable(vinyl: Vinyl(name: "registry", tracks: [Track(request: try Track.Request(recorded), outcome: .status(200))]), matching: .attributes(matchers))
        do {
            _ = try await turntable.data(for: live)
            return true
        } catch TurntableError.noMatchingTrack {
            return false
        }
    }

    @Test func identicalPathsAndQueryParametersMatch() async throws {
        var cases = Cases(seed: 1)
        for _ in 0..<Cases.count {
            let matcher = [Matcher.path, .query, .body].randomElement(using: &cases)!
            let url = cases.urlString() + cases.urlPath() + cases.pathParameters()
            let body = Bool.random(using: &cases) ? Data(cases.string().utf8) : nil
            var aRequest = URLRequest(url: URL(string: url)!)
            aRequest.httpBody = body
            var anotherRequest = URLRequest(url: URL(string: url)!)
            anotherRequest.httpBody = body
            #expect(try await matches(aRequest, anotherRequest, [matcher]), "\(url)")
        }
    }

    @Test func identicalHeadersMatch() async throws {
        var cases = Cases(seed: 2)
        for _ in 0..<Cases.count {
            let url = URL(string: cases.urlString())!
            let headers = cases.headers()
            var aRequest = URLRequest(url: url)
            aRequest.allHTTPHeaderFields = headers
            var anotherRequest = URLRequest(url: url)
            anotherRequest.allHTTPHeaderFields = headers
            #expect(try await matches(aRequest, anotherRequest, [.allHeaders()]), "\(headers)")
        }
    }

    /// SwiftCheck's `.expectFailure`: the property "mixed values match" must fail for some case.
    @Test func mixedValuesDoNotMatch() async throws {
        var cases = Cases(seed: 3)
        var someFailed = false
        for _ in 0..<Cases.count {
            let url = URL(string: cases.urlString())!
            let size = Int.random(in: 1...6, using: &cases)
            let keys = (0..<size).map { _ in cases.lowerString() }
            let values = (0..<size).map { _ in cases.lowerString() }
            let headers = Dictionary(zip(keys, values.sorted { $0.caseInsensitiveCompare($1) == .orderedDescending }), uniquingKeysWith: { $1 })
            let upperHeaders = Dictionary(zip(keys, values.sorted()), uniquingKeysWith: { $1 })
            var aRequest = URLRequest(url: url)
            aRequest.allHTTPHeaderFields = headers
            var anotherRequest = URLRequest(url: url)
            anotherRequest.allHTTPHeaderFields = upperHeaders
            if try await !matches(aRequest, anotherRequest, [MigratingFromVinylGuideTests.vinylHeaders]) { someFailed = true }
        }
        #expect(someFailed)
    }

    @Test func mixCaseHeadersMatch() async throws {
        var cases = Cases(seed: 4)
        for _ in 0..<Cases.count {
            let url = URL(string: cases.urlString())!
            let size = Int.random(in: 1...6, using: &cases)
            let headers = Dictionary(zip((0..<size).map { _ in cases.lowerString() }, (0..<size).map { _ in cases.lowerString() }), uniquingKeysWith: { $1 })
            let upperHeaders = Dictionary(uniqueKeysWithValues: headers.map { ($0.key.uppercased(), $0.value.uppercased()) })
            var aRequest = URLRequest(url: url)
            aRequest.allHTTPHeaderFields = headers
            var anotherRequest = URLRequest(url: url)
            anotherRequest.allHTTPHeaderFields = upperHeaders
            #expect(try await matches(aRequest, anotherRequest, [MigratingFromVinylGuideTests.vinylHeaders]), "\(headers)")
        }
    }
}
