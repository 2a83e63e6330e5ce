import Foundation

/// When the recorder stops recording a streamed response that has not ended: at a sentinel
/// event, after a number of events, or after a time, whichever comes first. What it recorded
/// until then is kept, the stream ends there for the caller too, and the vinyl says which limit
/// stopped it (`"end": {"stoppedBy": "sentinel [DONE]"}`).
///
/// The default stops at OpenAI's `data: [DONE]` and Anthropic's `message_stop`, and after a
/// minute, so a never-ending feed can be recorded:
///
/// ```swift
/// Recording(streamLimit: StreamLimit(sentinels: ["[END]"], events: 50, seconds: 10))
/// ```
public struct StreamLimit: Sendable, Hashable {
    /// An event whose data or type is one of these (a line, for streams other than server-sent
    /// events) is the last one recorded.
    public var sentinels: [String]
    /// Stop after this many events (lines, for other text streams); nil: no count.
    public var events: Int?
    /// Stop this many seconds after the response began (its headers arrived): what arrives
    /// later is not recorded, however soon or late your code reads it.
    public var seconds: TimeInterval

    /// A limit; each argument sets the property of the same name.
    public init(sentinels: [String] = ["[DONE]", "message_stop"], events: Int? = nil, seconds: TimeInterval = 60) {
        self.sentinels = sentinels
        self.events = events
        self.seconds = seconds
    }
}

/// Watches a recorded stream's pieces for the limit: counts its events, looks for sentinels.
struct StreamLimitWatch {
    let limit: StreamLimit
    let eventStream: Bool
    private var lines: LineSplitter
    private var parser = EventStreamParser()
    private var count = 0

    init(_ limit: StreamLimit, eventStream: Bool) {
        self.limit = limit
        self.eventStream = eventStream
        lines = LineSplitter(eventStream ? .eventStream : .asyncLines)
    }

    /// Reads the next piece; returns why to stop, if a limit is reached within it.
    mutating func read(_ piece: Data) -> String? {
        for line in lines.lines(in: piece) {
            let found: (data: String, type: String?)
            if eventStream {
                guard let event = parser.read(line: line) else { continue }
                found = (event.data, event.event)
            } else {
                found = (line, nil)
            }
            count += 1
            if let sentinel = limit.sentinels.first(where: { $0 == found.data || $0 == found.type }) {
                return "sentinel \(sentinel)"
            }
            if let maximum = limit.events, count >= maximum {
                return "\(maximum) event\(maximum == 1 ? "" : "s")"
            }
        }
        return nil
    }
}
