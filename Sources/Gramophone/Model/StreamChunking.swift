import Foundation

/// How a Turntable cuts a streamed response into pieces when it plays it back: as it was
/// recorded, or re-cut to test a client's parser against chunks that do not line up with events.
///
/// ```swift
/// turntable.chunking = .splitEvents   // half an event per chunk: does the client still parse every event?
/// ```
public enum StreamChunking: Sendable, Hashable {
    /// Each chunk as it arrived when recorded (or as the stub lists it): the default.
    case asRecorded
    /// One chunk per server-sent event (per line for other text streams).
    case eventPerChunk
    /// Every event cut in two, its first half ending one chunk and its second opening the next.
    case splitEvents
}
