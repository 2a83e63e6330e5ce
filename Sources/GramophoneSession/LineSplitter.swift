import Foundation

/// Cuts a body that arrives in pieces into lines, whatever the pieces' boundaries: a line (or a
/// CR LF pair) split across two pieces comes out whole.
///
/// Two rule sets: `bytes.lines` follows `URLSession.AsyncBytes.lines` (CR, LF, CR LF, NEL, LS and
/// PS end a line; empty lines are left out), so code moved from URLSession reads the same lines;
/// server-sent events need the empty lines that end each event and only CR, LF and CR LF.
package struct LineSplitter: Sendable {
    package enum Rules: Sendable {
        /// As `URLSession.AsyncBytes.lines`.
        case asyncLines
        /// As the server-sent events format: empty lines kept.
        case eventStream
    }

    private let rules: Rules
    private var pending: [UInt8] = []
    /// The last piece ended with CR: an LF opening the next piece belongs to it.
    private var afterCR = false
    /// The last piece ended with the first bytes of NEL, LS or PS: they open the next one.
    private var carry: [UInt8] = []

    package init(_ rules: Rules) { self.rules = rules }

    /// The lines `piece` completes.
    package mutating func lines(in piece: Data) -> [String] {
        if !carry.isEmpty {
            let joined = Data(carry) + piece
            carry.removeAll()
            return lines(in: joined)
        }
        var lines: [String] = []
        piece.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = raw.bindMemory(to: UInt8.self)
            var start = afterCR && bytes.first == 0x0A ? 1 : 0
            var index = start
            afterCR = false
            while index < bytes.count {
                let byte = bytes[index]
                var terminator = 0
                if byte == 0x0A || byte == 0x0D {
                    terminator = 1
                } else if rules == .asyncLines, byte == 0xC2, index + 1 < bytes.count, bytes[index + 1] == 0x85 {
                    terminator = 2
                } else if rules == .asyncLines, byte == 0xE2, index + 2 < bytes.count, bytes[index + 1] == 0x80,
                    bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9
                {
                    terminator = 3
                }
                if terminator == 0 {
                    index += 1
                    continue
                }
                emit(UnsafeBufferPointer(rebasing: bytes[start..<index]), into: &lines)
                index += terminator
                if byte == 0x0D {
                    if index == bytes.count { afterCR = true } else if bytes[index] == 0x0A { index += 1 }
                }
                start = index
            }
            var end = bytes.count
            if rules == .asyncLines, end > start {
                // A separator cut by the piece's end: wait for the rest of it.
                let last = bytes[end - 1]
                if last == 0xC2 || last == 0xE2 {
                    end -= 1
                } else if last == 0x80, end - start >= 2, bytes[end - 2] == 0xE2 {
                    end -= 2
                }
                carry = Array(UnsafeBufferPointer(rebasing: bytes[end..<bytes.count]))
            }
            pending.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end]))
        }
        return lines
    }

    /// The last line, which had no terminator; nil when there is none (or it is empty and
    /// empty lines are left out).
    package mutating func finish() -> String? {
        pending += carry
        carry.removeAll()
        defer { pending.removeAll() }
        guard !pending.isEmpty else { return nil }
        return String(decoding: pending, as: UTF8.self)
    }

    private mutating func emit(_ tail: UnsafeBufferPointer<UInt8>, into lines: inout [String]) {
        if pending.isEmpty {
            if tail.isEmpty, rules == .asyncLines { return }
            lines.append(String(decoding: tail, as: UTF8.self))
        } else {
            pending.append(contentsOf: tail)
            lines.append(String(decoding: pending, as: UTF8.self))
            pending.removeAll(keepingCapacity: true)
        }
    }
}
