import Foundation
import Testing
@testable import Gramophone

/// Vinyl dates are read by hand (Formats/ISO8601.swift); the result must be the Date a
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

    @Test(arguments: ["2026-11-23T09:00:00Z", "2026-11-23T09:00:00.123Z", "2024-02-29T23:59:59.999Z", "1969-12-31T23:59:59Z",
                      "2026-11-23T09:00:00+02:00", "2026-11-23T09:00:00.250-05:30", "2000-01-01T00:00:00.001Z", "1999-03-01T12:34:56Z"])
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
}
