import Foundation

/// Cuts a streamed body into the pieces a chunking asks for, each with the time it is due.
enum StreamCutter {
    static func cut(_ stream: TrackStream, body: Data, into chunking: StreamChunking, eventStream: Bool) -> [(offset: TimeInterval, data: Data)] {
        let stream = stream.fitted(to: body.count)
        let recorded = Array(zip(stream.chunks, stream.ranges))
        switch chunking {
        case .asRecorded:
            return recorded.map { ($0.0.offset, body.subdata(in: $0.1)) }
        case .eventPerChunk, .splitEvents:
            // Each event is due when the recorded chunk holding its last byte was.
            func offset(at end: Int) -> TimeInterval {
                recorded.first { $0.1.upperBound >= end }?.0.offset ?? recorded.last?.0.offset ?? 0
            }
            var pieces: [(offset: TimeInterval, data: Data)] = []
            for range in eventRanges(in: body, eventStream: eventStream) {
                let due = offset(at: range.upperBound)
                if chunking == .splitEvents, range.count > 1 {
                    let middle = range.lowerBound + range.count / 2
                    pieces.append((offset(at: middle), body.subdata(in: range.lowerBound..<middle)))
                    pieces.append((due, body.subdata(in: middle..<range.upperBound)))
                } else {
                    pieces.append((due, body.subdata(in: range)))
                }
            }
            return pieces
        }
    }

    /// The byte ranges of a body's events: server-sent events up to and including the empty
    /// line that ends each; lines (with their line feed) for other text. Whatever follows the
    /// last complete one is a range of its own.
    static func eventRanges(in body: Data, eventStream: Bool) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        body.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = raw.bindMemory(to: UInt8.self)
            var start = 0
            var lineStart = 0
            var index = 0
            while index < bytes.count {
                if bytes[index] == 0x0A {
                    let line = lineStart..<index
                    let empty = line.isEmpty || (line.count == 1 && bytes[line.lowerBound] == 0x0D)
                    if !eventStream || (empty && lineStart > start) {
                        ranges.append(start..<(index + 1))
                        start = index + 1
                    }
                    lineStart = index + 1
                }
                index += 1
            }
            if start < bytes.count { ranges.append(start..<bytes.count) }
        }
        return ranges
    }
}
