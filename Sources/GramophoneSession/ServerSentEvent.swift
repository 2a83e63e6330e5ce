import Foundation

/// One server-sent event (`text/event-stream`), as `bytes.events` reads it and as a stub sends it.
///
/// ```swift
/// let (bytes, _) = try await session.bytes(for: request)
/// for try await event in bytes.events where event.data != "[DONE]" {
///     let delta = try JSONDecoder().decode(Delta.self, from: Data(event.data.utf8))
/// }
/// ```
public struct ServerSentEvent: Sendable, Equatable {
    /// The `data` lines, joined with line feeds.
    public var data: String
    /// The `event` field: the event's type; nil is the default type, `message`.
    public var event: String?
    /// The `id` field, if the event has one.
    public var id: String?
    /// The `retry` field: the reconnection time in milliseconds, if the event sets one.
    public var retry: Int?

    /// An event with `data` (several lines become several `data` fields) and the other fields if given.
    public init(data: String, event: String? = nil, id: String? = nil, retry: Int? = nil) {
        self.data = data
        self.event = event
        self.id = id
        self.retry = retry
    }

    /// The event as a server writes it, ending with the empty line that ends an event.
    package var text: String {
        // A line break would end the field early: in `id` and `event` it becomes a space; in
        // `data` each line is a field of its own, and a trailing line feed an empty last field.
        func oneLine(_ value: String) -> String { value.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ") }
        var text = ""
        if let id { text += "id: \(oneLine(id))\n" }
        if let event { text += "event: \(oneLine(event))\n" }
        if let retry { text += "retry: \(retry)\n" }
        let normalized = data.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        for line in normalized.split(separator: "\n", omittingEmptySubsequences: false) { text += "data: \(line)\n" }
        return text + "\n"
    }
}

/// Reads server-sent events from lines, as the HTML standard's event-stream interpretation does:
/// `field: value` lines build an event, an empty line dispatches it, `:` lines are comments, and
/// an event the stream ends in the middle of is dropped.
package struct EventStreamParser: Sendable {
    private var data: [String] = []
    private var event: String?
    private var id: String?
    private var retry: Int?

    package init() {}

    private var first = true

    /// Reads one line (without its terminator); returns the event an empty line completes.
    package mutating func read(line: String) -> ServerSentEvent? {
        // The stream may open with a byte order mark, which is not part of the first field.
        if first {
            first = false
            if line.hasPrefix("\u{FEFF}") { return read(line: String(line.dropFirst())) }
        }
        if line.isEmpty {
            defer { data = []; event = nil; retry = nil }
            // The standard dispatches only events with data (an empty `data:` counts).
            guard !data.isEmpty else { return nil }
            return ServerSentEvent(data: data.joined(separator: "\n"), event: event, id: id, retry: retry)
        }
        if line.hasPrefix(":") { return nil }
        let field: Substring
        var value: Substring
        if let colon = line.firstIndex(of: ":") {
            field = line[..<colon]
            value = line[line.index(after: colon)...]
            if value.hasPrefix(" ") { value = value.dropFirst() }
        } else {
            field = line[...]
            value = ""
        }
        switch field {
        case "data": data.append(String(value))
        case "event": event = String(value)
        case "id": if !value.contains("\u{0}") { id = String(value) }
        case "retry": if !value.isEmpty, value.allSatisfy({ $0.isASCII && $0.isNumber }) { retry = Int(value) }
        default: break
        }
        return nil
    }
}
