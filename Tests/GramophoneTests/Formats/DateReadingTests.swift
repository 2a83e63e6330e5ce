import Foundation
import Testing

@testable import Gramophone

/// Vinyl dates are read by hand (Formats/ISO8601.swift, Formats/HTTPDate.swift); the result must be the Date a
/// DateFormatter gives for the same text, and malformed dates are refused.
@Suite struct DateReadingTests {
    static func formatterDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        for format in ["yyyy-MM-dd'T'HH:mm:ss.SSSXXXXX", "yyyy-MM-dd'T'HH:mm:ssXXXXX", "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'", "yyyy-MM-dd'T'HH:mm:ss'Z'"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }

    @Test(arguments: [
        "2026-11-23T09:00:00Z", "2026-11-23T09:00:00.123Z", "2024-02-29T23:59:59.999Z", "1969-12-31T23:59:59Z",
        "2026-11-23T09:00:00+02:00", "2026-11-23T09:00:00.250-05:30", "2000-01-01T00:00:00.001Z", "1999-03-01T12:34:56Z",
    ])
    func strictReaderAgreesWithTheFormatter(_ text: String) throws {
        let date = try #require(ISO8601.parse(text))
        #expect(date == Self.formatterDate(text))
    }

    @Test(arguments: ["2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z", "2026-11-23 09:00:00Z", "2026-11-23T09:00:00", "not a date"])
    func malformedDatesAreRefused(_ text: String) {
        #expect(ISO8601.parse(text) == nil)
    }

    @Test func writtenDatesReadBack() throws {
        let date = Date(timeIntervalSince1970: 1_795_000_000.125)
        #expect(ISO8601.parse(ISO8601.format(date)) == date)
    }

    static func httpFormatterDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }

    // Ruby VCR's `recorded_at` (Formats/HTTPDate.swift).
    @Test(arguments: [
        "Tue, 01 Nov 2011 04:58:44 GMT", "Thu, 29 Feb 2024 23:59:59 GMT", "Mon, 23 Nov 2026 09:00:00 UTC",
        "Wed, 31 Dec 1969 23:59:59 GMT", "Mon, 23 Nov 2026 09:00:00 +0200", "Mon, 23 Nov 2026 09:00:00 -0530",
    ])
    func httpDateReaderAgreesWithTheFormatter(_ text: String) throws {
        let date = try #require(HTTPDate.parse(text))
        #expect(date == Self.httpFormatterDate(text))
    }

    @Test(arguments: [
        "Tue, 01 Nov 2011 04:58:44", "Tue, 30 Feb 2011 04:58:44 GMT", "Tue, 01 Foo 2011 04:58:44 GMT",
        "Tue, 01 Nov 2011 24:00:00 GMT", "Tue 01 Nov 2011 04:58:44 GMT", "Tue, 1 Nov 2011 04:58:44 GMT",
        "Tue, 01 Nov 2011 04:58:44 GMT ", "Xyz, 01 Nov 2011 04:58:44 GMT", "Tue, 01 Nov +011 04:58:44 GMT", "",
    ])
    func malformedHTTPDatesAreRefused(_ text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }
}
