import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request no track answered, sent to the real network to be recorded, that failed there
/// (the server down, a refused connection, a timeout). It says which vinyl sent it live, in
/// which mode, and why: a misspelt vinyl name starts a new, empty vinyl, whose every request
/// goes live. The client's own error is `underlyingError`.
///
/// ```text
/// Gramophone: GET http://localhost:8080/items/7 failed on the real network: Could not connect to the server.
///   It went to the network because no track of vinyl "RESTClientTest/missingItem" (…/missingItem.json) matched it,
///   and the record mode is once with a new vinyl (no file existed when the Turntable was made).
///   Did you mean "RESTClientTest/missingItems"? Nearest existing vinyls in that folder: "RESTClientTest/missingItems".
/// ```
///
/// A cancelled request is not wrapped: it fails with the cancellation the caller asked for.
public struct LiveRequestError: Error, CustomStringConvertible {
    /// The request as the code under test sent it, redacted as the recording redacts what it
    /// writes: the error is printed, and a live credential must not reach a log.
    public package(set) var request: Track.Request
    /// The vinyl's name, as the Turntable was asked for it.
    public package(set) var vinylName: String
    /// The vinyl's file.
    public package(set) var file: URL
    /// The record mode in force.
    public package(set) var mode: RecordMode
    /// No vinyl file existed when the Turntable was made.
    package var isNewVinyl: Bool
    /// For a new vinyl, the nearest names of the vinyls in its folder, nearest first.
    package var nearestVinylNames: [String]
    /// The error the real network gave, as the client's own session threw it.
    public package(set) var underlyingError: any Error

    /// Whether `error` is a cancellation, which is passed on as it is.
    static func isCancellation(_ error: any Error) -> Bool {
        if error is CancellationError { return true }
        if let error = error as? URLError, error.code == .cancelled { return true }
        return false
    }

    public var description: String {
        let underlying: String
        if let error = underlyingError as? URLError {
            underlying = "\(error.localizedDescription) (URLError \(error.code.rawValue))"
        } else if underlyingError is LocalizedError {
            underlying = underlyingError.localizedDescription
        } else {
            // A client library's own error (AsyncHTTPClient's) describes itself best.
            underlying = String(describing: underlyingError)
        }
        var lines = ["Gramophone: \(request.method) \(request.url.absoluteString) failed on the real network: \(underlying)"]
        let why = isNewVinyl ? "the record mode is \(mode) with a new vinyl (no file existed when the Turntable was made)" : "the record mode is \(mode), which records what the vinyl lacks"
        lines.append("  It went to the network because no track of vinyl \"\(vinylName)\" (\(file.path)) matched it, and \(why).")
        if isNewVinyl { lines.append("  " + VinylNames.hint(for: vinylName, nearest: nearestVinylNames)) }
        lines.append(
            "  To fix: check the vinyl's name\(isNewVinyl ? " (a misspelt name starts a new vinyl)" : ""); or make the server reachable and run again to record it; or replay only with GRAMOPHONE_RECORD_MODE=never. Nothing was recorded for this request."
        )
        return lines.joined(separator: "\n")
    }
}

extension LiveRequestError: LocalizedError {
    /// The whole explanation, as `description` gives it: what `localizedDescription` shows.
    public var errorDescription: String? { description }
}
