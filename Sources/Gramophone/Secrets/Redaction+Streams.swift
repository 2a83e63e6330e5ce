import Foundation

// A streamed response is redacted event by event: each server-sent event's `data` (or each line
// of another text stream) that is JSON goes through the body steps as a JSON body of its own,
// and the chunk boundaries are carried over to the redacted body, so a replay still cuts the
// stream where it was cut when recorded.
extension Redaction {
    /// Applies the body steps to each event of `response`'s streamed body and scrubs `secrets`
    /// from it, keeping each chunk's place among the events.
    func redactStreamedBody(_ response: inout Track.Response, allowed: [SecretPlace], secrets: inout [String]) {
        guard var stream = response.stream else { return }
        let body = response.body
        let eventStream = response.headers.mediaType == "text/event-stream"
        let units = StreamCutter.eventRanges(in: body, eventStream: eventStream)
        var redacted = units.map { redactEvent(body.subdata(in: $0), eventStream: eventStream, allowed: allowed, secrets: &secrets) }
        let scrubber = Scrubber(secrets, sparing: written)
        redacted = redacted.map(scrubber.scrub)
        // Each chunk ends where it did among the events: at the same offset in an unchanged
        // event, and as near as the changed bytes allow in a redacted one.
        var (ends, unitIndex, newStart, newStarts): ([Int], Int, Int, [Int]) = ([], 0, 0, [])
        for unit in redacted {
            newStarts.append(newStart)
            newStart += unit.count
        }
        for range in stream.ranges {
            while unitIndex < units.count - 1, units[unitIndex].upperBound < range.upperBound { unitIndex += 1 }
            guard unitIndex < units.count else { ends.append(newStart); continue }
            let old = body.subdata(in: units[unitIndex])
            let offset = range.upperBound - units[unitIndex].lowerBound
            ends.append(newStarts[unitIndex] + Self.carry(offset, from: old, to: redacted[unitIndex]))
        }
        var previous = 0
        for index in stream.chunks.indices {
            let end = max(previous, min(ends[index], newStart))
            stream.chunks[index].length = end - previous
            previous = end
        }
        if let last = stream.chunks.indices.last { stream.chunks[last].length += newStart - previous }
        response.body = redacted.reduce(into: Data()) { $0.append($1) }
        response.stream = stream
    }

    /// Where `offset` in `old` lands in `new`: unchanged before the first changed byte and
    /// after the last, clamped inside the change.
    private static func carry(_ offset: Int, from old: Data, to new: Data) -> Int {
        if old == new { return offset }
        let prefix = zip(old, new).prefix { $0 == $1 }.count
        let suffix = zip(old.reversed(), new.reversed()).prefix { $0 == $1 }.count
        let oldSuffix = min(suffix, old.count - prefix)
        let newSuffix = min(suffix, new.count - prefix)
        if offset <= prefix { return offset }
        if offset >= old.count - oldSuffix { return new.count - (old.count - offset) }
        return min(offset, new.count - newSuffix)
    }

    /// One event with its JSON `data` lines (or, outside event streams, its JSON line) redacted.
    private func redactEvent(_ event: Data, eventStream: Bool, allowed: [SecretPlace], secrets: inout [String]) -> Data {
        guard UTF8Validation.isValid(event) else { return event }
        let text = String(decoding: event, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var changed = false
        for index in lines.indices {
            var line = lines[index]
            let carriageReturn = line.hasSuffix("\r")
            if carriageReturn { line.removeLast() }
            guard !eventStream || line.hasPrefix("data:") else { continue }
            let prefix = !eventStream ? "" : line.hasPrefix("data: ") ? "data: " : "data:"
            let payload = String(line.dropFirst(prefix.count))
            guard let first = payload.first, first == "{" || first == "[" else { continue }
            let redacted = redactJSONPart(Data(payload.utf8), side: .response, allowed: allowed, secrets: &secrets)
            guard redacted != Data(payload.utf8) else { continue }
            lines[index] = prefix + String(decoding: redacted, as: UTF8.self) + (carriageReturn ? "\r" : "")
            changed = true
        }
        return changed ? Data(lines.joined(separator: "\n").utf8) : event
    }
}
