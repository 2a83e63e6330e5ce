import Foundation
import Testing

@testable import Gramophone

/// A track's duration is written in seconds to the microsecond, without trailing zeros
/// (`"recorded": "…Z/PT0.084S"`): re-recording an unchanged API must write the same text.
@Suite struct DurationWritingTests {
    @Test(arguments: [
        (0.0, "0"), (1.0, "1"), (0.084, "0.084"), (0.5, "0.5"), (1.000001, "1.000001"), (0.0000004, "0"), (0.0000006, "0.000001"),
        (12.34, "12.34"), (0.1234567, "0.123457"), (59.99999999, "60"), (-3.0, "0"), (100.010203, "100.010203"),
    ])
    func secondsAreWrittenToTheMicrosecond(_ seconds: Double, _ text: String) {
        #expect(GramophoneFormat.decimalSeconds(seconds) == text)
    }
}
