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
        // "Tue," "01" "Nov" "2011" "04:58:44" "GMT"
        let fields = text.split(separator: " ", omittingEmptySubsequences: false)
        guard fields.count == 6, fields[0].count == 4, fields[0].last == ",",
            weekdays.contains(String(fields[0].dropLast())),
            fields[1].count == 2, let day = ISO8601.digits(fields[1].utf8),
            let monthIndex = months.firstIndex(of: String(fields[2])),
            fields[3].count == 4, let year = ISO8601.digits(fields[3].utf8), year >= 1,
            let seconds = timeOfDay(fields[4]), let offset = zoneOffset(fields[5])
        else { return nil }
        let month = monthIndex + 1
        guard day >= 1, day <= ISO8601.daysIn(month: month, year: year) else { return nil }
        let total = ISO8601.days(fromYear: year, month: month, day: day) * 86_400 + seconds - offset
        return Date(timeIntervalSince1970: Double(total))
    }

    /// `HH:MM:SS` as seconds since midnight.
    private static func timeOfDay(_ field: Substring) -> Int? {
        let parts = field.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ $0.count == 2 }),
            let hour = ISO8601.digits(parts[0].utf8), let minute = ISO8601.digits(parts[1].utf8), let second = ISO8601.digits(parts[2].utf8),
            hour <= 23, minute <= 59, second <= 59
        else { return nil }
        return hour * 3600 + minute * 60 + second
    }

    /// Seconds east of UTC.
    private static func zoneOffset(_ field: Substring) -> Int? {
        switch field {
        case "GMT", "UTC", "Z": return 0
        default:
            guard field.count == 5, let sign = field.first, sign == "+" || sign == "-",
                let hours = ISO8601.digits(field.dropFirst().prefix(2).utf8), let minutes = ISO8601.digits(field.suffix(2).utf8),
                hours <= 23, minutes <= 59
            else { return nil }
            return (hours * 3600 + minutes * 60) * (sign == "-" ? -1 : 1)
        }
    }
}
