import Foundation

/// HTTP dates (`Tue, 01 Nov 2011 04:58:44 GMT`, RFC 9110's IMF-fixdate), read by hand.
///
/// Ruby VCR writes `recorded_at` this way. Not `DateFormatter`, for the reasons in ``ISO8601``:
/// on Linux it leaks on malformed input (found by fuzzing the VCR reader) and costs a formatter
/// per call. Accepts the zone as `GMT`, `UTC`, `Z` or `±HHMM`; the weekday is checked to be a
/// weekday name, not that it agrees with the date, as HTTP readers do.
enum HTTPDate {
    private static let weekdays: Set<String> = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func parse(_ text: String) -> Date? {
        // "Tue," "01" "Nov" "2011" "04:58:44" "GMT": the fields ISO 8601 has no place for are
        // checked here, and the date they spell is read as ISO 8601, which checks the numbers.
        let fields = text.split(separator: " ", omittingEmptySubsequences: false)
        guard fields.count == 6, fields[0].count == 4, fields[0].last == ",", weekdays.contains(String(fields[0].dropLast())),
            fields[1].count == 2, let month = months.firstIndex(of: String(fields[2])), fields[3].count == 4, fields[4].count == 8,
            let zone = isoZone(fields[5])
        else { return nil }
        return ISO8601.parse("\(fields[3])-\(month < 9 ? "0" : "")\(month + 1)-\(fields[1])T\(fields[4])\(zone)")
    }

    /// The zone as ISO 8601 spells it: `Z`, or `±HH:MM` for `±HHMM`.
    private static func isoZone(_ field: Substring) -> String? {
        switch field {
        case "GMT", "UTC", "Z": return "Z"
        default:
            guard field.count == 5, field.first == "+" || field.first == "-" else { return nil }
            return "\(field.prefix(3)):\(field.suffix(2))"
        }
    }
}
