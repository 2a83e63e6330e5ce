import Foundation

/// ISO 8601 dates, read and written by hand.
///
/// Not `DateFormatter`: on Linux its ICU parser dies with a floating-point exception on a
/// fraction of many digits (`09:00:00.1232222…Z`, found by fuzzing), leaks on some malformed
/// strings, and costs a formatter per call. Reads `yyyy-MM-ddTHH:mm:ss[.fraction](Z|±HH:MM)`
/// in the proleptic Gregorian calendar; writes `yyyy-MM-ddTHH:mm:ss.SSSZ`.
enum ISO8601 {
    static func format(_ date: Date) -> String {
        // Years outside 1-9999 have no ISO form a reader accepts: clamp to the readable range.
        let raw = date.timeIntervalSince1970
        let seconds = raw.isFinite ? min(max(raw, GramophoneFormat.dateRange.lowerBound), GramophoneFormat.dateRange.upperBound) : 0
        // The nearest millisecond: DVR's `1434688721.440751` is .441, not .440. A date read from
        // "….254Z" is the nearest double (a `Date` counts from 2001, so near 1970 too it is only
        // as fine as ~1e9 s allows), a hair from .254 either way: it writes back as .254, so no
        // rewrite of a vinyl moves its dates (the VinylWriters fuzz target checks it).
        let milliseconds = Int((seconds * 1000).rounded())
        let whole = floorDivide(milliseconds, 1000)
        let days = floorDivide(whole, 86_400)
        let time = whole - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(time / 3600, 2)):\(pad(time / 60 % 60, 2)):\(pad(time % 60, 2)).\(pad(milliseconds - whole * 1000, 3))Z"
    }

    static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20 else { return nil }
        guard let year = digits(bytes[0..<4]), bytes[4] == UInt8(ascii: "-"), let month = digits(bytes[5..<7]), bytes[7] == UInt8(ascii: "-"),
            let day = digits(bytes[8..<10]), bytes[10] == UInt8(ascii: "T"), let hour = digits(bytes[11..<13]), bytes[13] == UInt8(ascii: ":"),
            let minute = digits(bytes[14..<16]), bytes[16] == UInt8(ascii: ":"), let second = digits(bytes[17..<19])
        else { return nil }
        var index = 19
        var nanoseconds = 0
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            var scale = 100_000_000
            while index < bytes.count, let digit = digits(bytes[index...index]) {
                nanoseconds += digit * scale  // digits past nanoseconds add nothing
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        guard index < bytes.count else { return nil }
        var offset = 0
        switch bytes[index] {
        case UInt8(ascii: "Z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard index + 6 == bytes.count, let hours = digits(bytes[(index + 1)...(index + 2)]), bytes[index + 3] == UInt8(ascii: ":"),
                let minutes = digits(bytes[(index + 4)...(index + 5)]), hours <= 23, minutes <= 59
            else { return nil }
            offset = (hours * 3600 + minutes * 60) * (bytes[index] == UInt8(ascii: "-") ? -1 : 1)
            index += 6
        default:
            return nil
        }
        guard index == bytes.count, year >= 1, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
            hour <= 23, minute <= 59, second <= 59
        else { return nil }
        let seconds = days(fromYear: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1e9)
    }

    /// The number `bytes` spell in ASCII digits only (`Int(_:)` would also take a sign); nil when empty.
    static func digits<Digits: Collection<UInt8>>(_ bytes: Digits) -> Int? {
        guard !bytes.isEmpty else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 (H. Hinnant's `days_from_civil`).
    static func days(fromYear year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day count since 1970-01-01 (`civil_from_days`).
    private static func civil(fromDays count: Int) -> (year: Int, month: Int, day: Int) {
        let z = count + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func floorDivide(_ a: Int, _ b: Int) -> Int {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
