#if AsyncHTTPClient
import AsyncHTTPClient
import Foundation

extension Recording {
    /// How to record, reaching the network through `httpClient` for requests that come in
    /// through `HTTPClientSession`; the other arguments are those of
    /// `init(mode:session:redaction:hosts:streamLimit:reRecordAfter:environment:)`, in the same order.
    ///
    /// ```swift
    /// let turntable = try Turntable(vinylNamed: "weather", recording: Recording(httpClient: .shared))
    /// ```
    public init(
        mode: RecordMode? = nil,
        httpClient: HTTPClient?,
        redaction: Redaction = .default,
        hosts: [String]? = nil,
        streamLimit: StreamLimit = StreamLimit(),
        reRecordAfter: TimeInterval? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.init(mode: mode, redaction: redaction, hosts: hosts, streamLimit: streamLimit, reRecordAfter: reRecordAfter, environment: environment)
        self.httpClient = httpClient
    }
}
#endif
